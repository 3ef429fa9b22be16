/**
 * Per-session network control, applied to every page of the session (those open now and those it
 * opens later, popups included, through `session.pageSetups`).
 *
 * Requests are intercepted with puppeteer's request interception (cooperative mode), not a Fetch
 * session of our own: puppeteer already enables Fetch on every target of a page — the main frame,
 * out-of-process iframes and dedicated workers — and keeps its own request events (which feed the
 * network log and request-body capture) consistent with what the route did. A second Fetch client
 * would pause requests puppeteer never hears about. Interception is on only while a route or an
 * origin list exists (it disables the HTTP cache).
 *
 * One puppeteer flaw is corrected here: a dedicated worker's request is paused by the Fetch domain
 * of the page's main target, but puppeteer pairs it with the worker's session and resolves it
 * there, where Chromium does not know the interception id — the request would hang. We note the
 * ids the main target paused and hand such a request back to that session (`HTTPRequest.client`
 * has a public setter for this).
 *
 * WebSocket handshakes are not intercepted by Chromium's Fetch domain (nor by
 * Network.setBlockedURLs), so the origin lists guard `WebSocket` with a script in every document
 * (ws-guard.ts); a blocked one throws SecurityError in the page and is logged.
 */
import { pageClient, requestInterceptionId, setRequestClient } from '../browser/internals.js';
import type { HTTPRequest, NetworkConditions } from 'puppeteer-core';
import { markRouted } from '../observe/page-observers.js';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';
import { makeRoute, originVerdict, type OriginPolicy, type Route, type RouteSpec } from './policy.js';
import { installWsGuard } from './ws-guard.js';

export interface NetworkSettings {
  offline: boolean;
  extra_headers: Record<string, string> | null;
  credentials: { username: string; password: string } | null;
  allowed_origins: string[] | null;
  blocked_origins: string[] | null;
}

interface NetworkState {
  /** Newest first: the first match wins. */
  routes: Route[];
  settings: NetworkSettings;
  /** Throughput and latency from browser_emulate (null: none). */
  throttle: NetworkConditions | null;
  /** The page setup is registered with the session. */
  installed: boolean;
}

export const networkSlot = slot<NetworkState>('network-control', () => ({
  routes: [],
  settings: {
    offline: false,
    extra_headers: null,
    credentials: null,
    allowed_origins: null,
    blocked_origins: null,
  },
  throttle: null,
  installed: false,
}));

interface PageNetwork {
  intercepting: boolean;
  listening: boolean;
  /** Which settings were ever applied, so a new page skips calls for defaults. */
  applied: Set<string>;
  wsGuard: { update(policy: OriginPolicy | null): Promise<void> } | null;
}

const pageSlot = slot<PageNetwork>('network-control-page', () => ({
  intercepting: false,
  listening: false,
  applied: new Set(),
  wsGuard: null,
}));

/** Our resolutions outrank a plain continue by another cooperative handler. */
const PRIORITY = 1;

const originPolicy = (s: NetworkSettings): OriginPolicy | null =>
  s.allowed_origins || s.blocked_origins ? { allowed: s.allowed_origins, blocked: s.blocked_origins } : null;

/** The session's network state (routes, settings). */
export function networkState(session: Session): NetworkState {
  return session.state.get(networkSlot);
}

function ensureInstalled(session: Session): NetworkState {
  const st = session.state.get(networkSlot);
  if (!st.installed) {
    st.installed = true;
    // under the page's lock: the page is listed (a popup can be called) before its setups end
    session.pageSetups.add((page) => page.exclusive(() => applyToPage(page, true)));
  }
  return st;
}

/** Interception ids the page's main target paused, to resolve worker requests there (see above). */
function trackMainPauses(page: BrowPage): (req: HTTPRequest) => void {
  const main = pageClient(page.raw);
  const paused = new Set<string>();
  main.on('Fetch.requestPaused', (e) => {
    paused.add(e.requestId);
    if (paused.size > 2000) paused.delete(paused.values().next().value as string);
  });
  return (req) => {
    const id = requestInterceptionId(req);
    if (id && paused.delete(id) && req.client !== main) setRequestClient(req, main);
  };
}

/** Settle one intercepted request by the session's origin lists and routes. */
function handleRequest(session: Session, req: HTTPRequest, fixClient: (req: HTTPRequest) => void): void {
  if (req.isInterceptResolutionHandled() || req.interceptResolutionState().action === 'disabled') return;
  fixClient(req);
  const st = session.state.get(networkSlot);
  const url = req.url();
  const policy = originPolicy(st.settings);
  const verdict = policy ? originVerdict(url, policy) : null;
  if (verdict) {
    markRouted(req, { blocked_by: verdict });
    void req.abort('blockedbyclient', PRIORITY).catch(() => undefined);
    return;
  }
  const route = st.routes.find((r) => r.test(url));
  if (!route) {
    void req.continue(req.continueRequestOverrides(), 0).catch(() => undefined);
    return;
  }
  route.hits += 1;
  if (route.times !== undefined && route.hits >= route.times) {
    st.routes = st.routes.filter((r) => r !== route);
    void applyToSession(session).catch(() => undefined);
  }
  const by = `route "${route.pattern}"`;
  if (route.action === 'block') {
    markRouted(req, { blocked_by: by });
    void req.abort('blockedbyclient', PRIORITY).catch(() => undefined);
  } else if (route.action === 'fulfill') {
    markRouted(req, { fulfilled_by: by });
    void req
      .respond(
        {
          status: route.status ?? 200,
          headers: route.headers ?? {},
          body: route.body ?? '',
          ...(route.content_type ? { contentType: route.content_type } : {}),
        },
        PRIORITY,
      )
      .catch(() => undefined);
  } else {
    // puppeteer's request headers are lower-case: one spelling per name
    const set = Object.entries(route.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const);
    const headers = { ...req.headers(), ...Object.fromEntries(set) };
    void req.continue({ headers }, PRIORITY).catch(() => undefined);
  }
}

/**
 * Bring one page in line with its session's network state: settings still at their defaults that
 * were never applied to the page need no call. `fresh`: a page just opened (popups are rechecked).
 */
async function applyToPage(page: BrowPage, fresh = false): Promise<void> {
  const session = page.session;
  const st = session.state.get(networkSlot);
  const pn = page.state.get(pageSlot);
  const raw = page.raw;
  if (!pn.listening) {
    pn.listening = true;
    const fixClient = trackMainPauses(page);
    raw.on('request', (req) => handleRequest(session, req, fixClient));
  }
  const s = st.settings;
  const policy = originPolicy(s);
  const wantIntercept = st.routes.length > 0 || policy !== null;
  const work: Promise<unknown>[] = [];
  if (wantIntercept !== pn.intercepting) {
    pn.intercepting = wantIntercept;
    work.push(raw.setRequestInterception(wantIntercept));
  }
  const apply = (key: string, isDefault: boolean, fn: () => Promise<unknown>) => {
    if (isDefault && !pn.applied.has(key)) return;
    pn.applied.add(key);
    work.push(fn());
  };
  apply('headers', !s.extra_headers, () => raw.setExtraHTTPHeaders(s.extra_headers ?? {}));
  apply('credentials', !s.credentials, () => raw.authenticate(s.credentials));
  apply('conditions', !s.offline && !st.throttle, async () => {
    // one puppeteer record holds both: conditions first (it resets offline), then offline
    await raw.emulateNetworkConditions(st.throttle);
    await raw.setOfflineMode(s.offline || st.throttle?.offline === true);
  });
  if (policy || pn.wsGuard) {
    pn.wsGuard ??= await installWsGuard(page);
    work.push(pn.wsGuard.update(policy));
  }
  await Promise.all(work);
  if (fresh && page.openerPageId !== null) await recheckPopup(page, st);
}

/**
 * A popup starts loading before brow adopts it (puppeteer resumes the new target first), so its
 * first document escaped the policy: one on a refused origin is sent to about:blank (and logged),
 * one a route matches is loaded again under the route.
 */
async function recheckPopup(page: BrowPage, st: NetworkState): Promise<void> {
  const url = page.raw.url();
  const policy = originPolicy(st.settings);
  const verdict = policy ? originVerdict(url, policy) : null;
  if (verdict) {
    const session = page.session;
    const entry = session.network.push({
      page_id: page.id,
      timestamp: Date.now(),
      method: 'GET',
      url: url.slice(0, 2000),
      resource_type: 'document',
      failed: true,
      error: `blocked by ${verdict} (a popup's first document, left for about:blank)`,
      blocked_by: verdict,
      pending: false,
      duration_ms: 0,
    });
    session.events.emit('network-event', session.id, { page_id: page.id, entry });
    await page.raw.goto('about:blank').catch(() => undefined);
  } else if (st.routes.some((r) => r.test(url))) {
    await page.raw.reload().catch(() => undefined);
  }
}

/** Apply the session's network state to every open page (new pages get it from the page setup). */
export async function applyToSession(session: Session): Promise<void> {
  ensureInstalled(session);
  await Promise.all(
    [...session.pages.values()].filter((p) => !p.closed).map((p) => applyToPage(p).catch(() => undefined)),
  );
}

/** Add (or replace, same pattern) a route; it wins over older ones. */
export async function addRoute(session: Session, spec: RouteSpec): Promise<Route> {
  const st = ensureInstalled(session);
  const route = makeRoute(spec);
  st.routes = [route, ...st.routes.filter((r) => r.pattern !== spec.pattern)];
  await applyToSession(session);
  return route;
}

/** Remove the route with this pattern, or every route; answers how many went. */
export async function removeRoutes(session: Session, pattern?: string): Promise<number> {
  const st = ensureInstalled(session);
  const before = st.routes.length;
  st.routes = pattern === undefined ? [] : st.routes.filter((r) => r.pattern !== pattern);
  await applyToSession(session);
  return before - st.routes.length;
}

/** Change some settings (absent fields keep their value) and apply them. */
export async function updateSettings(
  session: Session,
  patch: Partial<NetworkSettings>,
): Promise<NetworkSettings> {
  const st = ensureInstalled(session);
  st.settings = { ...st.settings, ...patch };
  await applyToSession(session);
  return st.settings;
}

/** Throughput and latency (browser_emulate's network preset); null clears. */
export async function setThrottle(session: Session, conditions: NetworkConditions | null): Promise<void> {
  const st = ensureInstalled(session);
  st.throttle = conditions;
  await applyToSession(session);
}
