/** Who may talk to the server: loopback Host/Origin (no DNS rebinding), and a token off loopback. */
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

export interface GuardOptions {
  host: string;
  port: number;
  token: string | null;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const isLoopbackBind = (host: string): boolean => LOOPBACK_NAMES.has(host) || host.startsWith('127.');

function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0] ?? '';
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** null when allowed, else the reason to refuse (HTTP 403/401). */
export function checkRequest(req: IncomingMessage, opts: GuardOptions): { status: number; reason: string } | null {
  const host = req.headers.host ?? '';
  const allowedHosts = new Set([opts.host, ...(isLoopbackBind(opts.host) ? LOOPBACK_NAMES : [])]);
  if (!allowedHosts.has(hostName(host))) {
    return { status: 403, reason: `Host "${host}" is not this server (DNS rebinding protection).` };
  }
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    let o: URL | null = null;
    try {
      o = new URL(origin);
    } catch {
      o = null;
    }
    if (!o || !allowedHosts.has(o.hostname.includes(':') ? `[${o.hostname}]` : o.hostname) || Number(o.port || 80) !== opts.port) {
      return { status: 403, reason: `Origin "${origin}" may not drive this server.` };
    }
  } else if (origin === 'null') {
    return { status: 403, reason: 'Opaque origins may not drive this server.' };
  }
  if (opts.token) {
    const auth = req.headers.authorization ?? '';
    const url = new URL(req.url ?? '/', 'http://x');
    const given = auth.startsWith('Bearer ') ? auth.slice(7) : (url.searchParams.get('token') ?? '');
    if (!given || !sameToken(given, opts.token)) return { status: 401, reason: 'A valid token is required (Authorization: Bearer <token>).' };
  }
  return null;
}
