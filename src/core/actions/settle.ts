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
    stop: () => {
      page.raw.off('request', onRequest);
      page.raw.off('requestfinished', onDone);
      page.raw.off('requestfailed', onDone);
    },
    pending: () => requests.filter((r) => !done.has(r)),
  };
  const onRequest = (r: HTTPRequest) => {
    requests.push(r);
    if (r.isNavigationRequest() && r.frame() === page.raw.mainFrame()) watch.navigationRequested = true;
  };
  const onDone = (r: HTTPRequest) => void done.add(r);
  page.raw.on('request', onRequest);
  page.raw.on('requestfinished', onDone);
  page.raw.on('requestfailed', onDone);
  return watch;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until the action's effects have landed; returns how long it took. */
export async function settle(page: BrowPage, watch: RequestWatch, opts: { quietMs: number; maxMs: number }): Promise<number> {
  const t0 = Date.now();
  const deadline = t0 + opts.maxMs;
  const left = () => Math.max(0, deadline - Date.now());

  // A navigation the action started: wait for the new document to be parsed.
  if (watch.navigationRequested) {
    await page.raw
      .waitForNavigation({ waitUntil: 'domcontentloaded', timeout: Math.max(1, left()) })
      .catch(() => undefined);
  }
  // Requests the action started (fetch/xhr/document/script), bounded by the deadline.
  const relevant = (r: HTTPRequest) => ['fetch', 'xhr', 'document', 'script'].includes(r.resourceType());
  while (watch.pending().some(relevant) && left() > 0 && !page.pendingDialog) await sleep(10);
  // A short DOM-quiet window, measured in the page (mutations and input events reset it).
  if (!page.closed && !page.pendingDialog && left() > 0) {
    const quiet = withApi(
      page.raw.mainFrame(),
      (api, quietMs: number, maxMs: number) =>
        new Promise<boolean>((resolve) => {
          const start = performance.now();
          const tick = () => {
            const now = performance.now();
            if (now - api.mutations().lastAt >= quietMs && now - start >= Math.min(quietMs, 16)) resolve(true);
            else if (now - start > maxMs) resolve(false);
            else setTimeout(tick, 10);
          };
          requestAnimationFrame(() => tick());
          setTimeout(tick, 20); // rAF does not fire in hidden tabs
        }),
      opts.quietMs,
      left(),
    );
    await page.raceDialog(quiet).catch(() => undefined);
  }
  return Date.now() - t0;
}
