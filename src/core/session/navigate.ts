/** Navigation with a scheme allowlist; failures come back as data, the page stays usable. */
import type { Frame, HTTPResponse, PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { BrowserError, classifyError } from '../errors.js';
import type { BrowPage } from './page.js';

export type WaitUntil = 'commit' | 'domcontentloaded' | 'load' | 'networkidle';

export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
  /** The navigation turned into a download instead of a page. */
  download?: { suggested_filename: string; path: string; state: string };
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
  page.assertNoHandoff();
  page.pendingDialog = null;
  const downloadsBefore = page.session.downloads.length;
  let response: HTTPResponse | null = null;
  try {
    const nav = page.raw.goto(url, { waitUntil: LIFECYCLE[waitUntil], timeout: timeoutMs });
    const raced = waitUntil === 'commit' ? await commitOrDone(page, nav) : await nav;
    response = raced;
  } catch (e) {
    const err = classifyError(e);
    const download = await downloadStarted(page, downloadsBefore);
    if (download) return { url: page.url(), title: await safeTitle(page), status: null, download };
    if (err.code === 'timeout') {
      throw new BrowserError('timeout', `${url} did not reach "${waitUntil}" within ${timeoutMs} ms.`, {
        hint: 'The page may still be usable: read it, or navigate with wait_until "domcontentloaded".',
        details: { url, page_id: page.id, current_url: page.url() },
      });
    }
    const net = /net::ERR_[A-Z_]+/.exec(String((e as Error)?.message ?? e))?.[0];
    if (net) {
      throw new BrowserError('navigation_failed', `${url} could not be loaded: ${net}.`, {
        details: { url, net_error: net, page_id: page.id },
      });
    }
    throw err;
  }
  const status = response?.status() ?? null;
  if (status !== null && status >= 400) {
    throw new BrowserError('navigation_failed', `${url} answered HTTP ${status}.`, {
      hint: 'The error page loaded and stays open: read it with browser_read_page, or navigate elsewhere.',
      details: { url, status, page_id: page.id, title: await safeTitle(page) },
    });
  }
  return { url: page.url(), title: await safeTitle(page), status };
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

export async function safeTitle(page: BrowPage): Promise<string> {
  if (page.pendingDialog) return '';
  const t = await page.raceDialog(page.raw.title()).catch(() => null);
  return t && 'value' in t ? t.value : '';
}

/** Back, forward or reload; reports whether the page moved. */
export async function history(
  page: BrowPage,
  action: 'back' | 'forward' | 'reload',
  timeoutMs: number,
): Promise<{ url: string; moved: boolean; title: string }> {
  page.assertNoHandoff();
  const before = page.url();
  const gen = page.documentGeneration;
  const opts = { waitUntil: 'domcontentloaded' as const, timeout: timeoutMs };
  try {
    if (action === 'back') await page.raw.goBack(opts);
    else if (action === 'forward') await page.raw.goForward(opts);
    else await page.raw.reload(opts);
  } catch (e) {
    throw classifyError(e);
  }
  return {
    url: page.url(),
    moved: page.url() !== before || page.documentGeneration !== gen,
    title: await safeTitle(page),
  };
}
