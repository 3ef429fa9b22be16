/** The in-page outline script against real Chromium: roles, names, values, shadow DOM, ids, hit tests. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page, type SerializedAXNode } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BrowPageApi,
  WalkNode,
  WalkOptions,
  WalkResult,
} from '../../src/core/snapshot/injected/types.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-gpu',
];

let browser: Browser;
let server: FixtureServer;
let script: string;

/** Build the in-page script when it is missing or older than its sources (other test files read it too). */
function buildInjected(): void {
  const out = `${ROOT}dist/injected/page-script.js`;
  const srcDir = `${ROOT}src/core/snapshot/injected`;
  const built = existsSync(out) ? statSync(out).mtimeMs : 0;
  const newest = Math.max(...readdirSync(srcDir).map((f) => statSync(`${srcDir}/${f}`).mtimeMs));
  if (newest > built) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--injected-only'], { cwd: ROOT, stdio: 'inherit' });
  }
}

beforeAll(async () => {
  buildInjected();
  script = readFileSync(`${ROOT}dist/injected/page-script.js`, 'utf8');
  server = await startFixtureServer();
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Api = BrowPageApi;

/** Chromium's internal role names for roles we report in ARIA terms. */
const CHROMIUM_ROLE: Record<string, string> = {
  ColorWell: 'button',
  Date: 'textbox',
  DisclosureTriangle: 'button',
  Canvas: 'generic',
  Iframe: 'iframe',
};
declare const globalThis: { [key: symbol]: Api };

/** A new tab with the script installed at document start, on a fixture page. */
async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.evaluateOnNewDocument(script);
  await page.goto(server.url(path));
  return page;
}

function walk(page: Page, opts?: WalkOptions): Promise<WalkResult> {
  return page.evaluate((o) => globalThis[Symbol.for('brow.page')]!.walk(o), opts);
}

/** The emitted node of the element with this DOM id attribute. */
function byDomId(nodes: WalkNode[], id: string): WalkNode {
  const n = nodes.find((x) => x.attrs.id === id);
  if (!n) throw new Error(`no node with id=${id} in ${nodes.map((x) => `${x.role}:${x.name}`).join(', ')}`);
  return n;
}

function find(nodes: WalkNode[], role: string, name: string): WalkNode {
  const n = nodes.find((x) => x.role === role && x.name === name);
  if (!n) throw new Error(`no ${role} "${name}" in ${nodes.map((x) => `${x.role}:${x.name}`).join(', ')}`);
  return n;
}

describe('form', () => {
  let page: Page;
  let result: WalkResult;
  beforeAll(async () => {
    page = await open('walker/form.html');
    result = await walk(page);
  });
  afterAll(() => page.close());

  it('names controls from label[for], wrapping labels, aria-labelledby, aria-label, title and placeholder', () => {
    const n = result.nodes;
    expect(byDomId(n, 'first')).toMatchObject({ role: 'textbox', name: 'First name', value: 'Ada' });
    expect(byDomId(n, 'last')).toMatchObject({ role: 'textbox', name: 'Last name' });
    expect(byDomId(n, 'email')).toMatchObject({ role: 'textbox', name: 'you@example.com' });
    expect(byDomId(n, 'titled').name).toBe('Nickname');
    expect(byDomId(n, 'pw')).toMatchObject({ role: 'textbox', name: 'Password' });
    expect(byDomId(n, 'pw2').name).toBe('Repeat password');
    expect(byDomId(n, 'q')).toMatchObject({ role: 'searchbox', name: 'Search the site' });
    expect(byDomId(n, 'age')).toMatchObject({ role: 'spinbutton', name: 'Age', value: '42' });
    expect(byDomId(n, 'vol')).toMatchObject({ role: 'slider', name: 'Volume', value: '30' });
    expect(byDomId(n, 'icon')).toMatchObject({ role: 'button', name: 'Help' });
    expect(byDomId(n, 'go')).toMatchObject({ role: 'button', name: 'Create account' });
    expect(find(n, 'heading', 'Sign up').level).toBe(1);
  });

  it('never leaks a password value', async () => {
    expect(byDomId(result.nodes, 'pw').value).toBe('••••');
    expect(byDomId(result.nodes, 'pw2').value).toBeUndefined();
    await page.type('#pw2', 'sekrit-typed');
    const after = await walk(page);
    const text = JSON.stringify(after);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('pa55word');
    // a password inside another control's label is masked in that name too
    expect(byDomId(after.nodes, 'remember').name).toBe('Remember ••••');
    expect(text).not.toContain('sekrit-typed');
    expect(byDomId(after.nodes, 'pw2').value).toBe('••••');
  });

  it('gives a select its selected label as value and lists its options', () => {
    const select = byDomId(result.nodes, 'country');
    expect(select).toMatchObject({ role: 'combobox', name: 'Country', value: 'Germany' });
    expect(select.actions).toEqual(['click', 'select', 'scroll']);
    const i = result.nodes.indexOf(select);
    const options = result.nodes.slice(i + 1, i + 4);
    expect(options.map((o) => [o.role, o.name, o.depth])).toEqual([
      ['option', 'France', select.depth + 1],
      ['option', 'Germany', select.depth + 1],
      ['option', 'Italia', select.depth + 1],
    ]);
    expect(options[1]!.states).toContain('selected');
  });

  it('reports checked checkboxes and radios, required, disabled', () => {
    const n = result.nodes;
    expect(byDomId(n, 'terms')).toMatchObject({
      role: 'checkbox',
      name: 'I accept the terms',
      states: ['checked'],
    });
    expect(byDomId(n, 'terms').actions).toEqual(['click', 'check', 'hover', 'scroll']);
    expect(byDomId(n, 'news').states).toEqual([]);
    expect(byDomId(n, 'plan-pro')).toMatchObject({ role: 'radio', name: 'Pro', states: ['checked'] });
    expect(byDomId(n, 'plan-free').states).toEqual([]);
    expect(find(n, 'group', 'Plan')).toBeTruthy();
    expect(byDomId(n, 'bio')).toMatchObject({ role: 'textbox', name: 'Bio', value: 'Hello there' });
    expect(byDomId(n, 'bio').states).toContain('required');
    expect(byDomId(n, 'save')).toMatchObject({ role: 'button', name: 'Save draft', states: ['disabled'] });
    expect(byDomId(n, 'save').actions).toEqual(['hover', 'scroll']);
    expect(byDomId(n, 'locked')).toMatchObject({ states: ['disabled'], actions: ['hover', 'scroll'] });
  });

  it('gives each kind of control its actions', () => {
    const n = result.nodes;
    expect(byDomId(n, 'first').actions).toEqual(['click', 'fill', 'type', 'press', 'scroll']);
    expect(byDomId(n, 'bio').actions).toEqual(['click', 'fill', 'type', 'press', 'scroll']);
    expect(byDomId(n, 'avatar')).toMatchObject({
      role: 'button',
      name: 'Avatar',
      actions: ['click', 'upload', 'scroll'],
    });
    expect(byDomId(n, 'go').actions).toEqual(['click', 'hover', 'scroll']);
    expect(find(n, 'heading', 'Sign up').actions).toEqual([]);
    const notes = byDomId(n, 'notes');
    expect(notes).toMatchObject({
      tag: 'div',
      value: 'Some notes',
      actions: ['click', 'fill', 'type', 'press', 'scroll'],
    });
    expect(notes.attrs.contenteditable).toBe('true');
  });

  it('does not repeat label text that already names a control', () => {
    const texts = result.nodes.filter((x) => x.role === 'text').map((x) => x.name);
    expect(texts).not.toContain('First name');
    expect(texts).not.toContain('I accept the terms');
    // a span referenced by aria-labelledby is not a <label>: it stays visible as text
    expect(texts).toContain('Password');
  });

  it('keeps only whitelisted attributes', () => {
    const first = byDomId(result.nodes, 'first');
    expect(first.attrs).toEqual({ id: 'first', name: 'first', type: 'text', autocomplete: 'given-name' });
    expect(first.tag).toBe('input');
    const form = result.nodes.find((x) => x.role === 'form')!;
    expect(form.attrs).toMatchObject({ action: '/echo', method: 'post' });
  });

  it('describe() agrees with walk()', async () => {
    const described = await page.evaluate(
      (ids) => ids.map((id) => globalThis[Symbol.for('brow.page')]!.describe(id)),
      result.nodes.filter((x) => x.id > 0).map((x) => x.id),
    );
    const walked = result.nodes.filter((x) => x.id > 0);
    for (let i = 0; i < walked.length; i++) {
      const w = walked[i]!;
      const d = described[i]!;
      expect({ id: w.id, role: d.role, name: d.name, tag: d.tag }).toEqual({
        id: w.id,
        role: w.role,
        name: w.name,
        tag: w.tag,
      });
      expect(d.actions).toEqual(w.actions);
    }
    const terms = await page.evaluate(
      (id) => globalThis[Symbol.for('brow.page')]!.describe(id),
      byDomId(result.nodes, 'terms').id,
    );
    expect(terms?.checked).toBe(true);
  });
});

describe('content', () => {
  let page: Page;
  let result: WalkResult;
  beforeAll(async () => {
    page = await open('walker/content.html');
    result = await walk(page);
  });
  afterAll(() => page.close());

  it('emits landmarks, headings with levels and links', () => {
    const n = result.nodes;
    expect(n[0]).toMatchObject({ role: 'banner', depth: 0 });
    expect(find(n, 'navigation', 'Primary').depth).toBe(1);
    expect(find(n, 'link', 'Home')).toMatchObject({ depth: 2, actions: ['click', 'hover', 'scroll'] });
    expect(find(n, 'link', 'About us').attrs.href).toBe('/about');
    expect(find(n, 'heading', 'Main title').level).toBe(1);
    expect(find(n, 'heading', 'Sub title').level).toBe(2);
    expect(find(n, 'heading', 'Aria heading').level).toBe(4);
    expect(find(n, 'contentinfo', '').text).toBe('Footer text');
  });

  it('splits a paragraph around its links and keeps plain text as text', () => {
    const n = result.nodes;
    const para = byDomId(n, 'para');
    const i = n.indexOf(para);
    expect(n.slice(i + 1, i + 4).map((x) => [x.role, x.name, x.depth - para.depth])).toEqual([
      ['text', 'Read the', 1],
      ['link', 'docs', 1],
      ['text', 'before you start.', 1],
    ]);
    expect(para.text).toBeUndefined();
    expect(byDomId(n, 'plain')).toMatchObject({ role: 'paragraph', text: 'A plain paragraph of text.' });
    expect(n.find((x) => x.role === 'listitem' && x.text === 'Apple')).toBeTruthy();
    // skipped wrappers do not add depth
    const loose = n.find((x) => x.role === 'text' && x.name === 'Loose text in wrappers')!;
    expect(loose.depth).toBe(find(n, 'heading', 'Main title').depth);
  });

  it('builds a table of rows, header cells and cells', () => {
    const n = result.nodes;
    const table = find(n, 'table', 'People');
    const i = n.indexOf(table);
    const rows = n.slice(i + 1).filter((x) => x.depth > table.depth);
    expect(rows.slice(0, 5).map((x) => [x.role, x.name, x.depth - table.depth])).toEqual([
      // the caption has a line (and a ref) of its own, without the words it gives the table
      ['caption', '', 1],
      ['row', '', 1],
      ['columnheader', 'Name', 2],
      ['columnheader', 'Age', 2],
      ['row', '', 1],
    ]);
    expect(find(n, 'cell', 'Alice').depth).toBe(table.depth + 2);
    expect(find(n, 'cell', '40')).toBeTruthy();
    expect(find(n, 'link', '40').depth).toBe(table.depth + 3);
    // the caption names the table and is not repeated
    expect(n.some((x) => x.role === 'text' && x.name === 'People')).toBe(false);
    expect(n.find((x) => x.role === 'caption')!.text).toBeUndefined();
  });

  it('shows images, opaque canvas, scroll containers and closed details', () => {
    const n = result.nodes;
    expect(find(n, 'image', 'A pixel').tag).toBe('img');
    expect(n.filter((x) => x.tag === 'img')).toHaveLength(1);
    expect(byDomId(n, 'chart')).toMatchObject({ opaque: 'canvas' });
    expect(byDomId(n, 'scroller')).toMatchObject({ actions: ['scroll'], text: 'Tall content' });
    expect(find(n, 'button', 'More').states).toContain('collapsed');
    expect(JSON.stringify(n)).not.toContain('Hidden details text');
  });

  it('marks iframes for the Node side and shows a modal dialog with focus', async () => {
    expect(byDomId(result.nodes, 'frame')).toMatchObject({
      role: 'iframe',
      name: 'Embedded page',
      frame: true,
      actions: [],
    });
    expect(result.nodes.some((x) => x.attrs.id === 'dlg')).toBe(false);
    await page.evaluate(() => (document.getElementById('dlg') as HTMLDialogElement).showModal());
    const open = await walk(page);
    expect(byDomId(open.nodes, 'dlg')).toMatchObject({ role: 'dialog', states: ['modal'] });
    expect(byDomId(open.nodes, 'dlg-ok').states).toEqual(['focused']);
    await page.evaluate(() => (document.getElementById('dlg') as HTMLDialogElement).close());
  });

  it('gives boxes in viewport CSS px', () => {
    const heading = find(result.nodes, 'heading', 'Main title');
    expect(heading.box[2]).toBeGreaterThan(0);
    expect(heading.box[3]).toBeGreaterThan(0);
    expect(heading.inView).toBe(true);
    expect(result.viewport.width).toBe(800);
    expect(result.url).toBe(server.url('walker/content.html'));
    expect(result.title).toBe('Walker content');
  });

  it('walks a subtree by rootId and stops at maxNodes', async () => {
    const table = find(result.nodes, 'table', 'People');
    const sub = await walk(page, { rootId: table.id });
    expect(sub.nodes[0]).toMatchObject({ id: table.id, depth: 0, role: 'table' });
    expect(sub.nodes.every((x) => x.depth >= 0 && (x === sub.nodes[0] || x.depth > 0))).toBe(true);
    expect(sub.nodes.find((x) => x.role === 'heading')).toBeUndefined();
    const cut = await walk(page, { maxNodes: 5 });
    expect(cut.nodes).toHaveLength(5);
    expect(cut.truncated).toBe(true);
    expect(result.truncated).toBe(false);
  });
});

describe('against Chromium’s accessibility tree', () => {
  // Where our role or name differs from Chromium's, Chromium is right.
  for (const fixture of ['form', 'content', 'shadow', 'clickables', 'aria']) {
    it(`agrees on roles and names: ${fixture}`, async () => {
      const page = await open(`walker/${fixture}.html`);
      try {
        const ours = await walk(page);
        const snapshot = await page.accessibility.snapshot({ interestingOnly: false });
        const chromium = new Map<number, { role: string; name: string }>();
        const visit = async (ax: SerializedAXNode): Promise<void> => {
          const handle = await ax.elementHandle();
          if (handle) {
            // The handle lives in puppeteer's isolated world; page.evaluate adopts it into the main world.
            const id = await page.evaluate(
              (el) =>
                el && el.nodeType === 1 ? globalThis[Symbol.for('brow.page')]!.idOf(el as Element) : 0,
              handle,
            );
            // pre-order: an element's own AX node comes before its text children that resolve to it
            if (id && !chromium.has(id)) chromium.set(id, { role: ax.role, name: ax.name ?? '' });
            await handle.dispose();
          }
          for (const child of ax.children ?? []) await visit(child);
        };
        await visit(snapshot!);
        let compared = 0;
        for (const node of ours.nodes) {
          const ax = chromium.get(node.id);
          if (!ax || node.id === 0) continue;
          compared++;
          // Deliberate difference: a masked password is always '••••' (Chromium shows its length).
          const name = ax.name.replace(/•+/g, '••••');
          expect({ id: node.attrs.id, role: CHROMIUM_ROLE[ax.role] ?? ax.role, name }).toEqual({
            id: node.attrs.id,
            role: node.role,
            name: node.name,
          });
        }
        expect(compared).toBeGreaterThan(5);
        // describe() follows the same rules as walk()
        const elements = ours.nodes.filter((x) => x.id > 0);
        const described = await page.evaluate(
          (ids) => ids.map((id) => globalThis[Symbol.for('brow.page')]!.describe(id)),
          elements.map((x) => x.id),
        );
        expect(described.map((d) => d && [d.role, d.name, d.states, d.actions, d.value])).toEqual(
          elements.map((w) => [w.role, w.name, w.states, w.actions, w.value]),
        );
      } finally {
        await page.close();
      }
    });
  }
});

describe('ARIA widgets', () => {
  it('reports explicit roles with their states, values and actions', async () => {
    const page = await open('walker/aria.html');
    try {
      const { nodes } = await walk(page);
      const click = ['click', 'hover', 'scroll'];
      expect(find(nodes, 'tablist', 'Sections')).toBeTruthy();
      expect(byDomId(nodes, 'tab-a')).toMatchObject({
        role: 'tab',
        name: 'Overview',
        states: ['selected'],
        // tabindex=0: keys go to it (arrow keys move between tabs)
        actions: ['click', 'press', 'hover', 'scroll'],
      });
      expect(byDomId(nodes, 'tab-b').states).toEqual([]);
      expect(byDomId(nodes, 'panel')).toMatchObject({
        role: 'tabpanel',
        name: 'Overview',
        text: 'Panel text',
      });
      expect(byDomId(nodes, 'mi-copy')).toMatchObject({ role: 'menuitem', name: 'Copy', actions: click });
      expect(byDomId(nodes, 'mi-wrap')).toMatchObject({ role: 'menuitemcheckbox', states: ['checked'] });
      expect(byDomId(nodes, 'ti-src').states).toEqual(['expanded']);
      expect(byDomId(nodes, 'ti-docs').states).toEqual(['collapsed']);
      expect(byDomId(nodes, 'sw')).toMatchObject({ role: 'switch', name: 'Dark mode', states: [] });
      expect(byDomId(nodes, 'sw').actions).toEqual(['click', 'press', 'check', 'hover', 'scroll']);
      expect(byDomId(nodes, 'mixed').states).toEqual(['mixed']);
      expect(byDomId(nodes, 'toggle')).toMatchObject({ role: 'button', states: ['pressed'] });
      expect(byDomId(nodes, 'aria-slider')).toMatchObject({ role: 'slider', name: 'Level', value: 'seven' });
      expect(byDomId(nodes, 'aria-slider').actions).toEqual(['click', 'press', 'drag', 'hover', 'scroll']);
      expect(find(nodes, 'listbox', 'Colours').states).toEqual(['multiselectable']);
      expect(byDomId(nodes, 'opt-red')).toMatchObject({ role: 'option', states: ['selected'] });
      expect(byDomId(nodes, 'combo')).toMatchObject({
        role: 'combobox',
        name: 'City',
        value: 'Paris',
        states: ['collapsed'],
      });
      expect(byDomId(nodes, 'combo').actions).toEqual(['click', 'fill', 'type', 'press', 'scroll']);
      expect(byDomId(nodes, 'confirm')).toMatchObject({ role: 'alertdialog', states: ['modal'] });
      expect(find(nodes, 'link', 'Home page')).toBeTruthy();
      expect(byDomId(nodes, 'svg-btn').name).toBe('Close');
      expect(byDomId(nodes, 'aria-text')).toMatchObject({ role: 'textbox', name: 'Comment', value: 'Nice' });
      expect(byDomId(nodes, 'aria-text').actions).toEqual(['click', 'fill', 'type', 'press', 'scroll']);
      expect(nodes.some((x) => x.attrs.id === 'none-div')).toBe(false);
      expect(byDomId(nodes, 'bogus').role).toBe('button');
    } finally {
      await page.close();
    }
  });
});

describe('table cell boxes', () => {
  it('equal getBoundingClientRect for every cell, measured or inferred from its row and column', async () => {
    const page = await open('walker/tables.html');
    try {
      const { nodes } = await walk(page);
      const cells = nodes.filter((x) => x.tag === 'td' || x.tag === 'th');
      expect(cells.length).toBeGreaterThan(40);
      const real = await page.evaluate(
        (ids) =>
          ids.map((id) => {
            const r = globalThis[Symbol.for('brow.page')]!.element(id)!.getBoundingClientRect();
            return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
          }),
        cells.map((x) => x.id),
      );
      expect(cells.map((x) => [x.name || x.text, ...x.box])).toEqual(
        cells.map((x, i) => [x.name || x.text, ...real[i]!]),
      );
    } finally {
      await page.close();
    }
  });
});

describe('hidden content', () => {
  it('is absent: display:none, visibility:hidden, hidden, aria-hidden, template, script, style', async () => {
    const page = await open('walker/hidden.html');
    try {
      const { nodes } = await walk(page);
      const text = JSON.stringify(nodes);
      for (const s of [
        'Display none',
        'Inside display none',
        'Invisible button',
        'Invisible text',
        'Hidden attribute',
        'Aria hidden',
        'aria hidden text',
        'Template button',
        'script content',
        'color:red',
        'Walker hidden',
      ]) {
        expect(text).not.toContain(s);
      }
      expect(nodes.map((x) => [x.role, x.name || x.text])).toEqual([
        ['button', 'Visible button'],
        ['text', 'Visible again'],
        ['paragraph', 'Shown text'],
      ]);
    } finally {
      await page.close();
    }
  });
});

describe('shadow DOM', () => {
  it('walks open and closed roots through their slots', async () => {
    const page = await open('walker/shadow.html');
    try {
      const { nodes } = await walk(page);
      expect(nodes.map((x) => [x.role, x.name, x.depth])).toEqual([
        ['heading', 'Slotted title', 0],
        ['button', 'Open shadow button', 0],
        ['button', 'Light button', 0],
        ['textbox', 'Closed input', 0],
        ['navigation', '', 0],
        ['link', 'Slotted link', 1],
        ['paragraph', '', 0],
      ]);
      expect(nodes.at(-1)!.text).toBe('Fallback text');
      // a mutation inside a closed root counts
      const before = await page.evaluate(() => globalThis[Symbol.for('brow.page')]!.mutations().seq);
      await page.evaluate(() => {
        const host = document.getElementById('closed-host') as HTMLElement & { _root: ShadowRoot };
        host._root.querySelector('input')!.setAttribute('data-x', '1');
      });
      const after = await page.evaluate(() => globalThis[Symbol.for('brow.page')]!.mutations().seq);
      expect(after).toBeGreaterThan(before);
    } finally {
      await page.close();
    }
  });

  it('installed late, sees open roots but not closed ones attached before it', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(server.url('walker/shadow.html'));
      await page.evaluate(script);
      const { nodes } = await walk(page);
      expect(nodes.some((x) => x.name === 'Open shadow button')).toBe(true);
      expect(nodes.some((x) => x.name === 'Closed input')).toBe(false);
    } finally {
      await page.close();
    }
  });
});

describe('clickables', () => {
  it('emits role-less elements with click listeners or their own cursor:pointer as generic clickables', async () => {
    const page = await open('walker/clickables.html');
    try {
      const { nodes } = await walk(page);
      const click = ['click', 'hover', 'scroll'];
      expect(byDomId(nodes, 'listened')).toMatchObject({
        role: 'generic',
        clickable: true,
        actions: click,
        text: 'Listened div',
      });
      expect(byDomId(nodes, 'pointer')).toMatchObject({ role: 'generic', clickable: true, actions: click });
      expect(byDomId(nodes, 'onclick-attr')).toMatchObject({ clickable: true });
      expect(byDomId(nodes, 'tabbable')).toMatchObject({ clickable: true });
      expect(byDomId(nodes, 'card')).toMatchObject({ clickable: true, text: 'Inherited pointer child' });
      expect(byDomId(nodes, 'dragme').actions).toEqual(['click', 'drag', 'hover', 'scroll']);
      // inherited pointer, plain divs and a delegation root (many listener types) are not clickables
      for (const id of ['card-inner', 'plain', 'root', 'app-item']) {
        expect(nodes.find((x) => x.attrs.id === id)).toBeUndefined();
      }
    } finally {
      await page.close();
    }
  });
});

describe('ids', () => {
  it('are stable across walks and unrelated changes, never reused, and go stale when detached', async () => {
    const page = await open('walker/content.html');
    try {
      const first = await walk(page);
      const second = await walk(page);
      expect(second.nodes.map((x) => x.id)).toEqual(first.nodes.map((x) => x.id));
      expect(second.docKey).toBe(first.docKey);
      const maxId = Math.max(...first.nodes.map((x) => x.id));

      await page.evaluate(() => {
        const b = document.createElement('button');
        b.textContent = 'New button';
        document.querySelector('main')!.prepend(b);
        document.getElementById('plain')!.remove();
      });
      const third = await walk(page);
      const newButton = find(third.nodes, 'button', 'New button');
      expect(newButton.id).toBeGreaterThan(maxId);
      for (const id of ['home', 'docs', 'para', 'fruits', 'people']) {
        expect(byDomId(third.nodes, id).id).toBe(byDomId(first.nodes, id).id);
      }

      const plainId = byDomId(first.nodes, 'plain').id;
      const homeId = byDomId(first.nodes, 'home').id;
      const state = await page.evaluate(
        (gone, alive) => {
          const api = globalThis[Symbol.for('brow.page')]!;
          return {
            gone: api.staleReason(gone),
            goneEl: api.element(gone),
            alive: api.staleReason(alive),
            aliveTag: api.element(alive)?.tagName,
            unknown: api.staleReason(987654),
            idOfHome: api.idOf(document.getElementById('home')!),
          };
        },
        plainId,
        homeId,
      );
      expect(state).toEqual({
        gone: 'detached',
        goneEl: null,
        alive: null,
        aliveTag: 'A',
        unknown: 'unknown',
        idOfHome: homeId,
      });

      await page.reload();
      const reloaded = await walk(page);
      expect(reloaded.docKey).not.toBe(first.docKey);
    } finally {
      await page.close();
    }
  });
});

describe('hitTarget', () => {
  it('names the cover of a button under a transparent overlay', async () => {
    const page = await open('walker/overlay.html');
    try {
      const { nodes } = await walk(page);
      const covered = byDomId(nodes, 'target');
      const free = byDomId(nodes, 'free');
      const cb = byDomId(nodes, 'cb');
      const hit = (id: number, x: number, y: number) =>
        page.evaluate((i, a, b) => globalThis[Symbol.for('brow.page')]!.hitTarget(i, a, b), id, x, y);
      const center = (n: WalkNode): [number, number] => [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2];

      const blocked = await hit(covered.id, ...center(covered));
      expect(blocked).toMatchObject({ ok: false, cover: { role: 'generic', tag: 'div', name: '' } });
      expect(blocked.ok || blocked.cover!.id).toBeGreaterThan(0);
      expect(await hit(free.id, ...center(free))).toEqual({ ok: true });
      const label = await page.$eval('#cb-label', (el) => {
        const r = el.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2] as [number, number];
      });
      expect(await hit(cb.id, ...label)).toEqual({ ok: true });
      expect(await hit(987654, 1, 1)).toEqual({ ok: false });
    } finally {
      await page.close();
    }
  });
});

describe('mutations', () => {
  it('counts DOM changes and typing', async () => {
    const page = await open('walker/form.html');
    try {
      const seq = () => page.evaluate(() => globalThis[Symbol.for('brow.page')]!.mutations());
      const a = await seq();
      await page.evaluate(() => document.body.append(document.createElement('p')));
      const b = await seq();
      expect(b.seq).toBeGreaterThan(a.seq);
      expect(b.lastAt).toBeGreaterThan(0);
      await page.type('#last', 'Lovelace');
      const c = await seq();
      expect(c.seq).toBeGreaterThan(b.seq);
      const w = await walk(page);
      expect(w.mutationSeq).toBe(c.seq);
      expect(byDomId(w.nodes, 'last').value).toBe('Lovelace');
    } finally {
      await page.close();
    }
  });
});

describe('installation', () => {
  it('is idempotent, hidden and keeps patched builtins looking native', async () => {
    const page = await open('walker/shadow.html');
    try {
      const report = await page.evaluate((text) => {
        const key = Symbol.for('brow.page');
        const api = globalThis[key]!;
        const attach = Element.prototype.attachShadow;
        const add = EventTarget.prototype.addEventListener;
        const toStr = Function.prototype.toString;
        (0, eval)(text);
        const desc = Object.getOwnPropertyDescriptor(globalThis, key)!;
        return {
          same:
            globalThis[key] === api &&
            Element.prototype.attachShadow === attach &&
            EventTarget.prototype.addEventListener === add,
          sameToString: Function.prototype.toString === toStr,
          attachShadow: Function.prototype.toString.call(Element.prototype.attachShadow),
          addEventListener: Function.prototype.toString.call(EventTarget.prototype.addEventListener),
          toString: Function.prototype.toString.call(Function.prototype.toString),
          viaMethod: `${Element.prototype.attachShadow}`,
          names: [Element.prototype.attachShadow.name, Element.prototype.attachShadow.length],
          enumerable: desc.enumerable,
          writable: desc.writable,
          keys: Object.keys(window).filter((k) => /brow/i.test(k)),
          symbols: Object.getOwnPropertySymbols(window).length,
          version: api.version,
        };
      }, script);
      expect(report).toEqual({
        same: true,
        sameToString: true,
        attachShadow: 'function attachShadow() { [native code] }',
        addEventListener: 'function addEventListener() { [native code] }',
        toString: 'function toString() { [native code] }',
        viaMethod: 'function attachShadow() { [native code] }',
        names: ['attachShadow', 1],
        enumerable: false,
        writable: false,
        keys: [],
        symbols: 1,
        version: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
    } finally {
      await page.close();
    }
  });

  it('survives throwing getters, very deep nesting, MathML and tampered builtins', async () => {
    const page = await open('walker/odd.html');
    try {
      // The page broke Function.prototype.call/apply/bind, so no puppeteer helpers: plain CDP.
      const cdp = await page.createCDPSession();
      const run = async <T>(expression: string): Promise<T> => {
        const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
        if (r.exceptionDetails)
          throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
        return r.result.value as T;
      };
      const { nodes } = await run<WalkResult>(`globalThis[Symbol.for('brow.page')].walk()`);
      expect(find(nodes, 'button', 'Before').id).toBeGreaterThan(0);
      expect(find(nodes, 'button', 'After').id).toBeGreaterThan(0);
      expect(nodes.find((x) => x.opaque === 'error: trap')).toBeTruthy();
      expect(find(nodes, 'link', 'Bottom').depth).toBe(0);
      // Past the stack's depth the subtree becomes an opaque error line (where exactly depends on the JIT).
      const abyss = nodes.some((x) => x.name === 'Abyss');
      expect(abyss || nodes.some((x) => x.opaque?.startsWith('error') && x.opaque !== 'error: trap')).toBe(
        true,
      );
      expect(byDomId(nodes, 'formula')).toMatchObject({ role: 'math', text: 'x=2' });
      expect(byDomId(nodes, 'icon')).toMatchObject({ role: 'image', name: 'Star' });
      const after = find(nodes, 'button', 'After');
      const check = await run<[number, boolean, string]>(`(() => {
        const api = globalThis[Symbol.for('brow.page')];
        const el = document.getElementById('after');
        return [api.idOf(el), api.element(api.idOf(el)) === el, api.describe(api.idOf(el)).name];
      })()`);
      expect(check).toEqual([after.id, true, 'After']);
    } finally {
      await page.close();
    }
  });

  it('does not throw on documents without a body: XML and SVG', async () => {
    server.route('/walker-doc.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><root><item name="a">Alpha</item><item>Beta</item></root>');
    });
    server.route('/walker-doc.svg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><title>Logo</title><text x="10" y="20">Hi</text></svg>',
      );
    });
    const page = await browser.newPage();
    try {
      await page.evaluateOnNewDocument(script);
      for (const path of ['/walker-doc.xml', '/walker-doc.svg']) {
        await page.goto(server.origin + path);
        const r = await walk(page);
        expect(r.truncated).toBe(false);
        expect(Array.isArray(r.nodes)).toBe(true);
      }
    } finally {
      await page.close();
    }
  });
});

describe('timing (printed, not asserted)', () => {
  it('walks a 45,000-node table', async () => {
    let rows = '';
    for (let i = 0; i < 3000; i++) {
      rows +=
        `<tr><td>${i}</td><td>Name ${i}</td><td><a href="/u/${i}">profile ${i}</a></td><td>${i * 7} units</td>` +
        `<td><button>Edit</button> <input type="checkbox" aria-label="Select ${i}"></td></tr>\n`;
    }
    const html =
      '<!doctype html><title>Big table</title><table><thead><tr><th>#</th><th>Name</th><th>Link</th><th>Qty</th>' +
      `<th>Act</th></tr></thead><tbody>${rows}</tbody></table>`;
    server.route('/walker-big-table', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    const page = await browser.newPage();
    try {
      await page.evaluateOnNewDocument(script);
      await page.goto(`${server.origin}/walker-big-table`);
      const domNodes = await page.evaluate(() => {
        let n = 0;
        const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
        while (w.nextNode()) n++;
        return n;
      });
      const times: number[] = [];
      let emitted = 0;
      for (let i = 0; i < 9; i++) {
        const [ms, count] = await page.evaluate(() => {
          const t = performance.now();
          const r = globalThis[Symbol.for('brow.page')]!.walk();
          return [performance.now() - t, r.nodes.length] as [number, number];
        });
        times.push(ms);
        emitted = count;
      }
      const warm = times.slice(1).sort((x, y) => x - y);
      const median = warm[warm.length >> 1]!;
      console.log(
        `walk() of ${domNodes} DOM nodes → ${emitted} outline nodes: first ${times[0]!.toFixed(1)} ms, ` +
          `warm median ${median.toFixed(1)} ms (min ${warm[0]!.toFixed(1)}, max ${warm.at(-1)!.toFixed(1)})`,
      );
      expect(emitted).toBeGreaterThan(20_000);
    } finally {
      await page.close();
    }
  });
});
