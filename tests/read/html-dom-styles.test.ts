import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** The ref printed on the outline line that contains `needle`. */
function refOnLine(text: string, needle: string): string {
  const line = text.split('\n').find((l) => l.includes(needle));
  const m = line && /ref=(e\d+)/.exec(line);
  if (!m) throw new Error(`no ref on a line with ${needle}:\n${text}`);
  return m[1]!;
}

describe('browser_read_html', () => {
  it('outline: structure with refs, short text; no scripts, styles or classes', async () => {
    const pageId = await h.open('read/structure.html');
    const r = await h.ok('browser_read_html', { page_id: pageId });
    expect(r.detail).toBe('outline');
    const html: string = r.html;
    expect(html).toMatch(/^<html ref=e\d+ lang="en">/);
    expect(html).toMatch(/\n {6}<nav ref=e\d+ aria-label="Main">/);
    expect(html).toMatch(/<a ref=e\d+ href="\/home">Home/);
    expect(html).toContain('data-testid="product-grid"');
    expect(html).not.toContain('data-price');
    expect(html).not.toContain('class=');
    expect(html).not.toContain('onclick');
    expect(html).not.toMatch(/<script|<style/);
    expect(html).toMatch(/<p ref=e\d+ id="secret" hidden>Hidden text \(hidden\)/);
    expect(html).toContain('value="••••"');
    expect(html).not.toContain('hunter2');
    expect(html).toMatch(/<span ref=e\d+>Shadow text/);
    expect(r.__content).toContain('<page-content>');

    // an outline ref works with the other tools
    const buy = refOnLine(html, 'Buy kettle');
    const click = await h.ok('browser_click', { page_id: pageId, ref: buy });
    expect(click.action.outcome).toBeDefined();
    // and names the same element a snapshot names
    const refs = await h.refs(pageId);
    expect(refs.find((x: any) => x.accessible_name === 'Buy kettle').ref).toBe(buy);
  });

  it('full: markup of one ref, cleaned; an iframe ref reads its document', async () => {
    const pageId = await h.open('read/structure.html');
    const outline = (await h.ok('browser_read_html', { page_id: pageId })).html;
    const grid = refOnLine(outline, 'product-grid');
    const full = await h.ok('browser_read_html', { page_id: pageId, ref: grid, detail: 'full' });
    expect(full.html).toMatch(/^<section id="products" data-testid="product-grid">/);
    expect(full.html).toContain('<h2>Kettle</h2><p>Boils water.</p>');
    expect(full.html).toContain('data-price="10"');
    expect(full.html).not.toContain('class=');
    expect(full.html).not.toContain('<html');
    const frameRef = refOnLine(outline, '<iframe');
    const inner = await h.ok('browser_read_html', { page_id: pageId, ref: frameRef });
    expect(inner.html).toContain('First inside');
    const innerLi = refOnLine(inner.html, 'Second inside');
    const innerFull = await h.ok('browser_read_html', { page_id: pageId, ref: innerLi, detail: 'full' });
    expect(innerFull.html).toBe('<li>Second inside</li>');
  });

  it('keeps to max_chars and refuses a budget out of range', async () => {
    const pageId = await h.open('read/long.html');
    const r = await h.ok('browser_read_html', { page_id: pageId, detail: 'full', max_chars: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.html.length).toBeLessThanOrEqual(1000);
    expect((await h.err('browser_read_html', { page_id: pageId, max_chars: 10 })).code).toBe(
      'invalid_request',
    );
    expect((await h.err('browser_read_html', { page_id: pageId, ref: 'e99999' })).code).toBe('ref_not_found');
  });
});

describe('browser_read_dom', () => {
  it('tree with refs, ids, classes, text and child counts to a depth', async () => {
    const pageId = await h.open('read/structure.html');
    const r = await h.ok('browser_read_dom', { page_id: pageId, depth: 2 });
    expect(r.root.tag).toBe('body');
    expect(r.root.ref).toMatch(/^e\d+$/);
    const header = r.root.children.find((c: any) => c.id === 'top');
    expect(header.classes).toEqual(['site-header', 'main']);
    expect(header.child_count).toBe(1);
    const main = r.root.children.find((c: any) => c.tag === 'main');
    const section = main.children.find((c: any) => c.id === 'products');
    expect(section.child_count).toBe(2);
    expect(section.children).toEqual([]);
    expect(r.truncated).toBe(false);
    expect(r.__content).toMatch(/section#products\.grid \[ref=e\d+\] \(2 children\)/);

    const deeper = await h.ok('browser_read_dom', { page_id: pageId, ref: section.ref, depth: 2 });
    expect(deeper.root.children[0].children.map((c: any) => c.text)).toEqual([
      'Kettle',
      'Boils water.',
      'Buy kettle',
    ]);
    const widget = main.children.find((c: any) => c.id === 'widget');
    const shadow = await h.ok('browser_read_dom', { page_id: pageId, ref: widget.ref, depth: 1 });
    expect(shadow.root.children[0]).toEqual(
      expect.objectContaining({ tag: 'span', text: 'Shadow text', shadow: true }),
    );
    expect(main.children.find((c: any) => c.id === 'secret').hidden).toBe(true);
  });

  it('stops at 500 nodes', async () => {
    const pageId = await h.open('read/scripts.html');
    await h.ok('browser_execute', {
      page_id: pageId,
      code: 'const ul = document.createElement("ul"); for (let i = 0; i < 800; i++) ul.appendChild(document.createElement("li")).textContent = "item " + i; document.body.appendChild(ul);',
    });
    const r = await h.ok('browser_read_dom', { page_id: pageId, depth: 5 });
    expect(r.truncated).toBe(true);
    expect(r.node_count).toBe(500);
  });
});

describe('browser_read_styles / browser_write_styles', () => {
  it('reads defaults, named properties and all; writes inline style that a navigation removes', async () => {
    const pageId = await h.open('read/structure.html');
    const box = refOnLine((await h.ok('browser_read_html', { page_id: pageId })).html, 'id="box"');
    const defaults = await h.ok('browser_read_styles', { page_id: pageId, ref: box });
    expect(defaults.properties.length).toBeGreaterThanOrEqual(30);
    const prop = (r: any, name: string) => r.properties.find((p: any) => p.name === name)?.value;
    expect(prop(defaults, 'width')).toBe('200px');
    expect(prop(defaults, 'color')).toBe('rgb(10, 20, 30)');
    expect(defaults.inline_style).toBe('margin: 4px');
    const named = await h.ok('browser_read_styles', {
      page_id: pageId,
      ref: box,
      properties: ['padding-top'],
    });
    expect(named.properties).toEqual([{ name: 'padding-top', value: '12px' }]);
    const all = await h.ok('browser_read_styles', { page_id: pageId, ref: box, properties: ['*'] });
    expect(all.properties.length).toBeGreaterThan(200);

    const w = await h.ok('browser_write_styles', {
      page_id: pageId,
      ref: box,
      property: 'background-color',
      value: 'red',
    });
    expect(w.ok).toBe(true);
    expect(w.inline_style).toBe('margin: 4px; background-color: red;');
    expect(w.value).toBe('rgb(255, 0, 0)');
    const imp = await h.ok('browser_write_styles', {
      page_id: pageId,
      ref: box,
      property: 'color',
      value: 'blue',
      important: true,
    });
    expect(imp.inline_style).toContain('color: blue !important');
    const removed = await h.ok('browser_write_styles', {
      page_id: pageId,
      ref: box,
      property: 'margin',
      value: '',
    });
    expect(removed.inline_style).not.toContain('margin');
    const bad = await h.err('browser_write_styles', {
      page_id: pageId,
      ref: box,
      property: 'width',
      value: 'banana',
    });
    expect(bad.code).toBe('invalid_request');
    expect(
      (await h.err('browser_read_styles', { page_id: pageId, ref: box, properties: ['not a prop!'] })).code,
    ).toBe('invalid_request');

    await h.ok('browser_history', { page_id: pageId, action: 'reload' });
    expect((await h.err('browser_read_styles', { page_id: pageId, ref: box })).code).toBe('stale_ref');
    const box2 = refOnLine((await h.ok('browser_read_html', { page_id: pageId })).html, 'id="box"');
    const after = await h.ok('browser_read_styles', {
      page_id: pageId,
      ref: box2,
      properties: ['background-color'],
    });
    expect(after.inline_style).toBe('margin: 4px');
    expect(after.properties[0].value).toBe('rgb(255, 255, 255)');
  });

  it('write_styles is refused in read-only sessions', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const pageId = await h.open('read/structure.html', { session_id: s.session_id });
    const box = refOnLine((await h.ok('browser_read_html', { page_id: pageId })).html, 'id="box"');
    expect(
      (await h.ok('browser_read_styles', { page_id: pageId, ref: box })).properties.length,
    ).toBeGreaterThan(0);
    const e = await h.err('browser_write_styles', {
      page_id: pageId,
      ref: box,
      property: 'color',
      value: 'red',
    });
    expect(e.code).toBe('read_only');
  });
});
