import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('navigation', () => {
  it('navigates, goes back and forward, reloads', async () => {
    const pageId = await h.open('core/form.html');
    const nav = await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('core/rerender.html') });
    expect(nav.status).toBe(200);
    expect(nav.page.document_generation).toBeGreaterThan(0);
    const back = await h.ok('browser_history', { page_id: pageId, action: 'back' });
    expect(back.url).toContain('form.html');
    expect(back.moved).toBe(true);
    const fwd = await h.ok('browser_history', { page_id: pageId, action: 'forward' });
    expect(fwd.url).toContain('rerender.html');
    const rl = await h.ok('browser_history', { page_id: pageId, action: 'reload' });
    expect(rl.url).toContain('rerender.html');
  });

  it('blocks schemes outside the allowlist', async () => {
    const pageId = await h.open('core/form.html');
    for (const url of [
      'javascript:alert(1)',
      'chrome://settings',
      'file:///etc/passwd',
      'devtools://devtools/x',
    ]) {
      const e = await h.err('browser_navigate', { page_id: pageId, url });
      expect(e.code).toBe('url_blocked');
    }
    expect((await h.err('browser_open_page', { url: 'file:///etc/passwd' })).code).toBe('url_blocked');
    expect((await h.err('browser_navigate', { page_id: pageId, url: 'not a url' })).code).toBe(
      'invalid_request',
    );
  });

  it('reports a 404 and an unreachable host as navigation_failed data; the page stays usable', async () => {
    const pageId = await h.open('core/form.html');
    const notFound = await h.err('browser_navigate', {
      page_id: pageId,
      url: h.server.url('core/nope.html'),
    });
    expect(notFound.code).toBe('navigation_failed');
    expect(notFound.data.status).toBe(404);
    const snap = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    expect(snap.__content).toContain('404 Not found');
    const down = await h.err('browser_navigate', { page_id: pageId, url: 'http://127.0.0.1:9/' });
    expect(down.code).toBe('navigation_failed');
    expect(down.data.net_error).toMatch(/^net::ERR_/);
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('core/form.html') });
    const opened = await h.err('browser_open_page', { url: h.server.url('status?code=500') });
    expect(opened.code).toBe('navigation_failed');
    expect(opened.data.page_id).toMatch(/^p-/);
  });

  it('waits for text inside frames of either origin, at any depth', async () => {
    const pageId = await h.open('core/frames.html');
    for (const text of ['Leaf button same', 'Leaf button cross', 'Cross mid button']) {
      const asked = Date.now();
      const w = await h.ok('browser_wait', {
        page_id: pageId,
        condition: 'text',
        value: text,
        timeout_ms: scaled(5000),
      });
      // the wait is part of the call, and its answer says the figure it reports
      expect(w.waited_ms).toBeLessThanOrEqual(Date.now() - asked);
      expect(w.__content).toContain(`satisfied after ${w.waited_ms} ms`);
    }
  });

  it('waits for text, url, ref state and time; a timeout says what it saw', async () => {
    const pageId = await h.open('core/popup.html');
    const refs = await h.refs(pageId);
    const fetchBtn = refs.find((r: any) => r.accessible_name === 'Fetch').ref;
    const page = h.rt.core.findPage(pageId)!;
    await page.raw.evaluate(() =>
      setTimeout(() => (document.getElementById('out')!.textContent = 'later'), 200),
    );
    const w = await h.ok('browser_wait', {
      page_id: pageId,
      condition: 'text',
      value: 'later',
      timeout_ms: scaled(5000),
    });
    expect(w.waited_ms).toBeGreaterThan(50);
    const t = await h.err('browser_wait', {
      page_id: pageId,
      condition: 'text',
      value: 'never-there',
      timeout_ms: 300,
    });
    expect(t.code).toBe('timeout');
    expect(t.content).toMatch(/never-there.*saw the text absent/);
    await h.ok('browser_wait', {
      page_id: pageId,
      condition: 'url',
      value: '*popup.html',
      timeout_ms: scaled(1000),
    });
    const u = await h.err('browser_wait', {
      page_id: pageId,
      condition: 'url',
      value: 'elsewhere',
      timeout_ms: 200,
    });
    expect(u.content).toMatch(/saw URL http/);
    await h.ok('browser_wait', {
      page_id: pageId,
      condition: 'ref',
      value: fetchBtn,
      state: 'enabled',
      timeout_ms: scaled(1000),
    });
    await page.raw.evaluate(() => document.querySelector('#fetch')!.remove());
    await h.ok('browser_wait', {
      page_id: pageId,
      condition: 'ref',
      value: fetchBtn,
      state: 'detached',
      timeout_ms: scaled(1000),
    });
    const tm = await h.ok('browser_wait', { page_id: pageId, condition: 'time', duration_ms: 100 });
    expect(tm.waited_ms).toBeGreaterThanOrEqual(95);
    expect((await h.err('browser_wait', { page_id: pageId, condition: 'time' })).code).toBe(
      'invalid_request',
    );
    await h.ok('browser_wait', { page_id: pageId, condition: 'load_state', state: 'load' });
  });

  it('serialises calls on one page and runs different pages concurrently', async () => {
    const a = await h.open('core/form.html');
    const b = await h.open('core/form.html');
    const t0 = Date.now();
    const results = await Promise.all([
      h.ok('browser_list_elements', { page_id: a }),
      h.ok('browser_list_elements', { page_id: a, scope: 'full' }),
      h.ok('browser_list_elements', { page_id: b }),
    ]);
    expect(results.every((r) => r.__content.includes('Full name'))).toBe(true);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
