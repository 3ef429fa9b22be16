/**
 * The watchdog on a page's script (BrowPage.probe, guard in page.ts): a script that never yields is
 * stopped after config script_watchdog_ms and every answer of the call says so; a long task that
 * keeps showing progress (console output) is let finish; readiness stays true to the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';
import { eventually, scaled } from '../scale.js';
import { watchdogLimitMs } from '../../src/core/session/page.js';

let h: Harness;

beforeAll(async () => {
  // low, so a stop takes about a second; the busy page works well past it
  // the limit as set: no stretch for the machine's load (its cases time it)
  h = await harness({ script_watchdog_ms: 1000, script_watchdog_max_stretch: 1 });
});
afterAll(async () => {
  await h?.close();
});

const STOP_TEXT =
  /brow stopped this page's script after \d+(\.\d)? s: it did not yield; page state may be half-updated/;

describe('a page whose inline script never yields', () => {
  it('open_page says brow stopped its script; the page then answers a snapshot', async () => {
    const o = await h.call('browser_open_page', { url: h.server.url('watchdog/never-yields.html') });
    const data = o.data as any;
    expect(o.content).toMatch(STOP_TEXT);
    // the load may or may not come within the call once the script is stopped: either answer says it
    const pageId = data.page_id ?? data.details?.page_id;
    const stop = data.script_stopped ?? data.details?.script_stopped;
    expect(stop?.reason, o.content).toBe('not_yielding');
    expect(stop.after_ms).toBeGreaterThanOrEqual(1000);
    // (a loaded machine stretches the limit: watchdogLimitMs)
    expect(stop.after_ms).toBeLessThan(scaled(15_000));

    const list = await h.ok('browser_list_elements', { page_id: pageId });
    expect(list.__content).toContain('Still here');

    // readiness is the document's own, and the listing keeps saying its script was stopped
    const ready = (await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.readyState' }))
      .value;
    const row = (await h.ok('browser_list_pages', {})).pages.find((p: any) => p.page_id === pageId);
    expect(row.readiness).toBe(ready);
    expect(row.script_stopped?.reason).toBe('not_yielding');
  });

  it('a load the call gave up on is not "complete" while the script still runs', async () => {
    h.rt.core.updateConfig({ script_watchdog_ms: 8000 });
    try {
      const o = await h.call('browser_open_page', {
        url: h.server.url('watchdog/never-yields.html'),
        timeout_ms: 1500,
      });
      const data = o.data as any;
      expect(o.ok).toBe(false);
      expect(data.error_code).toBe('timeout');
      expect(o.content).toMatch(/still running without yielding/);
      const pageId = data.details?.page_id ?? data.page_id;
      const listed = await h.ok('browser_list_pages', {});
      const row = listed.pages.find((p: any) => p.page_id === pageId);
      expect(row.readiness).not.toBe('complete');
      expect(listed.__content).toContain(`(${row.readiness})`);
      // the title parsed before the hang, from the browser (puppeteer's copy keeps saying the URL);
      // a loaded machine may list the page before its renderer has parsed the <title>
      let title = row.title;
      await eventually(async () => {
        const again = await h.ok('browser_list_pages', {});
        title = again.pages.find((p: any) => p.page_id === pageId).title;
        return title === 'Never yields';
      }, 5000);
      expect(title).toBe('Never yields');
      h.rt.core.updateConfig({ script_watchdog_ms: 1000 });
      // the next call stops the script and says so
      const o2 = await h.call('browser_list_elements', { page_id: pageId });
      const data2 = o2.data as any;
      expect(o2.ok).toBe(false);
      expect(data2.reason ?? data2.details?.reason).toBe('page_unresponsive');
      expect(o2.content).toMatch(STOP_TEXT);
      const again = await h.ok('browser_list_elements', { page_id: pageId });
      expect(again.__content).toContain('Still here');
    } finally {
      h.rt.core.updateConfig({ script_watchdog_ms: 1000 });
    }
  });
});

describe('a click', () => {
  it('whose handler works ~2.5× past the limit while logging is not stopped, and completes', async () => {
    // the load's stretch on (the file turns it off): on a starved machine a logging renderer also
    // shows its progress less often, and the quiet that counts as none stretches with the limit
    h.rt.core.updateConfig({ script_watchdog_max_stretch: 5 });
    try {
      await workPastTheLimit();
    } finally {
      h.rt.core.updateConfig({ script_watchdog_max_stretch: 1 });
    }
  });

  async function workPastTheLimit(): Promise<void> {
    const workMs = Math.max(2500, Math.round(2.5 * watchdogLimitMs(1000)));
    const pageId = await h.open(`watchdog/busy-click.html?ms=${workMs}`);
    const events: string[] = [];
    const off = h.rt.subscribe({ types: ['page-unresponsive'] }, (e) => events.push(JSON.stringify(e)));
    const started = Date.now();
    const o = await h.call('browser_click', {
      page_id: pageId,
      ref: refOf(await h.refs(pageId), 'button', 'Work'),
    });
    off();
    expect(o.ok, o.content).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(workMs);
    expect(o.content).not.toMatch(/stopped this page's script/);
    expect(events).toEqual([]);
    const out = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "document.getElementById('out').textContent",
    });
    expect(out.value).toMatch(/^done after \d+ messages$/);
  }

  it("is judged on what the page already said: progress that waited while brow's process was starved counts", async () => {
    // brow's own event loop held for 1.5 s while the page logs: when it runs again, the probe's
    // timer is due before the socket is read; the verdict must read it first
    const pageId = await h.open('watchdog/busy-click.html?ms=2500');
    const page = h.rt.core.findPage(pageId)!;
    const progress = page.watchProgress();
    try {
      await page.cdp.send('Runtime.evaluate', { expression: 'setTimeout(work, 0); 1' });
      const since = Date.now();
      const held = starve(100, 1500);
      const verdict = await page.probe(since, 1000, progress.last, undefined, 1000);
      await held;
      expect(verdict).toEqual({ answered: true });
    } finally {
      progress.dispose();
    }
    const out = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "document.getElementById('out').textContent",
    });
    expect(out.value).toMatch(/^done after \d+ messages$/);
  });

  it('into while (true) {} is stopped after the limit and the answer says so', async () => {
    const pageId = await h.open('watchdog/busy-click.html');
    const refs = await h.refs(pageId);
    const o = await h.call('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Spin forever') });
    const data = o.data as any;
    expect(o.ok).toBe(false);
    expect(data.error_code).toBe('timeout');
    expect(o.content).toMatch(STOP_TEXT);
    const stop = data.script_stopped ?? data.details?.script_stopped;
    expect(stop.reason).toBe('not_yielding');
    expect(stop.after_ms).toBeLessThan(scaled(5000));
    // the page answers again
    const out = await h.ok('browser_evaluate', { page_id: pageId, expression: '1 + 1' });
    expect(out.value).toBe(2);
  });
});

/** Hold this process's event loop in its check phase (as a long callback would) for `ms`, after `afterMs`. */
function starve(afterMs: number, ms: number): Promise<void> {
  return new Promise<void>((resolve) =>
    setTimeout(
      () =>
        setImmediate(() => {
          const until = Date.now() + ms;
          while (Date.now() < until) {
            // the next turn runs due timers before it reads the browser's pipe
          }
          resolve();
        }),
      afterMs,
    ),
  );
}

describe('navigating away', () => {
  it("a page that answered while brow's process was starved is not taken for hung", async () => {
    // what decides whether a navigation first stops the page's script
    const pageId = await h.open('core/form.html');
    const page = h.rt.core.findPage(pageId)!;
    const held = starve(0, 600);
    const answered = await page.responsive(300);
    await held;
    expect(answered).toBe(true);
    expect(page.scriptStops).toEqual([]);
  });

  it('from a page whose script spins: brow stops it, the navigation goes through and says so', async () => {
    // spun outside any call, so the spin is already running when the navigation comes: either the
    // navigation's own check or the call's watch stops it
    const pageId = await h.open('core/form.html');
    const page = h.rt.core.findPage(pageId)!;
    await page.cdp.send('Runtime.evaluate', { expression: 'setTimeout(() => { for (;;) {} }, 0); 1' });
    expect(await eventually(async () => !(await page.responsive(300)), 10_000), 'the page to hang').toBe(
      true,
    );
    const o = await h.call('browser_navigate', {
      page_id: pageId,
      url: h.server.url('core/clickables.html'),
    });
    expect(o.ok, o.content).toBe(true);
    // stopped by the call's watch or by the navigation's own check, whichever comes first
    expect(o.content).toMatch(/brow stopped this page's script after \d+(\.\d)? s: it did not yield/);
    expect(['not_yielding', 'blocked_navigation']).toContain((o.data as any).script_stopped?.reason);
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'location.pathname' })).value).toBe(
      '/core/clickables.html',
    );
  });

  it('from a page whose pagehide handler never ends: stopped, and the navigation goes through', async () => {
    const pageId = await h.open('watchdog/unload-trap.html');
    const o = await h.call('browser_navigate', {
      page_id: pageId,
      url: h.server.url('core/clickables.html'),
    });
    expect(o.ok, o.content).toBe(true);
    expect(o.content).toMatch(STOP_TEXT);
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'location.pathname' })).value).toBe(
      '/core/clickables.html',
    );
  });
});
