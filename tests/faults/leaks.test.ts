/**
 * Leaks: brow must run for days. Stopped sessions are freed (heap, handles and maps stay flat across
 * start/stop cycles) and the ref registry of a page that navigates keeps only its live documents.
 * The counts are what a leak of one object per cycle needs to stand out, no more: each bound below is
 * computed from them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 8 });
  // 3,000 links: a big page whose every walk registers 3,000 refs
  const links = Array.from({ length: 3000 }, (_, i) => `<a href="#l${i}">Link ${i}</a>`).join('\n');
  h.server.route('/big-links', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Links</title><h1>Three thousand links</h1>${links}`);
  });
});
afterAll(async () => {
  await h?.close();
});

/** Start/stop cycles: a session and a page kept per cycle would leave 2 × CYCLES reachable. */
const CYCLES = 30;
/** Stopped sessions or pages a pending CDP callback may still hold at the end: the last few, whatever CYCLES is. */
const STILL_HELD = 4;
/** Heap growth allowed per cycle (MB): 100 cycles grew 1.8 MB in all; a kept session and page costs more. */
const HEAP_MB_PER_CYCLE = 0.4;
/** Navigations of the 3,000-link page: one kept document would double the registry at the first. */
const NAVIGATIONS = 12;

const settleGc = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('stopped sessions are freed', () => {
  it(`${CYCLES} start/stop cycles: every stopped session is collected, heap and handles flat, no session left`, async () => {
    // a leak of one per cycle must stand out from what a pending callback holds
    expect(CYCLES).toBeGreaterThan(2 * STILL_HELD);
    const gone: WeakRef<object>[] = [];
    // warm up: the first session launches Chromium and loads the core
    const warm = await h.ok('browser_start_session');
    await h.ok('browser_stop_session', { session_id: warm.session_id });
    await settleGc();
    const before = process.memoryUsage().heapUsed;
    const resourcesBefore = process.getActiveResourcesInfo().length;
    for (let i = 0; i < CYCLES; i++) {
      const started = await h.ok('browser_start_session');
      const pageId = (await h.ok('browser_open_page', { session_id: started.session_id, url: 'about:blank' }))
        .page_id;
      gone.push(new WeakRef(h.rt.core.session(started.session_id)));
      gone.push(new WeakRef(h.rt.core.findPage(pageId)!));
      await h.ok('browser_stop_session', { session_id: started.session_id });
    }
    await settleGc();
    const after = process.memoryUsage().heapUsed;
    const resourcesAfter = process.getActiveResourcesInfo().length;
    const alive = gone.filter((w) => w.deref() !== undefined).length;
    console.log(
      `leaks: ${alive} of ${gone.length} stopped sessions and pages still reachable; heap ${((after - before) / 1024 / 1024).toFixed(1)} MB, active handles and timers ${resourcesAfter - resourcesBefore} after ${CYCLES} cycles`,
    );
    // a few may still be held by a pending CDP callback; before the fix every one of them was (a
    // listener left on anything that outlives the session keeps it reachable too)
    expect(alive).toBeLessThanOrEqual(STILL_HELD);
    expect(h.rt.core.sessions.size).toBe(0);
    expect((after - before) / 1024 / 1024).toBeLessThan(CYCLES * HEAP_MB_PER_CYCLE);
    // a timer, socket or handle kept per cycle would add CYCLES
    expect(resourcesAfter - resourcesBefore).toBeLessThan(CYCLES / 2);
    // a stopped session's id still answers session_closed
    const last = await h.err('browser_list_pages', { session_id: warm.session_id });
    expect(last.code).toBe('session_closed');
  }, 240_000);
});

describe('the ref registry keeps only live documents', () => {
  it(`${NAVIGATIONS} navigations of a 3,000-link page: registry size stays one document; old refs answer stale_ref`, async () => {
    const pageId = (await h.ok('browser_open_page', { url: h.server.url('big-links') })).page_id;
    const page = h.rt.core.findPage(pageId)!;
    const first = await h.refs(pageId);
    const oldRef = first.find((r: any) => r.accessible_name === 'Link 10').ref;
    const sizes: number[] = [];
    for (let i = 0; i < NAVIGATIONS; i++) {
      await h.ok('browser_navigate', { page_id: pageId, url: `${h.server.url('big-links')}?n=${i}` });
      await h.ok('browser_list_elements', { page_id: pageId, scope: 'interactive', max_chars: 1000 });
      sizes.push(page.refs.size);
    }
    console.log(
      `leaks: ref registry after each of ${NAVIGATIONS} navigations: max ${Math.max(...sizes)} entries`,
    );
    // one document's refs (3,000 links), not two or more documents' (6,000 and up)
    expect(Math.max(...sizes)).toBeLessThan(3100);
    expect(page.refs.documents).toBe(1);
    const stale = await h.err('browser_click', { page_id: pageId, ref: oldRef });
    expect(stale.code).toBe('stale_ref');
    // a ref never issued is still ref_not_found
    expect((await h.err('browser_click', { page_id: pageId, ref: 'e99999999' })).code).toBe('ref_not_found');
  }, 240_000);
});
