/** The `tab` object a run's code gets: seed 000's helper API over one puppeteer Page. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ElementHandle, HTTPResponse, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { checkUrl } from '../session/navigate.js';
import type { ElementIds } from './element-ids.js';
import type { ExtractFormat, Readable } from './extract.js';
import { observe, type Observation, type ObserveOptions } from './observe.js';
import type { DisplayItem, ScreenshotRecord, WaitUntil, WorkerSettings } from './protocol.js';
import type { ScreenshotOptions } from './screenshot.js';
import * as act from './tab-actions.js';

export interface TabEnv {
  name: string;
  page: Page;
  signal: AbortSignal;
  ids: ElementIds;
  settings: WorkerSettings;
  waitUntil: WaitUntil;
  /** Epoch ms when the run times out. */
  deadline: number;
  displays: DisplayItem[];
  screenshots: ScreenshotRecord[];
}

/** A URL pattern: substring (or exact), RegExp, or predicate. Checked by shape: values come from the VM realm. */
export function urlMatches(url: string, pattern: unknown): boolean {
  if (typeof pattern === 'string') return url === pattern || url.includes(pattern);
  if (typeof pattern === 'function') return Boolean((pattern as (u: string) => unknown)(url));
  if (pattern && typeof (pattern as RegExp).test === 'function') {
    (pattern as RegExp).lastIndex = 0;
    return (pattern as RegExp).test(url);
  }
  throw new BrowserError('invalid_request', 'A URL pattern must be a string, a RegExp or a function.');
}

const describePattern = (p: unknown) => (typeof p === 'function' ? 'the predicate' : String(p));

/** Build the `tab` API for one run. */
export function createTabApi(env: TabEnv) {
  const { page, ids, settings } = env;
  const remaining = () => Math.max(1, env.deadline - Date.now());
  const actions: act.ActionEnv = {
    page,
    ids,
    signal: env.signal,
    workspaceRoot: settings.workspaceRoot,
    remaining,
  };
  const limit = (opts?: { timeout?: number }) =>
    typeof opts?.timeout === 'number' && opts.timeout > 0 ? Math.min(opts.timeout, remaining()) : remaining();

  return {
    name: env.name,
    page,
    signal: env.signal,
    url: (): string => page.url(),
    title: (): Promise<string> => page.title(),
    /** Navigate; ids of the old document go stale. */
    async goto(
      url: string,
      opts: { waitUntil?: WaitUntil } = {},
    ): Promise<{ url: string; status: number | null }> {
      checkUrl(String(url), settings.allowedSchemes);
      const res = await page.goto(String(url), {
        waitUntil: opts.waitUntil ?? env.waitUntil,
        timeout: remaining(),
      });
      return { url: page.url(), status: res?.status() ?? null };
    },
    observe: (opts: ObserveOptions = {}): Promise<Observation> => observe(page, ids, opts),
    async screenshot(opts: ScreenshotOptions = {}): Promise<ScreenshotRecord> {
      let element: ElementHandle<Element> | null = null;
      let own = false;
      if (opts.selector !== undefined && opts.selector !== null) {
        ({ el: element, own } = await act.findTarget(actions, opts.selector, 'screenshot selector'));
      }
      try {
        // loaded on first use, as the Markdown reader is (it costs a worker start most of a second)
        const { takeScreenshot } = await import('./screenshot.js');
        const shot = await takeScreenshot(page, settings, opts, element);
        env.screenshots.push(shot.record);
        env.displays.push(...shot.displays);
        return shot.record;
      } finally {
        if (own) await element?.dispose().catch(() => undefined);
      }
    },
    async extract(format: ExtractFormat = 'markdown'): Promise<Readable | null> {
      if (format !== 'markdown' && format !== 'text') {
        throw new BrowserError(
          'invalid_request',
          `tab.extract format must be "markdown" or "text" (got ${String(format)}).`,
        );
      }
      const { extractReadable } = await import('./extract.js');
      return extractReadable(await page.content(), page.url(), await page.title().catch(() => ''), format);
    },
    click: (target: act.Target) => act.click(actions, target),
    type: (target: act.Target, text: string) => act.type(actions, target, text),
    fill: (target: act.Target, value: string) => act.fill(actions, target, value),
    press: (key: string, opts?: { selector?: act.Target }) => act.press(actions, key, opts),
    scroll: (deltaX: number, deltaY: number) => act.scroll(actions, deltaX, deltaY),
    drag: (from: unknown, to: unknown) => act.drag(actions, from, to),
    /** Wait for a selector to match; returns its handle. */
    async waitFor(selector: string, opts?: { timeout?: number }): Promise<ElementHandle<Element>> {
      const { el } = await act.resolveTarget({ ...actions, remaining: () => limit(opts) }, String(selector));
      return el;
    },
    evaluate: (fn: string | ((...args: any[]) => unknown), ...args: unknown[]): Promise<unknown> =>
      page.evaluate(fn as string, ...args),
    scrollIntoView: (target: act.Target) => act.scrollIntoView(actions, target),
    select: (target: act.Target, ...values: string[]) => act.select(actions, target, values),
    uploadFile: (target: act.Target, ...paths: string[]) => act.uploadFile(actions, target, paths),
    /** Poll location.href every 200 ms until it matches. */
    async waitForUrl(pattern: unknown, opts?: { timeout?: number }): Promise<string> {
      const ms = limit(opts);
      const end = Date.now() + ms;
      for (;;) {
        const href = await page.evaluate(() => location.href).catch(() => page.url());
        if (urlMatches(href, pattern)) return href;
        if (Date.now() >= end) {
          throw new BrowserError(
            'timeout',
            `The URL did not match ${describePattern(pattern)} within ${ms}ms (now ${href}).`,
          );
        }
        await sleep(Math.min(200, Math.max(1, end - Date.now())), undefined, { signal: env.signal });
      }
    },
    /**
     * Wait for a response whose URL matches a string or RegExp, or for which a predicate
     * (given the puppeteer HTTPResponse: r.url(), r.status(), r.request()…) returns true.
     */
    async waitForResponse(pattern: unknown, opts?: { timeout?: number }): Promise<HTTPResponse> {
      const ms = limit(opts);
      const matches =
        typeof pattern === 'function'
          ? async (r: HTTPResponse) => Boolean(await (pattern as (r: HTTPResponse) => unknown)(r))
          : (r: HTTPResponse) => urlMatches(r.url(), pattern);
      try {
        return await page.waitForResponse(matches, {
          timeout: ms,
          signal: env.signal,
        });
      } catch (e) {
        if ((e as Error)?.name !== 'TimeoutError') throw e;
        throw new BrowserError('timeout', `No response matched ${describePattern(pattern)} within ${ms}ms.`);
      }
    },
    /** The element with this id from tab.observe(); stale once it is gone. */
    id: (n: number): Promise<ElementHandle<Element>> => ids.resolve(n),
  };
}

export type TabApi = ReturnType<typeof createTabApi>;
