/** Navigation with a scheme allowlist; failures come back as data, the page stays usable. */
import type { Frame, HTTPResponse, PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { BrowserError, classifyError } from '../errors.js';
import { within } from '../deadline.js';
import type { DialogRecord } from '../observe/records.js';
import { scriptStopText, type BrowPage, type ScriptStop } from './page.js';

export { scriptStopText, type ScriptStop } from './page.js';

export type WaitUntil = 'commit' | 'domcontentloaded' | 'load' | 'networkidle';

export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
  /** The navigation turned into a download instead of a page. */
  download?: { suggested_filename: string; path: string; state: string };
  /** brow stopped a page's script during the navigation (the old document's, or the new one's). */
  script_stopped?: ScriptStop;
}

/** Refuse schemes outside the allowlist (about:blank is always allowed). */
export function checkUrl(url: string, allowed: string[]): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BrowserError('invalid_request', `"${url}" is not an absolute URL.`, {
      hint: 'Pass a full URL such as https://example.com/.',
    });
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (url === 'about:blank') return u;
  if (!allowed.includes(scheme)) {
    throw new BrowserError(
      'url_blocked',
      `The scheme "${scheme}:" is not allowed (allowed: ${allowed.join(', ')}).`,
      {
        details: { url, scheme, allowed_schemes: allowed },
      },
    );
  }
  return u;
}

const LIFECYCLE: Record<WaitUntil, PuppeteerLifeCycleEvent> = {
  commit: 'domcontentloaded',
  domcontentloaded: 'domcontentloaded',
  load: 'load',
  networkidle: 'networkidle2',
};

/** Go to a URL. net::ERR_* and HTTP ≥ 400 fail with navigation_failed carrying the details. */
export async function navigate(
  page: BrowPage,
  url: string,
  waitUntil: WaitUntil,
  timeoutMs: number,
): Promise<NavigationResult> {
  checkUrl(url, page.session.config.allowed_schemes);
  const since = Date.now();
  page.pendingDialog = null;
  await freeHungScript(page);
  const downloadsBefore = page.session.downloads.length;
  let response: HTTPResponse | null = null;
  try {
    const nav = page.raw.goto(url, { waitUntil: LIFECYCLE[waitUntil], timeout: timeoutMs });
    const raced = await page.raceDialog(waitUntil === 'commit' ? commitOrDone(page, nav) : nav);
    if ('dialog' in raced) throw dialogWhileLoading(page, url, raced.dialog);
    response = raced.value;
  } catch (e) {
    if (e instanceof BrowserError && e.code === 'dialog_blocking') throw e;
    const err = classifyError(e);
    const download = await downloadStarted(page, downloadsBefore);
    const stopped = page.scriptStoppedSince(since);
    if (download)
      return {
        url: page.url(),
        title: await safeTitle(page),
        status: null,
        download,
        ...(stopped ? { script_stopped: stopped } : {}),
      };
    if (err.code === 'timeout') {
      // the page's own script may be what keeps it from loading: say so rather than "may be usable"
      const hung = !stopped && !page.pendingDialog && !(await page.responsive(500));
      const state = stopped
        ? ` ${scriptStopText(stopped)}`
        : hung
          ? ` Its script is still running without yielding (the page does not answer); the next call on the page stops it after script_watchdog_ms (${page.session.config.script_watchdog_ms} ms).`
          : '';
      throw new BrowserError(
        'timeout',
        `${url} did not reach "${waitUntil}" within ${timeoutMs} ms.${state}`,
        {
          hint: hung
            ? 'Call browser_list_elements on the page (brow stops its script and lists what loaded), or navigate elsewhere.'
            : 'The page may still be usable: read it, or navigate with wait_until "domcontentloaded".',
          details: {
            url,
            page_id: page.id,
            current_url: page.url(),
            ...(stopped ? { script_stopped: stopped } : {}),
            ...(hung ? { script_running: true } : {}),
          },
        },
      );
    }
    const net = /net::ERR_[A-Z_]+/.exec(String((e as Error)?.message ?? e))?.[0];
    if (net) {
      throw new BrowserError(
        'navigation_failed',
        `${url} could not be loaded: ${net}.${stopped ? ` ${scriptStopText(stopped)}` : ''}`,
        {
          details: { url, net_error: net, page_id: page.id, ...(stopped ? { script_stopped: stopped } : {}) },
        },
      );
    }
    throw err;
  }
  const status = response?.status() ?? null;
  const stopped = page.scriptStoppedSince(since);
  if (status !== null && status >= 400) {
    throw new BrowserError(
      'navigation_failed',
      `${url} answered HTTP ${status}.${stopped ? ` ${scriptStopText(stopped)}` : ''}`,
      {
        hint: 'The error page loaded and stays open: read it with browser_read_page, or navigate elsewhere.',
        details: {
          url,
          status,
          page_id: page.id,
          title: await safeTitle(page),
          ...(stopped ? { script_stopped: stopped } : {}),
        },
      },
    );
  }
  return {
    url: page.url(),
    title: await safeTitle(page),
    status,
    ...(stopped ? { script_stopped: stopped } : {}),
  };
}

/**
 * wait_until "commit": done when the main frame has committed the new document (its response came
 * and the frame navigated, in either order), or when the navigation finished first (a download, a
 * page without a response). The response alone is not enough: until the frame commits, the page
 * still shows the old URL (or chrome-error://chromewebdata/ after a failed load).
 */
async function commitOrDone(page: BrowPage, nav: Promise<HTTPResponse | null>): Promise<HTTPResponse | null> {
  const main = page.raw.mainFrame();
  let onResponse: (r: HTTPResponse) => void = () => undefined;
  let onNavigated: (f: Frame) => void = () => undefined;
  const committed = new Promise<HTTPResponse | null>((resolve) => {
    let response: HTTPResponse | null = null;
    let navigated = false;
    onResponse = (r) => {
      if (!r.request().isNavigationRequest() || r.frame() !== main) return;
      response = r;
      if (navigated) resolve(r);
    };
    onNavigated = (f) => {
      if (f !== main) return;
      navigated = true;
      if (response) resolve(response);
    };
    page.raw.on('response', onResponse);
    page.raw.on('framenavigated', onNavigated);
  });
  try {
    return await Promise.race([nav, committed]);
  } finally {
    page.raw.off('response', onResponse);
    page.raw.off('framenavigated', onNavigated);
  }
}

async function downloadStarted(page: BrowPage, before: number) {
  for (let i = 0; i < 20; i++) {
    const d = page.session.downloads[before];
    if (d) {
      for (let j = 0; j < 100 && d.state === 'in_progress'; j++) await new Promise((r) => setTimeout(r, 50));
      return { suggested_filename: d.suggested_filename, path: d.path, state: d.state };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

/**
 * A page left with a dialog open while loading (policy "report"): the load waits on it, so the call
 * answers now, with the dialog, rather than at its timeout.
 */
function dialogWhileLoading(page: BrowPage, url: string, d: DialogRecord): BrowserError {
  return new BrowserError(
    'dialog_blocking',
    `${url} opened a ${d.type} dialog while loading: "${d.message}". The page waits on it.`,
    {
      hint: `Answer it with browser_handle_dialog {page_id: "${page.id}", accept: true|false}; the page then finishes loading (browser_wait load_state waits for it).`,
      details: { page_id: page.id, url, dialog: d },
    },
  );
}

/**
 * Before navigating away: a page whose script never yields cannot unload, so the navigation would
 * hang with it. When the page does not answer within a second (and no dialog holds it), its
 * script is stopped first.
 */
async function freeHungScript(page: BrowPage): Promise<void> {
  const asked = Date.now();
  if (page.pendingDialog || (await page.responsive(1000))) return;
  await page.stopScript(Date.now() - asked, 'blocked_navigation', 'script_stopped');
}

/**
 * The page's title from its document, or, when the renderer does not answer within `ms` (a dialog
 * holds it, its script never yields, it crashed), as the browser last reported it.
 */
export async function safeTitle(page: BrowPage, ms = 1000): Promise<string> {
  if (page.crashed || page.closed) return page.title();
  // a dialog holds the renderer: the browser has the title parsed before it (puppeteer's copy may still be the URL)
  if (page.pendingDialog) {
    await page.browserTitle(Math.min(ms, 500));
    return page.title();
  }
  const t = await within(page.raceDialog(page.raw.title()), ms, null).catch(() => null);
  if (t && 'value' in t) {
    page.noteTitle(t.value);
    return t.value;
  }
  // the renderer did not answer: the browser may still have the title it parsed before the hang
  if (!page.crashed && !page.closed) await page.browserTitle(Math.min(ms, 500));
  return page.title();
}

/** Back, forward or reload; reports whether the page moved. */
export async function history(
  page: BrowPage,
  action: 'back' | 'forward' | 'reload',
  timeoutMs: number,
): Promise<{ url: string; moved: boolean; title: string; script_stopped?: ScriptStop }> {
  const since = Date.now();
  const before = page.url();
  const gen = page.documentGeneration;
  const opts = { waitUntil: 'domcontentloaded' as const, timeout: timeoutMs };
  await freeHungScript(page);
  try {
    const move =
      action === 'back'
        ? page.raw.goBack(opts)
        : action === 'forward'
          ? page.raw.goForward(opts)
          : page.raw.reload(opts);
    const raced = await page.raceDialog(move);
    if ('dialog' in raced) throw dialogWhileLoading(page, page.url(), raced.dialog);
  } catch (e) {
    if (e instanceof BrowserError && e.code === 'dialog_blocking') throw e;
    const err = classifyError(e);
    const stopped = page.scriptStoppedSince(since);
    if (!stopped) throw err;
    throw new BrowserError(err.code, `${err.message} ${scriptStopText(stopped)}`, {
      hint: err.hint,
      details: { ...err.details, page_id: page.id, script_stopped: stopped },
      cause: e,
    });
  }
  const stopped = page.scriptStoppedSince(since);
  return {
    url: page.url(),
    moved: page.url() !== before || page.documentGeneration !== gen,
    title: await safeTitle(page),
    ...(stopped ? { script_stopped: stopped } : {}),
  };
}
