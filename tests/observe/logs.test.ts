import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ console_buffer: 50 });
});
afterAll(() => h.close());

const until = async (fn: () => Promise<boolean>, ms = 5000) => {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > scaled(ms)) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('browser_read_console', () => {
  it('reads levels, filters, counts what the buffer dropped, pages with since_seq', async () => {
    const pageId = await h.open('observe/console.html');
    await until(
      async () =>
        (await h.ok('browser_read_console', { clear: false, page_id: pageId, level: 'exception' }))
          .total_count > 0,
    );
    const all = await h.ok('browser_read_console', { clear: false, page_id: pageId });
    // Chromium also logs the missing favicon as an error: filter the page's own lines
    const own = all.entries.filter((e: any) => !e.text.startsWith('Failed to load resource'));
    expect(own.map((e: any) => e.level)).toEqual(['info', 'warning', 'error', 'debug', 'exception']);
    expect(all.console_entries).toEqual(all.entries);
    expect(all.error_count).toBeGreaterThanOrEqual(2);
    expect(all.__content).toContain('<page-content>');

    const errors = await h.ok('browser_read_console', {
      clear: false,
      page_id: pageId,
      level: 'error',
      pattern: 'bro|boom',
    });
    expect(errors.entries.map((e: any) => e.text.split('\n')[0])).toEqual([
      'something broke',
      'Error: uncaught boom',
    ]);
    expect(errors.entries[1].level).toBe('exception');
    const warned = await h.ok('browser_read_console', {
      clear: false,
      page_id: pageId,
      pattern: 'CAREFUL|nothing',
    });
    expect(warned.entries).toHaveLength(1);

    const before = all.last_seq;
    await h.ok('browser_click', { page_id: pageId, ref: refOf(await h.refs(pageId), 'button', 'Spam') });
    const after = await h.ok('browser_read_console', {
      clear: false,
      page_id: pageId,
      since_seq: before,
      limit: 500,
    });
    expect(after.dropped).toBeGreaterThan(0);
    expect(after.total_count).toBe(50);
    expect(after.entries.at(-1).text).toBe('spam 119');
    expect(after.last_seq).toBe(before + 120);
    const newest = await h.ok('browser_read_console', { clear: false, page_id: pageId, limit: 3 });
    expect(newest.entries.map((e: any) => e.text)).toEqual(['spam 117', 'spam 118', 'spam 119']);
    expect(newest.total_count).toBe(50);
    expect(newest.returned_count).toBe(3);
  });

  it('clears by default: the next read shows only newer entries; clear:false keeps them; others still see them', async () => {
    const pageId = await h.open('observe/console.html');
    await until(
      async () =>
        (await h.ok('browser_read_console', { clear: false, page_id: pageId, level: 'exception' }))
          .total_count > 0,
    );
    const kept = await h.ok('browser_read_console', { clear: false, page_id: pageId });
    expect(kept.cleared).toBe(false);
    const first = await h.ok('browser_read_console', { page_id: pageId });
    expect(first.cleared).toBe(true);
    expect(first.returned_count).toBe(kept.returned_count);
    expect(first.__content).toContain('Cleared: the next read shows only newer entries');
    const again = await h.ok('browser_read_console', { page_id: pageId });
    expect(again.returned_count).toBe(0);
    const page = h.rt.core.findPage(pageId)!;
    await page.raw.evaluate(() => console.log('fresh %s line', 'console', { a: 1, b: 'x' }, [1, 2]));
    await until(
      async () =>
        (await h.ok('browser_read_console', { clear: false, page_id: pageId })).returned_count === 1,
    );
    const fresh = await h.ok('browser_read_console', { page_id: pageId });
    expect(fresh.entries[0].text).toBe('fresh console line {a: 1, b: "x"} [1, 2]');
    expect((await h.ok('browser_read_console', { page_id: pageId })).returned_count).toBe(0);
    // the buffer is not emptied: a read of the whole session (another watermark) still has them
    const sessionId = page.session.id;
    const whole = await h.ok('browser_read_console', {
      session_id: sessionId,
      clear: false,
      pattern: 'fresh',
    });
    expect(whole.entries.map((e: any) => e.text)).toContain('fresh console line {a: 1, b: "x"} [1, 2]');
  });

  it('captures console and exceptions of same-origin and cross-origin iframes', async () => {
    const pageId = await h.open('observe/frames.html');
    await until(
      async () =>
        (await h.ok('browser_read_console', { clear: false, page_id: pageId, pattern: 'frame' }))
          .total_count >= 4,
    );
    const r = await h.ok('browser_read_console', { clear: false, page_id: pageId, pattern: 'frame' });
    const texts = r.entries.map((e: any) => e.text.split('\n')[0]);
    expect(texts).toEqual(
      expect.arrayContaining([
        'hello from the same frame',
        'hello from the cross frame',
        expect.stringContaining('boom in the same frame'),
        expect.stringContaining('boom in the cross frame'),
      ]),
    );
    const failedFetches = async () =>
      (
        await h.ok('browser_read_network', {
          clear: false,
          page_id: pageId,
          failed_only: true,
          pattern: 'from=',
        })
      ).total_count;
    await until(async () => (await failedFetches()) === 2);
    const net = await h.ok('browser_read_network', { clear: false, page_id: pageId, failed_only: true });
    expect(net.entries.map((e: any) => e.url)).toEqual(
      expect.arrayContaining([expect.stringContaining('from=same'), expect.stringContaining('from=cross')]),
    );
  });

  it('refuses a bad regex with invalid_request', async () => {
    const pageId = await h.open('observe/console.html');
    expect((await h.err('browser_read_console', { page_id: pageId, pattern: '(unclosed' })).code).toBe(
      'invalid_request',
    );
    expect((await h.err('browser_read_network', { page_id: pageId, pattern: '[z-a]' })).code).toBe(
      'invalid_request',
    );
  });
});

describe('browser_read_network', () => {
  it('lists requests, failed_only finds the 500 and the refused fetch, bodies on demand', async () => {
    const pageId = await h.open('observe/network.html');
    await until(
      async () =>
        (await h.ok('browser_read_network', { clear: false, page_id: pageId, pattern: 'echo' })).entries[0]
          ?.pending === false,
    );
    await until(
      async () =>
        (await h.ok('browser_read_network', { clear: false, page_id: pageId, failed_only: true }))
          .total_count >= 2,
    );
    const failed = await h.ok('browser_read_network', { clear: false, page_id: pageId, failed_only: true });
    const byUrl = (s: string) => failed.entries.find((e: any) => e.url.includes(s));
    expect(byUrl('/status?code=500').status).toBe(500);
    expect(byUrl('127.0.0.1:9/unreachable').error).toMatch(/ERR_/);
    expect(failed.entries.every((e: any) => e.failed)).toBe(true);
    expect(failed.network_entries).toEqual(failed.entries);

    const echo = (await h.ok('browser_read_network', { clear: false, page_id: pageId, pattern: '/echo$' }))
      .entries[0];
    expect(echo.method).toBe('POST');
    const detail = await h.ok('browser_read_network', { page_id: pageId, seq: echo.seq, include_body: true });
    expect(detail.request_body.body).toBe('{"hello":"world"}');
    expect(JSON.parse(detail.response_body.body).body).toBe('{"hello":"world"}');
    expect(detail.response_headers['content-type']).toBe('application/json');
    expect(detail.__content).toContain('Response body');

    const doc = (
      await h.ok('browser_read_network', { clear: false, page_id: pageId, pattern: 'network\\.html' })
    ).entries[0];
    const html = await h.ok('browser_read_network', { page_id: pageId, seq: doc.seq, include_body: true });
    expect(html.response_body.body).toContain('<h1>Network</h1>');

    expect((await h.err('browser_read_network', { page_id: pageId, include_body: true })).code).toBe(
      'invalid_request',
    );
    expect((await h.err('browser_read_network', { page_id: pageId, seq: 999_999 })).code).toBe(
      'invalid_request',
    );
  });

  it('reads a whole session when only session_id is given', async () => {
    const pageId = await h.open('observe/network.html');
    const sessionId = h.rt.core.findPage(pageId)!.session.id;
    const r = await h.ok('browser_read_network', {
      clear: false,
      session_id: sessionId,
      pattern: 'network\\.html',
    });
    expect(r.session_id).toBe(sessionId);
    expect(r.page_id).toBeUndefined();
    expect(r.total_count).toBeGreaterThan(0);
    expect((await h.err('browser_read_console', { session_id: 's-nope' })).code).toBe('session_not_found');
  });
});
