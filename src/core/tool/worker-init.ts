/** A tab worker's start: its own puppeteer connection, its page (new headless or attached), stealth, walker, dialogs. */
import puppeteer, { type Browser, type CDPSession, type Dialog, type Page } from 'puppeteer-core';
import { pageTargetId, targetIdOf as targetIdOfTarget } from '../browser/internals.js';
import { applyStealth } from '../browser/stealth/index.js';
import { BrowserError, classifyError } from '../errors.js';
import { checkUrl } from '../session/navigate.js';
import { guardAutoAttach } from './attach-guard.js';
import type { InitPayload, LogLevel, TabInfo } from './protocol.js';

/** Seed 000's headless default (DEFAULT_VIEWPORT). */
const HEADLESS_VIEWPORT = { width: 1365, height: 768, deviceScaleFactor: 1.25 };

const targetIdOf = pageTargetId;

/** What the host shows for a tab. */
export async function tabInfo(page: Page): Promise<TabInfo> {
  const title = await page.title().catch(() => '');
  const vp = page.viewport();
  return {
    url: page.url(),
    title,
    viewport: vp
      ? { width: vp.width, height: vp.height, deviceScaleFactor: vp.deviceScaleFactor ?? 1 }
      : null,
    targetId: targetIdOf(page),
  };
}

async function findPage(browser: Browser, targetId: string): Promise<Page> {
  const target = await browser
    .waitForTarget((t) => targetIdOfTarget(t) === targetId, { timeout: 5000 })
    .catch(() => null);
  const page = target ? await target.page().catch(() => null) : null;
  if (!page) {
    throw new BrowserError(
      'connection_failed',
      `Target ${targetId} is no longer available on the attached browser`,
      {
        hint: 'The page closed meanwhile; open the tab again (optionally with app.target).',
      },
    );
  }
  return page;
}

/**
 * Keep the tab fully alive while other tabs are open. In Chromium only the newest tab of a
 * window is in front: every earlier one is a hidden background page (visibilityState "hidden",
 * no animation frames), so clicks, scrolls and waits that need a frame hang there. Focus
 * emulation on the tab's own CDP session makes it a visible, focused page whatever else is open,
 * and each tab can act at the same time (bringToFront would steal the front from the others).
 * The session stays open as long as the worker's connection.
 */
async function keepAlive(page: Page): Promise<CDPSession> {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
  // a page Chromium froze meanwhile runs again (no-op for an active one)
  await cdp.send('Page.setWebLifecycleState', { state: 'active' }).catch(() => undefined);
  return cdp;
}

/** Connect, get the page ready, and navigate when asked. Closes a page it created if anything fails. */
export async function openTab(
  p: InitPayload,
  log: (level: LogLevel, msg: string) => void,
  /** A dialog opened and no `dialogs` policy answers it; it has been dismissed. */
  onUnhandledDialog: (d: { type: string; message: string }) => void = () => undefined,
): Promise<{ browser: Browser; page: Page; cdp: CDPSession | null }> {
  guardAutoAttach(() => p.targetId);
  let browser: Browser;
  try {
    browser = await puppeteer.connect({
      browserWSEndpoint: p.browserWSEndpoint,
      defaultViewport: null,
      protocolTimeout: 60_000,
    });
  } catch (e) {
    throw new BrowserError(
      'connection_failed',
      `Could not connect to ${p.browserWSEndpoint}: ${(e as Error).message}`,
    );
  }
  let page: Page | null = null;
  try {
    page = await findPage(browser, p.targetId);
    // an attached app whose CDP lacks these methods still works as before, only not kept in front
    const cdp = await keepAlive(page).catch((e: unknown) => {
      if (p.mode === 'headless') throw e;
      log('warn', `focus emulation is not available on this page: ${(e as Error).message}`);
      return null;
    });
    if (p.mode === 'headless' && p.stealth) await applyStealth(page);
    const vp = p.viewport ?? (p.mode === 'headless' ? HEADLESS_VIEWPORT : null);
    if (vp)
      await page.setViewport({
        width: vp.width,
        height: vp.height,
        deviceScaleFactor: vp.deviceScaleFactor ?? 1,
      });
    // The walker at document start of every later document; withApi installs it into the current one on demand.
    await page.evaluateOnNewDocument(p.pageScript);
    const policy = p.dialogs;
    page.on('dialog', (d: Dialog) => {
      if (policy) {
        log('debug', `dialog ${d.type()} "${d.message()}" → ${policy}`);
        // accept answers a prompt with its default text, as pressing OK would
        void (policy === 'accept' ? d.accept(d.defaultValue()) : d.dismiss()).catch(() => undefined);
        return;
      }
      // No policy: an open dialog would block the page (and every later run) until the tab died.
      // Dismiss it, as Escape would, and let the worker fail the run that was going on.
      log('warn', `dialog ${d.type()} "${d.message()}" without a dialogs policy → dismissed`);
      void d.dismiss().catch(() => undefined);
      onUnhandledDialog({ type: d.type(), message: d.message() });
    });
    if (p.url) {
      checkUrl(p.url, p.allowedSchemes);
      await page.goto(p.url, { waitUntil: p.waitUntil, timeout: p.timeoutMs }).catch((e: unknown) => {
        throw navigationError(p.url!, e, p.timeoutMs);
      });
    }
    return { browser, page, cdp };
  } catch (e) {
    if (page && p.mode === 'headless') await page.close().catch(() => undefined);
    await browser.disconnect().catch(() => undefined);
    throw e;
  }
}

function navigationError(url: string, e: unknown, timeoutMs: number): BrowserError {
  const err = classifyError(e);
  if (err.code === 'timeout') {
    return new BrowserError('timeout', `${url} did not finish loading within ${timeoutMs}ms.`, {
      hint: 'Open it with wait_until "domcontentloaded" or "load", or a longer timeout.',
    });
  }
  if (err.code === 'navigation_failed')
    return new BrowserError('navigation_failed', `${url} could not be loaded: ${err.message}`);
  return err;
}
