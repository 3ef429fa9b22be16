/** A session's cookies over CDP (Storage.*) on the browser target, scoped to the session's browser context. */
import type { CDPSession } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import type { Session } from '../session/session.js';

/** A cookie as CDP reports it (Storage.getCookies), the fields brow keeps. */
export interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  sourcePort?: number;
  sourceScheme?: 'Unset' | 'NonSecure' | 'Secure';
  priority?: 'Low' | 'Medium' | 'High';
  partitionKey?: unknown;
}

/** A cookie to set: url, or domain (+ path). */
export interface CookieInput {
  name: string;
  value: string;
  url?: string | undefined;
  domain?: string | undefined;
  path?: string | undefined;
  expires?: number | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: 'Strict' | 'Lax' | 'None' | undefined;
}

export interface CookieFilter {
  urls?: string[] | undefined;
  name?: string | undefined;
}

/** Run fn with a CDP session on the browser target (Storage.* takes a browserContextId there). */
async function withBrowserCdp<T>(session: Session, fn: (cdp: CDPSession) => Promise<T>): Promise<T> {
  const cdp = await session.host.browser.target().createCDPSession();
  try {
    return await fn(cdp);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The context's id for Storage.*: omitted for the default context (an attached browser's). */
const contextId = (session: Session) =>
  session.context.id ? { browserContextId: session.context.id } : ({} as Record<string, never>);

/** Whether a cookie would be sent to url (domain, path and secure rules; no SameSite). */
export function cookieMatchesUrl(c: StoredCookie, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname;
  const domain = c.domain.startsWith('.') ? c.domain.slice(1) : c.domain;
  const domainOk = c.domain.startsWith('.')
    ? host === domain || host.endsWith(`.${domain}`)
    : host === domain;
  if (!domainOk) return false;
  const path = u.pathname || '/';
  const pathOk =
    path === c.path ||
    (path.startsWith(c.path) && (c.path.endsWith('/') || path.charAt(c.path.length) === '/'));
  if (!pathOk) return false;
  return !c.secure || u.protocol === 'https:' || host === 'localhost' || host === '127.0.0.1';
}

function matches(c: StoredCookie, f: CookieFilter): boolean {
  if (f.name !== undefined && c.name !== f.name) return false;
  if (f.urls && f.urls.length > 0 && !f.urls.some((u) => cookieMatchesUrl(c, u))) return false;
  return true;
}

/** The session's cookies, filtered by name and the URLs they would be sent to. */
export async function getCookies(session: Session, filter: CookieFilter = {}): Promise<StoredCookie[]> {
  const { cookies } = await withBrowserCdp(session, (cdp) =>
    cdp.send('Storage.getCookies', { ...contextId(session) }),
  );
  return (cookies as StoredCookie[]).filter((c) => matches(c, filter));
}

/** CDP's CookieParam for a cookie brow read back: host-only cookies are set by URL so they stay host-only. */
function paramOf(c: StoredCookie) {
  const hostOnly = !c.domain.startsWith('.');
  const scheme = c.secure || c.sourceScheme === 'Secure' ? 'https' : 'http';
  const port =
    c.sourcePort && c.sourcePort > 0 && c.sourcePort !== 80 && c.sourcePort !== 443 ? `:${c.sourcePort}` : '';
  return {
    name: c.name,
    value: c.value,
    ...(hostOnly ? { url: `${scheme}://${c.domain}${port}${c.path}` } : { domain: c.domain }),
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    ...(!c.session && c.expires > 0 ? { expires: c.expires } : {}),
    ...(c.priority ? { priority: c.priority } : {}),
    // a partitioned (CHIPS) cookie goes back into its partition
    ...(c.partitionKey
      ? { partitionKey: c.partitionKey as { topLevelSite: string; hasCrossSiteAncestor: boolean } }
      : {}),
  };
}

/** Put cookies brow saved (Storage.getCookies records) back into the session's context. */
export async function restoreCookies(session: Session, cookies: StoredCookie[]): Promise<void> {
  if (cookies.length === 0) return;
  await withBrowserCdp(session, (cdp) =>
    cdp.send('Storage.setCookies', { cookies: cookies.map(paramOf), ...contextId(session) }),
  );
}

/** Set cookies a caller gave: each needs url, or domain. */
export async function setCookies(session: Session, cookies: CookieInput[]): Promise<void> {
  cookies.forEach((c, i) => {
    if (!c.url && !c.domain) {
      throw new BrowserError('invalid_request', `cookies[${i}] (${c.name}) has neither url nor domain.`, {
        hint: 'Give url ("https://example.com/") or domain (".example.com") with path.',
        details: { field: `cookies[${i}]` },
      });
    }
    if (c.sameSite === 'None' && c.secure === false) {
      throw new BrowserError('invalid_request', `cookies[${i}] (${c.name}): sameSite None needs secure.`, {
        hint: 'Set secure: true, or use sameSite Lax.',
        details: { field: `cookies[${i}]` },
      });
    }
  });
  const params = cookies.map((c) => ({
    name: c.name,
    value: c.value,
    ...(c.url ? { url: c.url } : {}),
    ...(c.domain ? { domain: c.domain } : {}),
    path: c.path ?? '/',
    ...(c.expires !== undefined ? { expires: c.expires } : {}),
    ...(c.httpOnly !== undefined ? { httpOnly: c.httpOnly } : {}),
    ...(c.secure !== undefined ? { secure: c.secure } : {}),
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
  }));
  await withBrowserCdp(session, async (cdp) => {
    try {
      await cdp.send('Storage.setCookies', { cookies: params, ...contextId(session) });
    } catch (e) {
      throw new BrowserError('invalid_request', `Chromium refused the cookies: ${(e as Error).message}`, {
        hint: 'Check url/domain, path and expires (seconds since the epoch).',
        cause: e,
      });
    }
  });
}

/**
 * Remove the session's cookies; with a filter only the matching ones (each is set again expired,
 * which removes it: Storage has no per-cookie delete). Returns how many were removed.
 */
export async function clearCookies(session: Session, filter: CookieFilter = {}): Promise<number> {
  const all = await getCookies(session);
  const doomed = all.filter((c) => matches(c, filter));
  if (doomed.length === 0) return 0;
  await withBrowserCdp(session, async (cdp) => {
    if (doomed.length === all.length) {
      await cdp.send('Storage.clearCookies', { ...contextId(session) });
      return;
    }
    await cdp.send('Storage.setCookies', {
      cookies: doomed.map((c) => ({ ...paramOf(c), expires: 1 })),
      ...contextId(session),
    });
  });
  return doomed.length;
}
