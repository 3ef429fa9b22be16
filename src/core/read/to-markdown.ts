/** HTML → readable Markdown: Readability picks the content (or a main-content fallback), turndown writes it. */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

export interface Readable {
  markdown: string;
  title: string;
  byline?: string;
  excerpt?: string;
  /** What the text came from: "readability" or the fallback selector that matched. */
  source: string;
}

/** Where the content is when Readability finds no article: first match wins. */
const FALLBACKS = ['main article', 'article', 'main', '[role=main]', 'body'];

let service: TurndownService | null = null;

/** linkedom has no `table.rows`, which the gfm table rules read: give its tables one. */
function patchTableRows(): void {
  const proto = (parseHTML('<table></table>').document.querySelector('table') as object | null)?.constructor
    .prototype as object | undefined;
  if (!proto || 'rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    get(this: Element) {
      return rowsOf(this);
    },
  });
}

function turndown(): TurndownService {
  if (service) return service;
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  patchTableRows();
  td.use(gfm);
  // later rules win: a cell stays on one line and a pipe in it does not split the row
  td.addRule('tableCellOneLine', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      const first = (node as Element).parentNode?.firstChild === node;
      return `${first ? '| ' : ' '}${cell} |`;
    },
  });
  td.addRule('listItemTight', {
    filter: 'li',
    replacement: (content, node) => {
      const li = node as Element;
      const list = li.parentNode as Element | null;
      let prefix = '- ';
      if (list?.nodeName === 'OL') {
        const start = Number(list.getAttribute('start') ?? 1);
        prefix = `${start + Array.from(list.children).indexOf(li)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (li.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  td.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'form',
    'button',
    'select',
    'input',
    'textarea',
  ]);
  service = td;
  return td;
}

const BLOCKS = new Set([
  'P',
  'DIV',
  'UL',
  'OL',
  'H1',
  'H2',
  'H3',
  'H4',
  'SECTION',
  'ARTICLE',
  'BLOCKQUOTE',
  'PRE',
]);

const cellsOf = (tr: Element): Element[] =>
  Array.from(tr.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
const rowsOf = (table: Element): Element[] =>
  Array.from(table.querySelectorAll('tr')).filter((tr) => tr.closest('table') === table);

/**
 * GFM tables need a header row. A data table without one gets an empty header; a layout table
 * (one column, nested tables, or block content in cells) is unwrapped into its cells' content.
 */
function prepareTables(root: Element): void {
  const doc = root.ownerDocument;
  for (const table of Array.from(root.querySelectorAll('table')).reverse()) {
    const rows = rowsOf(table);
    const first = rows[0];
    if (!first) {
      table.remove();
      continue;
    }
    const width = Math.max(...rows.map((r) => cellsOf(r).length));
    const blocky = rows
      .slice(0, 20)
      .flatMap(cellsOf)
      .some((c) => Array.from(c.children).some((k) => BLOCKS.has(k.tagName)));
    const layout = width < 2 || blocky || table.querySelector('table') !== null;
    if (layout) {
      const box = doc.createElement('div');
      for (const cell of rows.flatMap(cellsOf)) {
        const part = doc.createElement('div');
        while (cell.firstChild) part.appendChild(cell.firstChild);
        box.appendChild(part);
      }
      table.replaceWith(box);
      continue;
    }
    const inThead = first.parentElement?.tagName === 'THEAD';
    const allTh = cellsOf(first).every((c) => c.tagName === 'TH');
    if (inThead || allTh) {
      // make the heading row the first row of the table's first section (what the gfm plugin checks)
      if (!inThead) {
        const thead = doc.createElement('thead');
        thead.appendChild(first);
        table.insertBefore(thead, table.firstChild);
      }
      for (const extra of Array.from(table.querySelectorAll('thead')).slice(1)) extra.remove();
      continue;
    }
    const thead = doc.createElement('thead');
    const tr = doc.createElement('tr');
    for (let i = 0; i < width; i++) tr.appendChild(doc.createElement('th'));
    thead.appendChild(tr);
    table.insertBefore(thead, table.firstChild);
  }
}

function toMarkdown(root: Element): string {
  prepareTables(root);
  const md = turndown().turndown(root as unknown as HTMLElement);
  return md
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const textLength = (el: Element | null): number => (el?.textContent ?? '').replace(/\s+/g, ' ').trim().length;

/**
 * Above this many elements Readability is skipped: it costs about as much as everything else
 * together there, and such pages (data tables, feeds, apps) are rarely articles.
 */
export const READABILITY_MAX_ELEMENTS = 15_000;

const fallback = (document: Document): { el: Element; selector: string } | null => {
  for (const selector of FALLBACKS) {
    const el = document.querySelector(selector);
    if (el) return { el, selector };
  }
  return null;
};

/** Readable Markdown of an HTML document (as serialised by readableHtmlInPage). */
export function htmlToReadable(html: string, pageTitle: string): Readable {
  const { document } = parseHTML(html) as unknown as { document: Document };
  const container = fallback(document);
  const meta: { byline?: string; excerpt?: string } = {};
  let title = pageTitle.trim();
  if (document.getElementsByTagName('*').length <= READABILITY_MAX_ELEMENTS) {
    const available = textLength(container?.el ?? null);
    // Readability drops a first heading that repeats the title; the page's own h1 is the better title line
    const h1 = (container?.el.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();
    let article: ReturnType<Readability<Element>['parse']> = null;
    try {
      article = new Readability<Element>(document, {
        keepClasses: true,
        serializer: (el) => el as Element,
      }).parse();
    } catch {
      article = null;
    }
    title = (article?.title || pageTitle || '').trim();
    if (article?.byline) meta.byline = article.byline.trim();
    if (article?.excerpt) meta.excerpt = article.excerpt.trim();
    // Readability drops what it takes for chrome; on pages that are not articles that can be most of
    // the content, so it is used only when it keeps a fair share of the text
    const kept = article?.content ? textLength(article.content) : 0;
    if (article?.content && kept > 0 && (kept >= available * 0.25 || available - kept < 500)) {
      let markdown = toMarkdown(article.content);
      const heading = h1 || title;
      if (heading && !/^# /m.test(markdown)) markdown = `# ${heading}\n\n${markdown}`;
      return { markdown, title, ...meta, source: 'readability' };
    }
    // Readability changed the document: start again from the HTML
    const fresh = fallback(parseHTML(html).document as unknown as Document);
    return { markdown: fresh ? toMarkdown(fresh.el) : '', title, ...meta, source: fresh?.selector ?? 'none' };
  }
  return {
    markdown: container ? toMarkdown(container.el) : '',
    title,
    ...meta,
    source: container?.selector ?? 'none',
  };
}
