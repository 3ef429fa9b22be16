/** browser_list_elements {depth}: only lines at most N levels deep in the listing (the CLI's `snapshot -d N`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** The indentation level of each outline line (two spaces a level). */
const levels = (text: string) =>
  text
    .slice(text.indexOf('<page-content>\n') + 15, text.indexOf('\n</page-content>'))
    .split('\n')
    .map((l) => (/^( *)/.exec(l)![1]!.length / 2) | 0);

describe('list_elements depth', () => {
  it('keeps the top levels of the listing and drops what lies deeper', async () => {
    const pageId = await h.open('core/form.html');
    const all = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    const deepest = Math.max(...levels(all.__content));
    expect(deepest).toBeGreaterThanOrEqual(2);
    for (const depth of [0, 1]) {
      const cut = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', depth });
      const ls = levels(cut.__content);
      expect(Math.max(...ls)).toBe(depth);
      // every line it keeps is a line of the whole listing, in the same order
      const lines = (t: string) =>
        t.slice(t.indexOf('<page-content>'), t.indexOf('</page-content>')).split('\n');
      const whole = lines(all.__content);
      let at = 0;
      for (const l of lines(cut.__content)) {
        at = whole.indexOf(l, at);
        expect(at).toBeGreaterThanOrEqual(0);
      }
      expect(cut.snapshot.refs.length).toBeLessThan(all.snapshot.refs.length);
    }
    // the same depth in the outline format
    const outline = await h.ok('browser_list_elements', {
      page_id: pageId,
      scope: 'full',
      format: 'outline',
      depth: 0,
    });
    expect(outline.outline.tree.split('\n').every((l: string) => l.startsWith('- '))).toBe(true);
  });

  it('refuses a depth that is not a whole number', async () => {
    const pageId = await h.open('core/form.html');
    const e = await h.err('browser_list_elements', { page_id: pageId, depth: -1 });
    expect(e.code).toBe('invalid_request');
  });
});
