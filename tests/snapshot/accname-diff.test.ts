/**
 * Differential test of roles and names: brow's `full` outline against Chromium's own accessibility
 * tree (CDP Accessibility.getFullAXTree) for every element carrying a data-testid on the fixture pages
 * under tests/fixtures/pages/accname/. Chromium is the referee where brow and the specs are unclear;
 * deliberate differences are listed with a reason in accname-known.ts.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES_DIR } from '../fixtures/server.js';
import { harness, type Harness } from '../helpers.js';
import { KNOWN_DISAGREEMENTS } from './accname-known.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

/** Chromium's internal role names in the ARIA terms brow uses. */
const CHROMIUM_ROLE: Record<string, string> = {
  img: 'image',
  Abbr: 'abbr',
  ColorWell: 'button',
  Date: 'textbox',
  DateTime: 'textbox',
  InputTime: 'textbox',
  DisclosureTriangle: 'button',
  Canvas: 'generic',
  Iframe: 'iframe',
  MathMLMath: 'math',
  // a line break is text, not an element an agent reads or uses
  LineBreak: 'generic',
  LayoutTable: 'table',
  LayoutTableRow: 'row',
  LayoutTableCell: 'cell',
  sectionheader: 'generic',
  sectionfooter: 'generic',
  // brow shows media and plugins as opaque generic lines (opaque=video…)
  Video: 'generic',
  Audio: 'generic',
  PluginObject: 'generic',
  // elements whose text names their parent control, group or table: brow folds them into that name
  LabelText: 'generic',
  Legend: 'generic',
  Figcaption: 'generic',
};

interface RoleName {
  role: string;
  name: string;
}

/** Absent, ignored and unnamed generic nodes are all "nothing to show". */
const NOTHING = '(nothing)';

/** Collapse ASCII whitespace (not NBSP: it is content) and trim it, as a reader hears a name. */
function norm(s: string): string {
  return s.replace(/[ \t\n\f\r]+/g, ' ').replace(/^ | $/g, '');
}

function canonical(x: RoleName | undefined): RoleName {
  if (!x) return { role: NOTHING, name: '' };
  const name = norm(x.name);
  if ((x.role === 'generic' || x.role === 'none' || x.role === NOTHING) && !name)
    return { role: NOTHING, name };
  return { role: x.role, name };
}

/**
 * Chromium's role and name per data-testid of the page (the first unignored AX node of each element);
 * an element Chromium leaves out of its tree altogether maps to nothing.
 */
async function chromiumTree(pageId: string): Promise<Map<string, RoleName>> {
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
      for (const c of n.shadowRoots ?? []) visit(c);
    };
    visit(root);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const out = new Map<string, RoleName>();
    for (const id of testIds.values()) out.set(id, { role: NOTHING, name: '' });
    for (const ax of nodes) {
      const id = ax.backendDOMNodeId !== undefined ? testIds.get(ax.backendDOMNodeId) : undefined;
      if (!id) continue;
      const prev = out.get(id);
      if (prev && prev.role !== NOTHING) continue;
      const role = String(ax.role?.value ?? '');
      out.set(id, {
        role: ax.ignored ? NOTHING : (CHROMIUM_ROLE[role] ?? role),
        name: ax.ignored ? '' : String(ax.name?.value ?? '').replace(/•+/g, '••••'),
      });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

const PAGES = readdirSync(`${PAGES_DIR}accname`)
  .filter((f) => f.endsWith('.html'))
  .sort();

describe('roles and names against Chromium’s accessibility tree', () => {
  it('agrees on every checked element of the corpus, or the difference is known', async () => {
    let checked = 0;
    let agreed = 0;
    let knownCount = 0;
    const unexpected: string[] = [];
    const stale: string[] = [];
    const seen = new Set<string>();
    for (const file of PAGES) {
      const pageId = await h.open(`accname/${file}`);
      const refs = await h.refs(pageId, 'full');
      const brow = new Map<string, RoleName>();
      for (const r of refs) {
        const id = r.attributes?.['data-testid'];
        if (id && !brow.has(id)) brow.set(id, { role: r.role, name: r.accessible_name });
      }
      const chromium = await chromiumTree(pageId);
      for (const [id, ax] of chromium) {
        checked++;
        const key = `${file.replace(/\.html$/, '')}#${id}`;
        const ours = canonical(brow.get(id));
        const theirs = canonical(ax);
        const same = ours.role === theirs.role && ours.name === theirs.name;
        if (same) agreed++;
        seen.add(key);
        const known = KNOWN_DISAGREEMENTS[key];
        if (same && known) stale.push(key);
        if (!same && known) knownCount++;
        if (!same && !known)
          unexpected.push(
            `${key}: brow ${ours.role} ${JSON.stringify(ours.name)} / chromium ${theirs.role} ${JSON.stringify(theirs.name)}`,
          );
      }
      await h.ok('browser_close_page', { page_id: pageId });
    }
    console.log(
      `accname corpus: ${checked} elements on ${PAGES.length} pages; brow agrees with Chromium on ${agreed}` +
        ` (${knownCount} known disagreements, ${unexpected.length} unexpected)`,
    );
    expect(checked).toBeGreaterThan(300);
    expect(unexpected).toEqual([]);
    expect(stale).toEqual([]);
    // every listed disagreement names an element of the corpus
    expect(Object.keys(KNOWN_DISAGREEMENTS).filter((k) => !seen.has(k))).toEqual([]);
  }, 120_000);
});

describe('text-level semantics in the outline', () => {
  it('shows them in full with their roles while the paragraph keeps its whole text', async () => {
    const pageId = await h.open('accname/text.html');
    const refs = await h.refs(pageId, 'full');
    const byId = (id: string) => refs.find((r) => r.attributes?.['data-testid'] === id);
    expect(byId('p1').text).toMatch(/^The WHO said this was added and this was removed; struck, highlighted/);
    expect(byId('abbr')).toMatchObject({
      role: 'abbr',
      accessible_name: 'World Health Organization',
      text: 'WHO',
    });
    expect(byId('ins')).toMatchObject({ role: 'insertion', accessible_name: '', text: 'this was added' });
    expect(byId('del')).toMatchObject({ role: 'deletion', text: 'this was removed' });
    expect(byId('s')).toMatchObject({ role: 'deletion', text: 'struck' });
    expect(byId('sub')).toMatchObject({ role: 'subscript', text: '2' });
    expect(byId('dfn')).toMatchObject({ role: 'term', accessible_name: 'a defined term' });
    const full = (
      await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 2_000_000 })
    ).__content as string;
    // the paragraph's line carries its text; its text-level parts follow, indented under it
    expect(full).toMatch(
      /\[paragraph ref=e\d+[^\]]*\] The WHO said this was added[^\n]*\n(\s+)\[abbr ref=e\d+[^\]]*\] World Health Organization — WHO\n\1\[insertion ref=e\d+[^\]]*\] this was added\n/,
    );
    // none of them is something to act on: the interactive scope does not grow
    const interactive = await h.refs(pageId);
    expect(
      interactive.filter((r) =>
        /^(abbr|insertion|deletion|mark|strong|emphasis|code|time|subscript|superscript)$/.test(r.role),
      ),
    ).toEqual([]);
    await h.ok('browser_close_page', { page_id: pageId });
  });
});
