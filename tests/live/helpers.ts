/** Live-session test helpers: events, the core page behind an id, and what brow's overlay shows in a page. */
import type { BrowEvent, BrowEventType } from '../../src/runtime/runtime.js';
import type { BrowRuntime } from '../../src/runtime/runtime.js';
import { liveOf } from '../../src/core/live/page-live.js';
import { CONTINUE_RECT_EXPRESSION } from '../../src/core/live/overlay-script.js';
import type { BrowPage } from '../../src/core/session/page.js';
import { scaled } from '../scale.js';

/** The next event of a type (optionally matching), from now on. */
export function nextEvent(
  rt: BrowRuntime,
  type: BrowEventType,
  match: (e: BrowEvent) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<BrowEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} event in ${timeoutMs} ms`));
    }, timeoutMs);
    const off = rt.subscribe({ types: [type] }, (e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/** The core page behind a page id. */
export function corePage(rt: BrowRuntime, pageId: string): BrowPage {
  const p = rt.core.findPage(pageId);
  if (!p) throw new Error(`no page ${pageId}`);
  return p;
}

/** Where the handoff banner's Continue button is in the page (null when no banner shows). */
export function continueRect(
  page: BrowPage,
): Promise<{ x: number; y: number; width: number; height: number } | null> {
  return liveOf(page).evaluate(CONTINUE_RECT_EXPRESSION);
}

/** The overlay's badge text in the page (null when hidden). */
export function badgeText(page: BrowPage): Promise<string | null> {
  return liveOf(page).evaluate(
    `(() => { const ui = globalThis.__browOverlay; return ui && ui.host.isConnected && !ui.badge.hidden ? ui.badge.textContent : null; })()`,
  );
}

/** Poll until fn returns a truthy value. */
export async function until<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const end = Date.now() + scaled(timeoutMs);
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
