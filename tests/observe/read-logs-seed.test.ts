/**
 * Seed 001's read_console / read_network: clear by default (clear: false keeps the entries), entries
 * with `occurred_at` (ISO time) and, for requests, `phase` (request | response | failed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const until = async (fn: () => Promise<boolean>, ms = 10_000) => {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > scaled(ms)) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
};

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('browser_read_console entries', () => {
  it('carry occurred_at as ISO time next to brow fields', async () => {
    const t0 = Date.now();
    const pageId = await h.open('observe/console.html');
    await until(
      async () =>
        (await h.ok('browser_read_console', { page_id: pageId, clear: false, level: 'exception' }))
          .total_count > 0,
    );
    const r = await h.ok('browser_read_console', { page_id: pageId });
    expect(r.console_entries.length).toBeGreaterThan(0);
    for (const e of r.console_entries) {
      expect(e.occurred_at).toMatch(ISO);
      expect(Date.parse(e.occurred_at)).toBe(e.timestamp);
      expect(Date.parse(e.occurred_at)).toBeGreaterThanOrEqual(t0 - 1000);
      expect(e).toEqual(expect.objectContaining({ page_id: pageId, seq: expect.any(Number) }));
    }
    expect(r.error_count).toBeGreaterThan(0);
  });
});

describe('browser_read_network entries', () => {
  it('carry phase (response, failed) and occurred_at; clear by default', async () => {
    const pageId = await h.open('observe/network.html');
    await until(async () => {
      const r = await h.ok('browser_read_network', { page_id: pageId, clear: false });
      return r.entries.length >= 4 && r.entries.every((e: any) => !e.pending);
    });
    const r = await h.ok('browser_read_network', { page_id: pageId });
    const byUrl = (s: string) => r.network_entries.find((e: any) => e.url.includes(s));
    expect(byUrl('/status?code=500')).toEqual(
      expect.objectContaining({ phase: 'response', status: 500, failed: true }),
    );
    expect(byUrl('127.0.0.1:9/unreachable')).toEqual(
      expect.objectContaining({ phase: 'failed', error: expect.stringMatching(/ERR_/) }),
    );
    expect(byUrl('/echo')).toEqual(expect.objectContaining({ phase: 'response', status: 200 }));
    for (const e of r.network_entries) expect(e.occurred_at).toMatch(ISO);
    // read: gone from the next read, unless a read keeps them
    expect((await h.ok('browser_read_network', { page_id: pageId })).returned_count).toBe(0);
    // one entry in detail answers the same fields
    const one = await h.ok('browser_read_network', { page_id: pageId, seq: byUrl('/echo').seq });
    expect(one.entry).toEqual(
      expect.objectContaining({ phase: 'response', occurred_at: expect.any(String) }),
    );
  });

  it('a request still under way when read is phase request, and comes back once it has finished', async () => {
    const pageId = await h.open('observe/console.html');
    await h.ok('browser_read_network', { page_id: pageId });
    const page = h.rt.core.findPage(pageId)!;
    await page.raw.evaluate(() => {
      void fetch('/slow?ms=1500');
    });
    await until(
      async () =>
        (await h.ok('browser_read_network', { page_id: pageId, clear: false, pattern: 'slow' }))
          .returned_count === 1,
    );
    const under = await h.ok('browser_read_network', { page_id: pageId });
    const slow = under.entries.find((e: any) => e.url.includes('/slow'));
    expect(slow).toEqual(expect.objectContaining({ phase: 'request', pending: true }));
    expect(under.pending_count).toBe(1);
    await until(async () =>
      (await h.ok('browser_read_network', { page_id: pageId, clear: false })).entries.some(
        (e: any) => e.seq === slow.seq && e.phase === 'response',
      ),
    );
    const done = await h.ok('browser_read_network', { page_id: pageId });
    expect(done.entries.map((e: any) => [e.seq, e.phase, e.status])).toEqual([[slow.seq, 'response', 200]]);
    expect((await h.ok('browser_read_network', { page_id: pageId })).returned_count).toBe(0);
  });
});
