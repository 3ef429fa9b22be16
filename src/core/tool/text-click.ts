/**
 * `tab.click("text/…")`: puppeteer's text query matches the innermost element with the text,
 * often a <span> inside the real control. Retry every 100 ms: take each match's closest
 * clickable ancestor, keep the visible ones, top-left first, scroll it into view and click its
 * centre only when that point really hits it (no covering element).
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrowserError } from '../errors.js';

const CLICKABLE =
  'a,button,input,select,textarea,summary,label,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=radio],[onclick],[tabindex]';

interface Candidate {
  handle: ElementHandle<Element>;
  x: number;
  y: number;
}

/** Page-side: the clickable ancestor's box, or null when it is hidden. */
function boxOf(el: Element, clickable: string): { x: number; y: number } | null {
  const target = el.closest(clickable) ?? el;
  const r = target.getBoundingClientRect();
  const style = getComputedStyle(target);
  if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || style.display === 'none')
    return null;
  return { x: r.left + scrollX, y: r.top + scrollY };
}

/** Page-side: scroll the clickable ancestor into view; its centre if nothing covers it. */
function hitPoint(el: Element, clickable: string): { x: number; y: number } | null {
  const target = el.closest(clickable) ?? el;
  let r = target.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
    target.scrollIntoView({ block: 'center', inline: 'center' });
    r = target.getBoundingClientRect();
  }
  const x = r.left + Math.min(r.width / 2, Math.max(1, r.width - 1));
  const y = r.top + Math.min(r.height / 2, Math.max(1, r.height - 1));
  const hit = document.elementFromPoint(x, y);
  return hit && (target === hit || target.contains(hit) || hit.contains(target)) ? { x, y } : null;
}

/** Click the first visible, unobstructed match of a text/ selector; timeout after timeoutMs. */
export async function clickText(
  page: Page,
  selector: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  for (;;) {
    signal.throwIfAborted();
    const handles = (await page.$$(selector)) as ElementHandle<Element>[];
    seen = Math.max(seen, handles.length);
    try {
      const candidates: Candidate[] = [];
      for (const handle of handles) {
        const box = await handle.evaluate(boxOf, CLICKABLE).catch(() => null);
        if (box) candidates.push({ handle, ...box });
      }
      candidates.sort((a, b) => a.y - b.y || a.x - b.x);
      for (const c of candidates) {
        const point = await c.handle.evaluate(hitPoint, CLICKABLE).catch(() => null);
        if (point) {
          await page.mouse.click(point.x, point.y);
          return;
        }
      }
    } finally {
      await Promise.all(handles.map((h) => h.dispose().catch(() => undefined)));
    }
    if (Date.now() >= deadline) {
      throw new BrowserError(
        'timeout',
        seen === 0
          ? `No element matched ${selector} within ${timeoutMs}ms.`
          : `${seen} element(s) matched ${selector} but none was visible and clickable within ${timeoutMs}ms.`,
        {
          hint: 'Check the text with tab.observe() or tab.extract(); a covered element needs the cover dismissed first.',
        },
      );
    }
    await sleep(100, undefined, { signal });
  }
}
