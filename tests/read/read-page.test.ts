import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { tablePageHtml } from './table-page.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  const table = tablePageHtml();
  h.server.route('/table', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(table);
  });
});
afterAll(() => h.close());

describe('browser_read_page', () => {
  it('reads an article as Markdown: headings, table, code; no nav or footer', async () => {
    const pageId = await h.open('read/article.html');
    const r = await h.ok('browser_read_page', { page_id: pageId, scope: 'full' });
    const md: string = r.markdown;
    expect(md).toMatch(/^# Tide Tables of the Northern Estuary$/m);
    expect(md).toMatch(/^## Measuring the water$/m);
    expect(md).toMatch(/^### Where predictions fail$/m);
    expect(md).toContain('| Constituent | Period (hours) | Amplitude (m) |');
    expect(md).toContain('| --- | --- | --- |');
    expect(md).toContain('| M2 | 12.42 | 1.84 |');
    expect(md).toContain('```python\ndef level(t, constituents):');
    expect(md).toMatch(/^- Surges raise the level/m);
    expect(md).not.toContain('Subscribe to the newsletter');
    expect(md).not.toContain('Privacy');
    expect(r.title).toContain('Tide Tables');
    expect(r.byline).toBe('Mara Lindqvist');
    expect(r.excerpt).toBeTruthy();
    expect(r.source).toBe('readability');
    expect(r.truncated).toBe(false);
    expect(r.scope).toBe('full');
    // the text fences page content
    const lines = r.__content.split('\n');
    expect(lines).toContain('<page-content>');
    expect(lines).toContain('</page-content>');
    expect(lines.indexOf('<page-content>')).toBeLessThan(lines.indexOf('</page-content>'));
  });

  it('scope viewport keeps what is on screen', async () => {
    const pageId = await h.open('read/long.html');
    const vp = await h.ok('browser_read_page', { page_id: pageId });
    expect(vp.scope).toBe('viewport');
    expect(vp.markdown).toContain('## Section 1');
    expect(vp.markdown).not.toContain('## Section 5');
    const full = await h.ok('browser_read_page', { page_id: pageId, scope: 'full' });
    expect(full.markdown).toContain('## Section 40');
    await h.ok('browser_scroll', { page_id: pageId, delta_y: 6000 });
    const later = await h.ok('browser_read_page', { page_id: pageId });
    expect(later.markdown).not.toContain('## Section 1\n');
    expect(later.markdown).toMatch(/## Section (9|1\d)/);
  });

  it('keeps to max_chars and continues with a cursor', async () => {
    const pageId = await h.open('read/long.html');
    const parts: string[] = [];
    let r = await h.ok('browser_read_page', { page_id: pageId, scope: 'full', max_chars: 1500 });
    expect(r.truncated).toBe(true);
    expect(r.__content.length).toBeLessThanOrEqual(1500);
    parts.push(r.markdown);
    while (r.cursor) {
      r = await h.ok('browser_read_page', { page_id: pageId, cursor: r.cursor, max_chars: 1500 });
      expect(r.__content.length).toBeLessThanOrEqual(1500);
      parts.push(r.markdown);
    }
    const whole = (await h.ok('browser_read_page', { page_id: pageId, scope: 'full', max_chars: 2_000_000 }))
      .markdown;
    expect(parts.join('')).toBe(whole);
    expect(parts.length).toBeGreaterThan(3);
    const bad = await h.err('browser_read_page', { page_id: pageId, cursor: 'read-nope@10' });
    expect(bad.code).toBe('invalid_request');
  });

  it('reads same-origin and cross-origin iframes in place', async () => {
    const cross = await h.ok('browser_read_page', {
      page_id: await h.open('read/frames.html'),
      scope: 'full',
    });
    expect(cross.markdown).toContain('## Note from another origin');
    expect(cross.markdown).toContain('The tide gauge reads 2.4 metres.');
    expect(cross.markdown).not.toContain('BROWFRAME');
    const same = await h.ok('browser_read_page', {
      page_id: await h.open('read/frames-same.html'),
      scope: 'full',
    });
    expect(same.markdown).toContain('## Note from this site');
    expect(same.markdown).toContain('The harbour opens at six in the morning.');
  });

  it('says so plainly when there is nothing to read', async () => {
    const pageId = await h.open('read/empty.html');
    const r = await h.ok('browser_read_page', { page_id: pageId, scope: 'full' });
    expect(r.markdown).toBe('');
    expect(r.__content).toContain('The page has no readable text');
  });

  it('reads a 45k-node table page within the default budget', async () => {
    const pageId = await h.open('table');
    const r = await h.ok('browser_read_page', { page_id: pageId, scope: 'full' });
    expect(r.__content.length).toBeLessThanOrEqual(24_000);
    expect(r.truncated).toBe(true);
    expect(r.markdown).toContain('| # | Name | City | Balance | Status | Link |');
    expect(r.total_chars).toBeGreaterThan(100_000);
    const vp = await h.ok('browser_read_page', { page_id: pageId });
    expect(vp.markdown).toContain('| 1 |');
    expect(vp.markdown).not.toContain('| 2999 |');
  });
});
