/** browser_read_html: the page's (or a ref's) HTML without scripts, styles and class attributes. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { BrowPageApi } from '../snapshot/injected/types.js';
import { withApi } from '../snapshot/page-script.js';
import { sendRacingDialog } from '../scripts/evaluate.js';
import { readTarget, refsFor } from './target.js';

export type HtmlDetail = 'outline' | 'full';

export interface ReadHtmlData {
  page_id: string;
  ref: string | null;
  detail: HtmlDetail;
  html: string;
  truncated: boolean;
  /** Elements shown (outline) with their refs. */
  element_count: number;
}

interface OutlineItem {
  depth: number;
  id: number;
  head: string;
  text: string;
  hidden: boolean;
  role: string;
  name: string;
}

type InPage = { missing: true } | { docKey: string; truncated: boolean; html: string; items: OutlineItem[] };

/** Runs in the page through withApi (self-contained). */
function cleanHtmlInPage(
  api: BrowPageApi,
  rootId: number | null,
  detail: 'outline' | 'full',
  maxChars: number,
): InPage {
  const root = rootId === null ? document.documentElement : api.element(rootId);
  if (!root) return { missing: true };
  const DROP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base']);
  const TEST_ATTR = /^data-(testid|test|qa|cy|test-id)$/;
  const PRE = new Set(['pre', 'textarea', 'code']);
  let size = 0;
  let truncated = false;
  const out: string[] = [];
  const items: OutlineItem[] = [];
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const q = (s: string) => esc(s).replace(/"/g, '&quot;');
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
  const keepAttr = (name: string, outline: boolean) =>
    name !== 'class' &&
    name !== 'style' &&
    !name.startsWith('on') &&
    (!name.startsWith('data-') || TEST_ATTR.test(name) || !outline);
  const attrs = (el: Element, outline: boolean) => {
    let s = '';
    for (const a of Array.from(el.attributes)) {
      if (!keepAttr(a.name, outline)) continue;
      let v = a.value;
      if (a.name === 'value' && el instanceof HTMLInputElement && el.type === 'password') v = v ? '••••' : '';
      if (/^data:/i.test(v)) v = `${v.slice(0, 40)}…`;
      s += v === '' ? ` ${a.name}` : ` ${a.name}="${q(cut(v, outline ? 80 : 500))}"`;
    }
    return s;
  };
  const ownText = (el: Element) => {
    let t = '';
    for (const n of Array.from(el.childNodes)) if (n.nodeType === 3) t += n.nodeValue ?? '';
    return t.replace(/\s+/g, ' ').trim();
  };
  const kids = (el: Element): Element[] => {
    const sr = (el as HTMLElement).shadowRoot;
    return Array.from((sr ?? el).children);
  };

  const outline = (el: Element, depth: number) => {
    if (truncated || DROP.has(el.localName)) return;
    const id = api.idOf(el);
    const d = api.describe(id);
    const head = `<${el.localName}${attrs(el, true)}>`;
    const text = cut(ownText(el), 80);
    size += depth * 2 + head.length + text.length + 12;
    if (size > maxChars) {
      truncated = true;
      return;
    }
    const hidden =
      el.closest('head') === null && !el.checkVisibility() && getComputedStyle(el).display !== 'contents';
    items.push({ depth, id, head, text, hidden, role: d?.role ?? 'generic', name: d?.name ?? '' });
    if (el.localName === 'svg') return;
    for (const k of kids(el)) outline(k, depth + 1);
  };

  const full = (node: Node, pre: boolean) => {
    if (truncated) return;
    if (size > maxChars) {
      truncated = true;
      return;
    }
    if (node.nodeType === 3) {
      const t = node.nodeValue ?? '';
      const s = esc(pre ? t : t.replace(/\s+/g, ' '));
      size += s.length;
      out.push(s);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.localName;
    if (DROP.has(tag)) return;
    const open = `<${tag}${attrs(el, false)}>`;
    size += open.length * 2;
    out.push(open);
    if (tag === 'svg') {
      out.push('…</svg>');
      return;
    }
    if (/^(area|br|col|embed|hr|img|input|source|track|wbr)$/.test(tag)) return;
    const sr = (el as HTMLElement).shadowRoot;
    if (sr) {
      out.push('<template shadowrootmode="open">');
      for (const c of Array.from(sr.childNodes)) full(c, pre);
      out.push('</template>');
    }
    for (const c of Array.from(el.childNodes)) full(c, pre || PRE.has(tag));
    out.push(`</${tag}>`);
  };

  if (detail === 'outline') outline(root, 0);
  else full(root, false);
  return { docKey: api.docKey, truncated, html: out.join(''), items };
}

/** Read cleaned HTML of the page or of one ref's subtree (an iframe's ref reads its document). */
export async function readHtml(
  page: BrowPage,
  input: { ref?: string | undefined; detail: HtmlDetail; max_chars: number },
): Promise<{ text: string; data: ReadHtmlData }> {
  // a dialog that opens meanwhile freezes the page: answer dialog_blocking instead of waiting on it
  const target = await sendRacingDialog(page, readTarget(page, input.ref));
  const res = await sendRacingDialog(
    page,
    withApi(target.frame, cleanHtmlInPage, target.rootId, input.detail, input.max_chars),
  );
  if ('missing' in res) {
    throw new BrowserError('stale_ref', `${input.ref ?? 'The document'} is no longer in the page.`, {
      details: { ref: input.ref, reason: 'detached' },
    });
  }
  let html = res.html;
  if (html.length > input.max_chars) html = html.slice(0, html.lastIndexOf('>', input.max_chars) + 1);
  if (input.detail === 'outline') {
    const refs = refsFor(page, target.frame, res.docKey, res.items);
    html = res.items
      .map((it) => {
        const head = it.head.replace(/^<([\w-]+)/, (_m, tag: string) => `<${tag} ref=${refs.get(it.id)}`);
        return `${'  '.repeat(it.depth)}${head}${it.text}${it.hidden ? ' (hidden)' : ''}`;
      })
      .join('\n');
  }
  const where = input.ref ? `ref ${input.ref}` : 'the page';
  const footer = res.truncated
    ? [
        `[truncated at max_chars=${input.max_chars}: read a smaller part with a ref from above, or raise max_chars]`,
      ]
    : [];
  const text = [
    `HTML (${input.detail}) of ${where} on ${page.id}${input.detail === 'outline' ? '; refs work with every ref tool' : ''}:`,
    '<page-content>',
    html,
    '</page-content>',
    ...footer,
  ].join('\n');
  return {
    text,
    data: {
      page_id: page.id,
      ref: input.ref ?? null,
      detail: input.detail,
      html,
      truncated: res.truncated,
      element_count: input.detail === 'outline' ? res.items.length : 0,
    },
  };
}
