/**
 * CSS generated content in names (issue 32): ::before/::after give their text (strings, attr(),
 * quotes) and an image only its alternative text after `/`; `content` on an element itself makes
 * it a replaced image named by that alternative text. Checked against expected names and against
 * Chromium's own accessibility tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

/** Collapse ASCII whitespace and trim it. */
function norm(s: string): string {
  return s.replace(/[ \t\n\f\r]+/g, ' ').replace(/^ | $/g, '');
}

/** Chromium's name per data-testid (the first unignored AX node of each element). */
async function chromiumNames(pageId: string): Promise<Map<string, string>> {
  const page = h.rt.core.findPage(pageId)!;
  const cdp = await page.raw.createCDPSession();
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const testIds = new Map<number, string>();
    type DomNode = typeof root;
    const visit = (n: DomNode): void => {
      const a = n.attributes ?? [];
      for (let i = 0; i + 1 < a.length; i += 2)
        if (a[i] === 'data-testid') testIds.set(n.backendNodeId, a[i + 1]!);
      for (const c of n.children ?? []) visit(c);
    };
    visit(root);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const out = new Map<string, string>();
    for (const ax of nodes) {
      const id = ax.backendDOMNodeId !== undefined ? testIds.get(ax.backendDOMNodeId) : undefined;
      if (!id || ax.ignored || out.has(id)) continue;
      out.set(id, norm(String(ax.name?.value ?? '')));
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

/** brow's role and name per data-testid. */
async function browNames(pageId: string): Promise<Map<string, { role: string; name: string }>> {
  const refs = await h.refs(pageId, 'full');
  const out = new Map<string, { role: string; name: string }>();
  for (const r of refs) {
    const id = r.attributes?.['data-testid'];
    if (id && !out.has(id)) out.set(id, { role: r.role, name: r.accessible_name });
  }
  return out;
}

const EXPECTED: Record<string, [role: string, name: string]> = {
  // an SVG data URL drawing the box contributes nothing
  all: ['checkbox', 'All condiments'],
  lettuce: ['checkbox', 'Lettuce'],
  tomato: ['checkbox', 'Tomato'],
  regular: ['radio', 'Regular crust'],
  deep: ['radio', 'Deep dish'],
  thin: ['radio', 'Thin crust'],
  // strings and attr()
  note: ['heading', 'Note: Backups run nightly'],
  ext: ['link', 'Docs (opens in a new tab)'],
  // an image among strings: the strings only
  download: ['link', 'Report.pdf (2 MB)'],
  // counters are left out, as Chromium does (the "." of counters() is no text)
  sec1: ['heading', 'Introduction'],
  sec2: ['heading', 'Usage'],
  // quotes by the element's language, or by the quotes property
  quote: ['heading', '“ Less is more ”'],
  'quote-de': ['heading', '„ Weniger ist mehr “'],
  'quote-custom': ['heading', '« Moins, c’est mieux »'],
  // an escaped line break is whitespace, not the letter a
  step: ['heading', 'Part 1 Setup'],
  // an image's alternative text after the slash
  star: ['button', 'Starred Favourites'],
  inbox: ['button', 'New Inbox'],
  swatch: ['button', 'Sunset'],
  'swatch-alt': ['button', 'Round swatch Sea'],
  // `/ ""`: decoration, nothing
  close: ['button', 'Close dialog'],
  // a ::after with display: none is not generated
  hint: ['button', 'Help'],
  nothing: ['button', 'Plain'],
  // escaped quotes and backslashes in strings
  escaped: ['button', `say "hi" \\ 'to' now`],
  // attr() in alternative text
  'alt-attr': ['button', 'Go to settings page'],
  // an image between strings keeps them apart
  between: ['button', 'left right side'],
  'nested-quotes': ['heading', '“‘ Quoted twice ’”'],
  // content: url() on an element replaces its children
  save: ['button', 'Save'],
  open: ['button', 'Open file'],
  // a string as content of an element is ignored (only an image replaces)
  'own-string': ['button', 'Print'],
  // a space string parts words; an image alone in ::before does not
  'gap-string': ['button', 'foo bar'],
  'gap-image': ['button', 'foobar'],
  status: ['link', 'Status: Draft'],
  // the same through aria-labelledby (a single name computation, not the walk)
  labelled: ['button', 'Open Notes.txt (1 kB)'],
};

describe('CSS generated content in names', () => {
  it('gives text and alternative text, never an image URL', async () => {
    const pageId = await h.open('generated-content.html');
    const brow = await browNames(pageId);
    const got: Record<string, [string, string]> = {};
    for (const id of Object.keys(EXPECTED)) {
      const b = brow.get(id);
      got[id] = [b?.role ?? '(missing)', norm(b?.name ?? '')];
    }
    const want: Record<string, [string, string]> = {};
    for (const [id, [role, name]] of Object.entries(EXPECTED)) want[id] = [role, norm(name)];
    expect(got).toEqual(want);
    const full = (
      await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 2_000_000 })
    ).__content as string;
    expect(full).not.toMatch(/data:|svg|%3C/);
    // a replaced element's children are in no name (the outline's text of a paragraph is its DOM text)
    const refs = await h.refs(pageId, 'full');
    expect(
      refs.filter((r) => /OPEN-ICON|💾/.test(r.accessible_name ?? '')).map((r) => r.accessible_name),
    ).toEqual([]);
    expect(full).toMatch(/\[checkbox ref=e\d+[^\]]*\] All condiments/);
    expect(full).toMatch(/\[radio ref=e\d+[^\]]*\] Thin crust/);
    await h.ok('browser_close_page', { page_id: pageId });
  });

  it('agrees with Chromium’s accessibility tree (spaces aside)', async () => {
    const pageId = await h.open('generated-content.html');
    const brow = await browNames(pageId);
    const chromium = await chromiumNames(pageId);
    // brow makes generated text a word of its own; Chromium glues inline generated text on
    const squash = (s: string) => s.replace(/ /g, '');
    const differ: string[] = [];
    for (const id of Object.keys(EXPECTED)) {
      const ours = norm(brow.get(id)?.name ?? '');
      const theirs = chromium.get(id) ?? '';
      if (squash(ours) !== squash(theirs))
        differ.push(`${id}: brow ${JSON.stringify(ours)} / chromium ${JSON.stringify(theirs)}`);
    }
    expect(differ).toEqual([]);
    await h.ok('browser_close_page', { page_id: pageId });
  });

  it('follows state and class changes after clicks (BROW_VERIFY_WALKS checks each walk)', async () => {
    const pageId = await h.open('generated-content.html');
    let refs = await h.refs(pageId, 'full');
    // the box's image changes with its state; the name stays
    const clicked = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'checkbox', 'Tomato') });
    expect(clicked.__content).not.toMatch(/data:|%3C/);
    refs = await h.refs(pageId, 'full');
    expect(refs.find((r) => r.attributes?.['data-testid'] === 'tomato')).toMatchObject({
      role: 'checkbox',
      accessible_name: 'Tomato',
    });
    // a span becomes an image with alternative text: the link's name follows, both ways
    const status = async () => {
      const rs = await h.refs(pageId, 'full');
      return rs.find((r) => r.attributes?.['data-testid'] === 'status')?.accessible_name;
    };
    expect(await status()).toBe('Status: Draft');
    await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Publish') });
    expect(await status()).toBe('Status: Published');
    await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Publish') });
    expect(await status()).toBe('Status: Draft');
    await h.ok('browser_close_page', { page_id: pageId });
  });
});
