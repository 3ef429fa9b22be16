/**
 * A session's network policy as data: routes (URL glob or substring → block | fulfill | continue)
 * and settings (offline, extra headers, credentials, origin allow/block lists). Pure: no browser.
 */
import { BrowserError } from '../errors.js';

export type RouteAction = 'block' | 'fulfill' | 'continue';

export interface RouteSpec {
  pattern: string;
  action: RouteAction;
  /** fulfill: status, headers, body, content type; continue: headers added to the request. */
  status?: number | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  content_type?: string | undefined;
  /** Matches before the route retires; absent = until unrouted. */
  times?: number | undefined;
}

export interface Route extends RouteSpec {
  /** Matches so far. */
  hits: number;
  test(url: string): boolean;
}

/** Which origins a session may reach; null = no list. */
export interface OriginPolicy {
  allowed: string[] | null;
  blocked: string[] | null;
}

/**
 * A pattern with `*` is a glob over the whole URL (`**` any characters, `*` any but `/`);
 * without `*` it matches URLs that contain it.
 */
export function urlMatcher(pattern: string): (url: string) => boolean {
  if (!pattern.includes('*')) return (url) => url.includes(pattern);
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (url) => re.test(url);
}

export function makeRoute(spec: RouteSpec): Route {
  return { ...spec, hits: 0, test: urlMatcher(spec.pattern) };
}

/**
 * Why `url` is refused by the origin lists (`blocked_origins` / `allowed_origins`), or null.
 * Self-contained (no outer references): it is also serialised into pages to guard WebSocket.
 * An entry is an origin (`https://a.com`, `http://127.0.0.1:8080`: scheme, host and port must
 * agree; ws/wss count as http/https), a host (`a.com`, any scheme and port) or `*.a.com` (a.com
 * and its subdomains). Only http(s) and ws(s) URLs are judged: data:, blob:, about: always pass.
 */
export function originVerdict(url: string, policy: OriginPolicy): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const scheme = u.protocol === 'ws:' ? 'http:' : u.protocol === 'wss:' ? 'https:' : u.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') return null;
  const defaultPort = scheme === 'https:' ? '443' : '80';
  const port = u.port || defaultPort;
  const host = u.hostname.toLowerCase();
  const matches = (entry: string): boolean => {
    const e = entry.trim().toLowerCase();
    if (e.includes('://')) {
      try {
        const o = new URL(e);
        const oScheme = o.protocol === 'ws:' ? 'http:' : o.protocol === 'wss:' ? 'https:' : o.protocol;
        const oPort = o.port || (oScheme === 'https:' ? '443' : '80');
        return oScheme === scheme && o.hostname === host && oPort === port;
      } catch {
        return false;
      }
    }
    if (e.startsWith('*.')) return host === e.slice(2) || host.endsWith(e.slice(1));
    const [h, p] = e.split(':');
    return h === host && (p === undefined || p === port);
  };
  if (policy.blocked?.some(matches)) return 'blocked_origins';
  if (policy.allowed && !policy.allowed.some(matches)) return 'allowed_origins';
  return null;
}

/** Check origin list entries; invalid_request names the bad one. */
export function checkOriginEntries(field: string, entries: string[]): void {
  for (const e of entries) {
    const ok = e.includes('://')
      ? URL.canParse(e) && /^(https?|wss?):$/.test(new URL(e).protocol)
      : /^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(e) || /^\[[0-9a-f:]+\](:\d{1,5})?$/i.test(e);
    if (!ok) {
      throw new BrowserError('invalid_request', `${field}: "${e}" is not an origin or host.`, {
        hint: 'Use an origin ("https://example.com", "http://127.0.0.1:8080"), a host ("example.com") or "*.example.com".',
      });
    }
  }
}
