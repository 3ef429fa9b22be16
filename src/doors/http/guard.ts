/**
 * Who may talk to the server (SPEC §7). A web page in the user's browser must never drive it:
 * the Host header must name this server (no DNS rebinding), a browser request must come from
 * this server's own origin (Origin, or Sec-Fetch-Site when Origin is absent), and off loopback
 * every request carries the token.
 */
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

export interface GuardOptions {
  /** The address the server is bound to. */
  host: string;
  port: number;
  token: string | null;
}

export interface Refusal {
  status: 401 | 403;
  reason: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

const isLoopbackName = (name: string): boolean => LOOPBACK_NAMES.has(name) || IPV4_LOOPBACK.test(name);

/** True when binding `host` keeps the server on this machine (a name like 127.evil.example is not). */
export const isLoopbackBind = (host: string): boolean => isLoopbackName(host.toLowerCase());

/** `[::1]` for `::1`, lowercased, so bind addresses compare with URL hostnames. */
function canonicalName(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

interface HostPort {
  name: string;
  port: number;
  /** name[:port] as a URL prints it (default port dropped). */
  host: string;
}

/** Parse `name[:port]` (a Host header) or a URL's origin; null when malformed. */
function parseAuthority(authority: string, scheme = 'http:'): HostPort | null {
  if (!/^[\w.~%!$&'()*+,;=:[\]-]+$/.test(authority)) return null;
  try {
    const u = new URL(`${scheme}//${authority}`);
    return { name: u.hostname, port: Number(u.port || (scheme === 'https:' ? 443 : 80)), host: u.host };
  } catch {
    return null;
  }
}

function parseOrigin(origin: string): HostPort | null {
  try {
    const u = new URL(origin);
    if (
      (u.protocol !== 'http:' && u.protocol !== 'https:') ||
      u.origin !== origin.toLowerCase().replace(/\/$/, '')
    )
      return null;
    return { name: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), host: u.host };
  } catch {
    return null;
  }
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function givenToken(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? '';
  const m = /^bearer\s+(.+)$/i.exec(auth.trim());
  if (m) return m[1]!.trim();
  // EventSource and plain links cannot set headers; a query token serves them
  return new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
}

/** null when the request may proceed, else the status and reason to refuse it. */
export function checkRequest(req: IncomingMessage, opts: GuardOptions): Refusal | null {
  const hostHeader = req.headers.host ?? '';
  const host = parseAuthority(hostHeader);
  if (!host) return { status: 403, reason: `Host "${hostHeader}" is not a valid host.` };
  // Off loopback the token is the protection and clients reach us by any name; on loopback a
  // foreign name means a page whose DNS was rebound to 127.0.0.1.
  const anyName = opts.token !== null && !isLoopbackBind(opts.host);
  if (!anyName && !isLoopbackName(host.name) && host.name !== canonicalName(opts.host)) {
    return { status: 403, reason: `Host "${hostHeader}" is not this server (DNS rebinding protection).` };
  }

  const origin = req.headers.origin;
  if (origin !== undefined) {
    const o = parseOrigin(origin);
    if (!o) return { status: 403, reason: `Origin "${origin}" may not drive this server.` };
    const sameOrigin = o.host === host.host;
    // localhost and 127.0.0.1 are two origins of one loopback server
    const loopbackAlias = isLoopbackName(o.name) && isLoopbackName(host.name) && o.port === host.port;
    if (!sameOrigin && !loopbackAlias)
      return { status: 403, reason: `Origin "${origin}" may not drive this server.` };
  } else {
    // no Origin: a browser still says where a no-cors request (img, script, link) came from
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      return { status: 403, reason: 'Requests from other web pages may not drive this server.' };
    }
  }

  if (opts.token) {
    const given = givenToken(req);
    if (!given || !sameToken(given, opts.token)) {
      return { status: 401, reason: 'A valid token is required (Authorization: Bearer <token>).' };
    }
  }
  return null;
}
