/**
 * The full outline leaves out nothing a conformance check (or an agent) asks about: every element of
 * tests/fixtures/pages/outline/conformance-kinds.html with data-testid has a ref with its expected
 * role, name and description, and plain wrappers stay folded into their parent's text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

interface Checked {
  id: string;
  role: string | null;
  label: string | null;
  description: string | null;
  none: boolean;
}

const stats = async (pageId: string) =>
  (
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `globalThis[Symbol.for('brow.page')].walkStats()`,
    })
  ).value as { patched: number; whole: number; reason: string };

const CHECKED = `[...document.querySelectorAll('[data-testid]')].map((e) => ({
  id: e.dataset.testid,
  role: e.dataset.expectedrole ?? null,
  label: e.dataset.expectedlabel ?? null,
  description: e.dataset.expecteddescription ?? null,
  none: e.hasAttribute('data-expectednone'),
}))`;

describe('outline reach', () => {
  it('gives every checked element a ref with its role and name, and no line to plain wrappers', async () => {
    const pageId = await h.open('outline/conformance-kinds.html');
    const checked: Checked[] = (await h.ok('browser_evaluate', { page_id: pageId, expression: CHECKED }))
      .value;
    expect(checked.length).toBeGreaterThan(60);
    const refs = await h.refs(pageId, 'full');
    const byId = new Map<string, any>();
    for (const r of refs) {
      const id = r.attributes?.['data-testid'];
      if (id && !byId.has(id)) byId.set(id, r);
    }
    const wrong: string[] = [];
    for (const c of checked) {
      const r = byId.get(c.id);
      if (c.none) {
        if (r) wrong.push(`${c.id}: shown as ${r.role} ${JSON.stringify(r.accessible_name)}`);
        continue;
      }
      if (!r) {
        wrong.push(`${c.id}: absent`);
        continue;
      }
      const got = `${r.role} ${JSON.stringify(r.accessible_name)} ${JSON.stringify(r.description ?? '')}`;
      if (
        (c.role !== null && r.role !== c.role) ||
        (c.label !== null && r.accessible_name !== c.label) ||
        (c.description !== null && (r.description ?? '') !== c.description)
      )
        wrong.push(
          `${c.id}: ${got}; want ${c.role} ${JSON.stringify(c.label)} ${JSON.stringify(c.description)}`,
        );
    }
    expect(wrong).toEqual([]);

    // what is shown for a title or as text-level keeps its words in the paragraph's text
    expect(byId.get('p-with-title-span').text).toBe('Posted yesterday by Bob');
    expect(byId.get('p-text-level').text).toMatch(
      /^A marked, noon, code, deleted, inserted, H2O, x2, strong/,
    );
    // a caption that names its table does not repeat its words
    expect(byId.get('caption').text).toBe('');
    expect(byId.get('caption-shown').text).toBe('Shown caption');

    const full = (
      await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 2_000_000 })
    ).__content as string;
    expect(full).toMatch(/\[generic ref=e\d+\] titled div text — Div title\n/);
    expect(full).toMatch(/\[table ref=e\d+\] Table caption\n\s+\[caption ref=e\d+\]\n/);
    expect(full).not.toMatch(/^\s*Hidden source$/m);

    // none of these is something to act on: the interactive scope does not grow
    const interactive = await h.refs(pageId);
    expect(interactive.filter((r) => /^(caption|generic|paragraph)$/.test(r.role))).toEqual([]);
    await h.ok('browser_close_page', { page_id: pageId });
  });

  it('patches a walk where a title changes, and names again from a changed aria-labelledby target', async () => {
    const pageId = await h.open('outline/conformance-kinds.html');
    const refs = await h.refs(pageId, 'full');
    const before = await stats(pageId);
    await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Retitle') });
    const after = await stats(pageId);
    // the walk after the click was patched ('' = no reason to walk everything)
    expect(after.reason).toBe('');
    expect(after.patched).toBeGreaterThan(before.patched);
    await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Rename source') });
    const now = await h.refs(pageId, 'full');
    const byId = (id: string) => now.find((r) => r.attributes?.['data-testid'] === id);
    expect(byId('plain-div')).toMatchObject({ role: 'generic', description: 'Now titled' });
    expect(byId('div-title')).toBeUndefined();
    expect(byId('div-labelledby')).toMatchObject({ accessible_name: 'Renamed source' });
    expect(byId('span-labelledby')).toMatchObject({ accessible_name: 'Renamed source' });
    await h.ok('browser_close_page', { page_id: pageId });
  });
});
