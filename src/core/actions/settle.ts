/**
 * Settle after an action, adaptively: wait for a navigation the action started, for the requests
 * it started (bounded), and for a short DOM-quiet window. No fixed sleeps.
 */
import type { HTTPRequest } from 'puppeteer-core';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';

export interface RequestWatch {
  requests: HTTPRequest[];
  navigationRequested: boolean;
  /** window.open / target=_blank calls seen: popups to wait for. */
  windowOpens: number;
  /** The main frame's document generation when the watch began: a navigation moves it on. */
  generation: number;
  /** The main frame's navigation requests the action started (redirect hops included). */
  navigations: HTTPRequest[];
  stop(): void;
  /** Requests that have not finished yet. */
  pending(): HTTPRequest[];
}

/** Start recording what the page requests from now on. */
export function watchRequests(page: BrowPage): RequestWatch {
  const requests: HTTPRequest[] = [];
  const done = new WeakSet<HTTPRequest>();
  const watch: RequestWatch = {
    requests,
    navigationRequested: false,
    windowOpens: 0,
    generation: page.documentGeneration,
    navigations: [],
    stop: () => {
      page.cdp.off('Page.windowOpen', onWindowOpen);
      page.raw.off('request', onRequest);
      page.raw.off('requestfinished', onDone);
      page.raw.off('requestfailed', onDone);
    },
    pending: () => requests.filter((r) => !done.has(r)),
  };
  const onRequest = (r: HTTPRequest) => {
    requests.push(r);
    if (!r.isNavigationRequest() || r.frame() !== page.raw.mainFrame()) return;
    watch.navigationRequested = true;
    watch.navigations.push(r);
  };
  const onDone = (r: HTTPRequest) => void done.add(r);
  const onWindowOpen = () => void (watch.windowOpens += 1);
  page.cdp.on('Page.windowOpen', onWindowOpen);
  page.raw.on('request', onRequest);
  page.raw.on('requestfinished', onDone);
  page.raw.on('requestfailed', onDone);
  return watch;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Requests an action waits for (not images, fonts, beacons). */
export const relevantRequest = (r: HTTPRequest) =>
  ['fetch', 'xhr', 'document', 'script'].includes(r.resourceType());

/** Wait until the action's effects have landed; returns how long it took. */
export async function settle(
  page: BrowPage,
  watch: RequestWatch,
  opts: { quietMs: number; maxMs: number },
): Promise<number> {
  const t0 = Date.now();
  const deadline = t0 + opts.maxMs;
  const left = () => Math.max(0, deadline - Date.now());
  const pagesBefore = page.session.pages.size;
  const relevant = relevantRequest;
  const blocked = () => page.closed || !!page.pendingDialog;

  for (let round = 0; round < 5 && left() > 0 && !blocked(); round++) {
    const seen = watch.requests.length;
    // A navigation the action started: wait for the new document to be parsed.
    if (watch.navigationRequested && round === 0)
      while (!navigationSettled(page, watch) && left() > 0 && !blocked()) await sleep(10);
    // Requests the action started, bounded by the deadline.
    while (watch.pending().some(relevant) && left() > 0 && !blocked()) await sleep(10);
    // Popups it opened: wait until brow has wired them up as pages of the session.
    while (watch.windowOpens > page.session.pages.size - pagesBefore && left() > 0 && !blocked())
      await sleep(10);
    if (blocked()) break;
    // A DOM-quiet window measured in the page from now (mutations and input events restart it).
    await quiet(page, opts.quietMs, left());
    // Nothing new started while we waited: settled.
    if (watch.requests.length === seen || !watch.pending().some(relevant)) break;
  }
  return Date.now() - t0;
}

/**
 * The navigation the action started has ended as far as an answer cares: the main frame holds a
 * new document that is past parsing, or the navigation ended without one (it failed, or its answer
 * was a 204/205 or an attachment). Read from what the page already tracks, so a navigation that
 * committed before the settle began counts (a waitForNavigation begun late waits for the next one,
 * which never comes, and so ran out the whole settle bound).
 */
function navigationSettled(page: BrowPage, watch: RequestWatch): boolean {
  if (page.documentGeneration !== watch.generation) return page.readiness !== 'loading';
  const open = new Set(watch.pending());
  if (watch.navigations.some((r) => open.has(r))) return false;
  // every hop is done; a body received can still be on its way to commit, so only an end that
  // never commits settles it here
  const last = watch.navigations[watch.navigations.length - 1];
  if (!last || last.failure()) return true;
  const res = last.response();
  return (
    !res ||
    [204, 205].includes(res.status()) ||
    /attachment/i.test(res.headers()['content-disposition'] ?? '')
  );
}

async function quiet(page: BrowPage, quietMs: number, maxMs: number): Promise<void> {
  if (maxMs <= 0) return;
  const work = withApi(
    page.raw.mainFrame(),
    (api, q: number, max: number) => (api.settleQuiet ? api.settleQuiet(q, max) : true),
    quietMs,
    maxMs,
  );
  await page.raceDialog(work).catch(() => undefined);
}

/**
 * Note (on) or stop noting the timers the main frame's page sets: a timer still due keeps the
 * settle's quiet window from ending early (see the page script's settleQuiet).
 */
export const recordPageTimers = (page: BrowPage, on: boolean): Promise<void> =>
  withApi(page.raw.mainFrame(), (api, start: boolean) => api.recordTimers(start), on).catch(() => undefined);
