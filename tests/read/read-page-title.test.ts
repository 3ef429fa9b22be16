/** browser_read_page writes the page's first heading once (seed 001: read_page as Markdown). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const count = (text: string, line: RegExp) => text.split('\n').filter((l) => line.test(l)).length;

describe('browser_read_page on a long article whose h1 differs from the title', () => {
  for (const scope of ['viewport', 'full'] as const) {
    it(`prints the first heading once (scope ${scope})`, async () => {
      const pageId = await h.open('read/long-article.html');
      const r = await h.ok('browser_read_page', { page_id: pageId, scope });
      expect(r.markdown).toMatch(/^# Field notes on river gauges in spring\n\nBy the field team\./);
      expect(count(r.markdown, /^#+ Field notes on river gauges in spring$/)).toBe(1);
      expect(r.markdown).toMatch(/^## Week 1 at the weir$/m);
      if (scope === 'full') expect(r.markdown).toMatch(/^## Week 24 at the weir$/m);
    });
  }
});
