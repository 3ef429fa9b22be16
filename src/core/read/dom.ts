/** browser_read_dom: the DOM tag tree of the page (or a ref) to a depth, with refs, at most 500 nodes. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { BrowPageApi } from '../snapshot/injected/types.js';
import { withApi } from '../snapshot/page-script.js';
import { sendRacingDialog } from '../scripts/evaluate.js';
import { readTarget, refsFor } from './target.js';

export const MAX_DOM_NODES = 500;

export interface DomNode {
  ref: string;
  tag: string;
  id?: string;
  classes?: string[];
  text?: string;
  child_count: number;
  children: DomNode[];
  /** Inside an open shadow root of its parent. */
  shadow?: true;
  /** Not rendered (display:none, hidden…). */
  hidden?: true;
}

interface RawNode {
  n: number;
  tag: string;
  id?: string;
  classes?: string[];
  text?: string;
  child_count: number;
  children: RawNode[];
  shadow?: true;
  hidden?: true;
  role: string;
  name: string;
}

type InPage = { missing: true } | { docKey: string; root: RawNode; truncated: boolean; count: number };

/** Runs in the page through withApi (self-contained). */
function domTreeInPage(api: BrowPageApi, rootId: number | null, depth: number, maxNodes: number): InPage {
  const start = rootId === null ? (document.body ?? document.documentElement) : api.element(rootId);
  if (!start) return { missing: true };
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base']);
  let count = 0;
  let truncated = false;
  const kids = (el: Element): { el: Element; shadow: boolean }[] => {
    const sr = (el as HTMLElement).shadowRoot;
    const own = Array.from(el.children).map((c) => ({ el: c, shadow: false }));
    const inner = sr ? Array.from(sr.children).map((c) => ({ el: c, shadow: true })) : [];
    return [...inner, ...own].filter((k) => !SKIP.has(k.el.localName));
  };
  const make = (el: Element, level: number, shadow: boolean): RawNode => {
    count++;
    const n = api.idOf(el);
    const d = api.describe(n);
    let text = '';
    for (const c of Array.from(el.childNodes)) if (c.nodeType === 3) text += c.nodeValue ?? '';
    text = text.replace(/\s+/g, ' ').trim();
    const list = kids(el);
    const node: RawNode = {
      n,
      tag: el.localName,
      child_count: list.length,
      children: [],
      role: d?.role ?? 'generic',
      name: d?.name ?? '',
    };
    if (el.id) node.id = el.id;
    if (el.classList.length > 0) node.classes = Array.from(el.classList).slice(0, 12);
    if (text) node.text = text.length > 100 ? `${text.slice(0, 100)}…` : text;
    if (shadow) node.shadow = true;
    if (!el.checkVisibility() && getComputedStyle(el).display !== 'contents') node.hidden = true;
    return node;
  };
  // breadth first, so a cut at maxNodes keeps the upper levels whole
  const root = make(start, 0, false);
  const queue: { node: RawNode; el: Element; level: number }[] = [{ node: root, el: start, level: 0 }];
  while (queue.length > 0) {
    const { node, el, level } = queue.shift()!;
    if (level >= depth) continue;
    for (const k of kids(el)) {
      if (count >= maxNodes) {
        truncated = true;
        break;
      }
      const child = make(k.el, level + 1, k.shadow);
      node.children.push(child);
      queue.push({ node: child, el: k.el, level: level + 1 });
    }
  }
  return { docKey: api.docKey, root, truncated, count };
}

function collect(n: RawNode, out: RawNode[]): RawNode[] {
  out.push(n);
  for (const c of n.children) collect(c, out);
  return out;
}

function finish(n: RawNode, refs: Map<number, string>): DomNode {
  return {
    ref: refs.get(n.n) ?? '',
    tag: n.tag,
    ...(n.id ? { id: n.id } : {}),
    ...(n.classes ? { classes: n.classes } : {}),
    ...(n.text ? { text: n.text } : {}),
    child_count: n.child_count,
    children: n.children.map((c) => finish(c, refs)),
    ...(n.shadow ? { shadow: true as const } : {}),
    ...(n.hidden ? { hidden: true as const } : {}),
  };
}

function render(n: DomNode, depth: number, lines: string[]): void {
  const sel = `${n.tag}${n.id ? `#${n.id}` : ''}${(n.classes ?? []).map((c) => `.${c}`).join('')}`;
  const more =
    n.child_count > n.children.length
      ? ` (${n.child_count} children${n.children.length ? `, ${n.children.length} shown` : ''})`
      : '';
  const flags = `${n.shadow ? ' shadow' : ''}${n.hidden ? ' hidden' : ''}`;
  lines.push(`${'  '.repeat(depth)}${sel} [ref=${n.ref}${flags}]${n.text ? ` "${n.text}"` : ''}${more}`);
  for (const c of n.children) render(c, depth + 1, lines);
}

/** The tag tree below the page body (or a ref) to `depth` levels. */
export async function readDom(
  page: BrowPage,
  input: { ref?: string | undefined; depth: number },
): Promise<{
  text: string;
  data: { page_id: string; root: DomNode; truncated: boolean; node_count: number };
}> {
  const target = await sendRacingDialog(page, readTarget(page, input.ref));
  const res = await sendRacingDialog(
    page,
    withApi(target.frame, domTreeInPage, target.rootId, input.depth, MAX_DOM_NODES),
  );
  if ('missing' in res) {
    throw new BrowserError('stale_ref', `${input.ref ?? 'The document'} is no longer in the page.`, {
      details: { ref: input.ref, reason: 'detached' },
    });
  }
  const all = collect(res.root, []);
  const refs = refsFor(
    page,
    target.frame,
    res.docKey,
    all.map((n) => ({ id: n.n, role: n.role, name: n.name })),
  );
  const root = finish(res.root, refs);
  const lines: string[] = [];
  render(root, 0, lines);
  const footer = res.truncated
    ? [`[truncated at ${MAX_DOM_NODES} nodes: read a subtree with a ref from above]`]
    : [];
  return {
    text: [
      `DOM of ${input.ref ?? 'the page'} on ${page.id}, depth ${input.depth}:`,
      '<page-content>',
      ...lines,
      '</page-content>',
      ...footer,
    ].join('\n'),
    data: { page_id: page.id, root, truncated: res.truncated, node_count: res.count },
  };
}
