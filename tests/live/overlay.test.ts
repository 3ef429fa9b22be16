/** The ghost cursor and status badge: shown only while someone watches, never in the agent's way. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOf } from '../../src/core/live/page-live.js';
import type { ScreencastFrame } from '../../src/core/live/screencast.js';
import { harness, type Harness } from '../helpers.js';
import { badgeText, corePage, until } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

type Cursor = { hidden: boolean; transform: string; label: string } | null;
const cursorOf = (pageId: string): Promise<Cursor> =>
  liveOf(corePage(h.rt, pageId)).evaluate(
    `(() => { const ui = globalThis.__browOverlay; return ui ? { hidden: ui.cursor.hidden, transform: ui.cursor.style.transform, label: ui.label.textContent } : null; })()`,
  );
const at = (c: Cursor): [number, number] => {
  const m = /translate\(([\d.]+)px, ([\d.]+)px\)/.exec(c?.transform ?? '');
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
};

describe('live overlay', () => {
  it('never touches a page nobody watches', async () => {
    const pageId = await h.open('live/form.html');
    await h.ok('browser_click', {
      page_id: pageId,
      ref: (await h.refs(pageId)).find((r) => r.accessible_name === 'Go').ref,
    });
    const hosts = await corePage(h.rt, pageId).raw.evaluate(() => document.documentElement.children.length);
    expect(hosts).toBe(2); // head and body only
  });

  it('shows the badge and a ghost cursor at the agent’s target while watched, and goes when nobody watches', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const frames: ScreencastFrame[] = [];
    const stop = liveOf(page).screencast.subscribe({ frame: (f) => frames.push(f) });
    try {
      expect(await until(() => badgeText(page), 5000, 'badge')).toBe('brow · agent');
      const go = (await h.refs(pageId)).find((r) => r.accessible_name === 'Go');
      const clicked = await h.ok('browser_click', { page_id: pageId, ref: go.ref });
      expect(clicked.action.ok).toBe(true); // the overlay is not in the way of the hit test
      const box = await page.raw.$eval('#go', (el) => el.getBoundingClientRect().toJSON());
      const c = await until(
        async () => {
          const c = await cursorOf(pageId);
          return c && !c.hidden && c.label === `click ${go.ref}` ? c : null;
        },
        5000,
        'the ghost cursor',
      );
      const [x, y] = at(c);
      expect(Math.abs(x - (box.x + box.width / 2))).toBeLessThan(3);
      expect(Math.abs(y - (box.y + box.height / 2))).toBeLessThan(3);
      // a click at a point: the cursor follows the agent's real mouse there
      await h.ok('browser_click_at', { page_id: pageId, x: 700, y: 500 });
      await until(async () => at(await cursorOf(pageId)).join() === '700,500', 5000, 'the cursor at 700,500');
      // the outline never shows the overlay
      const snap = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
      expect(snap.__content).not.toMatch(/brow ·|agent/);
      expect(frames.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
    await until(async () => (await badgeText(page)) === null, 5000, 'the badge to go');
    expect(await page.raw.evaluate(() => document.documentElement.children.length)).toBe(2);
  });

  it('keeps the banner when the page rewrites <html>', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const stop = liveOf(page).screencast.subscribe({ frame: () => undefined });
    try {
      await until(() => badgeText(page), 5000, 'badge');
      await page.raw.evaluate(() => {
        document.documentElement.innerHTML = '<head><title>x</title></head><body>rewritten</body>';
      });
      expect(await until(() => badgeText(page), 5000, 'badge back')).toBe('brow · agent');
    } finally {
      stop();
    }
  });

  it('streams a background tab too', async () => {
    const first = await h.open('live/form.html');
    const page = corePage(h.rt, first);
    // pages brow opens get windows of their own; a popup is a tab in front of its opener
    await page.raw.evaluate((url: string) => void window.open(url), h.server.url('live/nested.html'));
    await until(
      async () => (await page.raw.evaluate(() => document.visibilityState)) === 'hidden',
      5000,
      'the opener behind its popup',
    );
    const frames: ScreencastFrame[] = [];
    const stop = liveOf(page).screencast.subscribe({ frame: (f) => frames.push(f) });
    try {
      await until(() => frames.length > 0, 5000, 'a first frame');
      const n = frames.length;
      await page.raw.evaluate(() => (document.getElementById('out')!.textContent = 'changed'));
      await until(() => frames.length > n, 5000, 'a frame of the change');
    } finally {
      stop();
    }
    await until(
      async () => (await page.raw.evaluate(() => document.visibilityState)) === 'hidden',
      5000,
      'hidden again',
    );
  });
});
