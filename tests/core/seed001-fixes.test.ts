/** Seed 001 rows: browser_navigate at commit, browser_scroll of an app shell, browser_find of hidden elements. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('browser_navigate wait_until "commit"', () => {
  it('names the URL it committed, not the page it left', async () => {
    const pageId = (await h.ok('browser_open_page', { url: 'about:blank' })).page_id;
    const target = h.server.url('core/rerender.html');
    const nav = await h.ok('browser_navigate', { page_id: pageId, url: target, wait_until: 'commit' });
    expect(nav.__content).toContain(`to ${target}`);
    expect(nav.__content).not.toContain('about:blank');
    expect(nav.page.url).toBe(target);
    expect(nav.status).toBe(200);
  });

  it('after a failed load, names the new URL rather than chrome-error://chromewebdata/', async () => {
    const pageId = await h.open('core/form.html');
    await h.err('browser_navigate', { page_id: pageId, url: 'http://127.0.0.1:9/' });
    const target = h.server.url('core/rerender.html');
    const nav = await h.ok('browser_navigate', { page_id: pageId, url: target, wait_until: 'commit' });
    expect(nav.__content).toContain(`to ${target}`);
    expect(nav.__content).not.toContain('chrome-error');
    expect(nav.page.url).toBe(target);
  });
});

describe('browser_scroll by a delta', () => {
  it('reports the document scrolling as completed', async () => {
    const pageId = await h.open('core/scroll-layouts.html?mode=plain');
    const r = await h.ok('browser_scroll', { page_id: pageId, delta_y: 500 });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toContain('Scrolled the page by 0,500: page 0,0 → 0,500');
  });

  it('sees an app shell whose main pane scrolls while the document stays at 0,0', async () => {
    const pageId = await h.open('core/scroll-layouts.html?mode=shell');
    const r = await h.ok('browser_scroll', { page_id: pageId, delta_y: 500 });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/Scrolled the page by 0,500: pane main \(e\d+\) 0,0 → 0,500/);
    const pos = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: 'document.querySelector("main").scrollTop',
    });
    expect(pos.value).toBe(500);
  });

  it('says nothing scrolled at the end of the page', async () => {
    const pageId = await h.open('core/form.html');
    const r = await h.ok('browser_scroll', { page_id: pageId, delta_y: 500 });
    expect(r.action.outcome).toBe('no_change');
    expect(r.__content).toContain('Nothing scrolled by 0,500');
  });
});
