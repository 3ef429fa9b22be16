/**
 * Walk ahead (src/core/snapshot/walk-ahead.ts): a page that has loaded is walked in the background,
 * and the listing that follows is answered from that walk while nothing changed; a page that
 * changed after it is walked again, so no listing ever shows an outline the page left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

/** The watchdog a call would run on a hung page (script_watchdog_ms; 6 s in the product), short here. */
const WATCHDOG_MS = 1000;

let h: Harness;
let off: Harness;
beforeAll(async () => {
  h = await harness({ script_watchdog_ms: WATCHDOG_MS, script_watchdog_max_stretch: 1 });
  off = await harness({ walk_ahead: false });
});
afterAll(async () => {
  await h?.close();
  await off?.close();
});

const pageOf = (hh: Harness, id: string) => hh.rt.core.findPage(id)!;

/** Poll until fn is truthy (at most 10 s, scaled). */
async function until<T>(fn: () => T | undefined | null, what: string): Promise<T> {
  const end = Date.now() + scaled(10_000);
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`no ${what} within ${scaled(10_000)} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('walk ahead', () => {
  it('walks a loaded page unasked; the first listing is that walk', async () => {
    const id = await h.open('core/walk-ahead.html');
    const page = pageOf(h, id);
    const ahead = await until(() => page.lastWalk, 'walk ahead');
    expect(ahead.url).toBe(page.url());
    expect(ahead.nodes.some((n) => n.name === 'Order 300')).toBe(true);
    const listed = await h.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 100_000 });
    expect(listed.__content).toContain('Order 300');
    // answered from the walk ahead: the page holds the same walk, not a new one
    expect(page.lastWalk!.walkedAt).toBe(ahead.walkedAt);
    // and its refs act
    const refs = await h.refs(id);
    const refresh = refs.find((r: any) => r.accessible_name === 'Refresh').ref;
    expect((await h.ok('browser_click', { page_id: id, ref: refresh })).action.outcome).toBeDefined();
  });

  it('walks the new document after a navigation', async () => {
    const id = await h.open('core/walk-ahead.html');
    const page = pageOf(h, id);
    const first = await until(() => page.lastWalk, 'walk ahead');
    await h.ok('browser_navigate', { page_id: id, url: h.server.url('core/walk-ahead.html?again=1') });
    const second = await until(
      () => (page.lastWalk && page.lastWalk.walkedAt !== first.walkedAt ? page.lastWalk : null),
      'walk of the new document',
    );
    expect(second.url).toContain('again=1');
    expect(second.documentGeneration).toBe(page.documentGeneration);
  });

  it('a page that changed after the walk ahead is walked again for the listing', async () => {
    const id = await h.open('core/walk-ahead.html');
    const page = pageOf(h, id);
    const ahead = await until(() => page.lastWalk, 'walk ahead');
    // the page changes after the walk ahead (as a late render would); the listing must show it
    await h.ok('browser_evaluate', {
      page_id: id,
      expression: `document.body.prepend(Object.assign(document.createElement('button'), { textContent: 'Arrived late' }))`,
    });
    const listed = await h.ok('browser_list_elements', { page_id: id });
    expect(listed.__content).toMatch(/\[button ref=e\d+[^\]]*\] Arrived late/);
    expect(page.lastWalk!.walkedAt).not.toBe(ahead.walkedAt);
  });

  it("leaves a page that hangs after its load alone: no script stopped on nobody's behalf", async () => {
    // navigated outside any call: no call's watch is running when the script hangs at load (an
    // open that answers at commit can still be finishing then on a loaded machine, and stop it)
    const id = (await h.ok('browser_open_page', {})).page_id as string;
    const page = pageOf(h, id);
    await page.cdp.send('Page.navigate', { url: h.server.url('faults/spin-at-load.html') });
    const unresponsive: unknown[] = [];
    const off = h.rt.core.events.subscribe({ types: ['page-unresponsive'] }, (e) => unresponsive.push(e));
    try {
      // the spin starts at the load event, which a loaded machine may deliver late: wait until the
      // renderer stops answering, so the bound below is measured from a page that really hangs
      const spinEnd = Date.now() + scaled(10_000);
      while (await page.responsive(500)) {
        if (Date.now() > spinEnd)
          throw new Error(`the page did not start spinning within ${scaled(10_000)} ms`);
      }
      // a call's watch would stop the script after script_watchdog_ms (a third of it between probes);
      // the walk ahead has no watch. The behaviour under test is that nothing happens for well past
      // that bound (allow-listed in tests/core/contributing-rules.test.ts)
      await new Promise((r) => setTimeout(r, WATCHDOG_MS * 2 + scaled(1000)));
      expect(unresponsive).toEqual([]);
      expect(await page.responsive(500)).toBe(false);
      // the next call is not held: navigating away stops the script (its own watch) and works
      const nav = await h.call('browser_navigate', {
        page_id: id,
        url: h.server.url('core/walk-ahead.html'),
      });
      expect(nav.ok, nav.content).toBe(true);
    } finally {
      off();
    }
  }, 40_000);

  it('walk_ahead false walks only when asked', async () => {
    const id = await off.open('core/walk-ahead.html');
    const page = pageOf(off, id);
    // nothing walks unasked: past the time a walk ahead takes on this page (behaviour under test)
    await new Promise((r) => setTimeout(r, scaled(600)));
    expect(page.lastWalk).toBeNull();
    const listed = await off.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 100_000 });
    expect(listed.__content).toContain('Order 300');
    expect(page.lastWalk).not.toBeNull();
  });
});
