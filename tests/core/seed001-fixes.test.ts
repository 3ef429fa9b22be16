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

describe('browser_find visible_only false', () => {
  it('finds display:none, hidden and visibility:hidden elements with refs, marked hidden', async () => {
    const pageId = await h.open('walker/hidden.html');
    expect((await h.ok('browser_find', { page_id: pageId, name: 'Display none button' })).matches).toEqual(
      [],
    );
    const r = await h.ok('browser_find', {
      page_id: pageId,
      name: 'Display none button',
      visible_only: false,
    });
    expect(r.matches).toHaveLength(1);
    const m = r.matches[0];
    expect(m).toEqual(
      expect.objectContaining({
        role: 'button',
        name: 'Display none button',
        in_viewport: false,
        bounding_box: { x: 0, y: 0, width: 0, height: 0 },
      }),
    );
    expect(m.ref).toMatch(/^e\d+$/);
    expect(m.states).toContain('hidden');
    expect(r.__content).toContain(`[button ref=${m.ref}`);
    // the same element keeps its ref on the next find
    const again = await h.ok('browser_find', {
      page_id: pageId,
      name: 'Display none button',
      visible_only: false,
    });
    expect(again.matches[0].ref).toBe(m.ref);

    const links = await h.ok('browser_find', { page_id: pageId, role: 'link', visible_only: false });
    expect(links.matches.map((x: any) => x.name)).toEqual(['Hidden attribute link']);
    const inside = await h.ok('browser_find', {
      page_id: pageId,
      text: 'inside display',
      visible_only: false,
    });
    expect(inside.matches.map((x: any) => `${x.role}:${x.name}`)).toEqual(['button:Inside display none']);
    const invisible = await h.ok('browser_find', { page_id: pageId, text: 'invisible', visible_only: false });
    expect(invisible.matches.map((x: any) => x.role)).toContain('button');
    // visible elements come first, hidden ones after; a template's content is not in the document
    const buttons = await h.ok('browser_find', { page_id: pageId, role: 'button', visible_only: false });
    const names = buttons.matches.map((x: any) => x.name);
    expect(names[0]).toBe('Visible button');
    expect(names).toEqual(
      expect.arrayContaining(['Display none button', 'Inside display none', 'Invisible button']),
    );
    expect(names).not.toContain('Template button');
    expect(buttons.total).toBe(buttons.matches.length);
    // the content of a closed <details> is not rendered either
    await h.rt.core
      .findPage(pageId)!
      .raw.evaluate(() =>
        document.body.insertAdjacentHTML(
          'beforeend',
          '<details><summary>More</summary><button>Folded button</button></details>',
        ),
      );
    expect((await h.ok('browser_find', { page_id: pageId, name: 'Folded' })).matches).toEqual([]);
    const folded = await h.ok('browser_find', { page_id: pageId, name: 'Folded', visible_only: false });
    expect(folded.matches.map((x: any) => `${x.role}:${x.name}`)).toEqual(['button:Folded button']);
  });

  it('an action on a hidden match fails with not_interactable', async () => {
    const pageId = await h.open('walker/hidden.html');
    const r = await h.ok('browser_find', {
      page_id: pageId,
      name: 'Display none button',
      visible_only: false,
    });
    const e = await h.err('browser_click', { page_id: pageId, ref: r.matches[0].ref });
    expect(e.code).toBe('not_interactable');
  });
});
