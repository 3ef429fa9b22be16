/** HTML → readable Markdown: Readability picks the content (or a main-content fallback), turndown writes it. */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { highlightedCodeBlock, strikethrough, taskListItems } from 'turndown-plugin-gfm';
import { extractTables, restoreTables } from './tables.js';

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

function turndown(): TurndownService {
  if (service) return service;
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  td.use([highlightedCodeBlock, strikethrough, taskListItems]);
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

function toMarkdown(root: Element): string {
  const tables = extractTables(root);
  const md = restoreTables(turndown().turndown(root as unknown as HTMLElement), tables);
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

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Give the Markdown its "# heading" line. Readability turns a kept h1 into an h2: when the first
 * heading is that h1, it is promoted in place instead of being written twice.
 */
function withTitleLine(markdown: string, heading: string): string {
  const first = /^(#{2,6}) (.*)$/m.exec(markdown);
  if (first && squash(first[2] ?? '') === squash(heading)) {
    return `${markdown.slice(0, first.index)}# ${first[2]}${markdown.slice(first.index + first[0].length)}`;
  }
  return `# ${heading}\n\n${markdown}`;
}

/** Readable Markdown of an HTML document (as serialised by readableHtmlInPage). */
export function htmlToReadable(html: string, pageTitle: string, elementCount?: number): Readable {
  const { document } = parseHTML(html) as unknown as { document: Document };
  const container = fallback(document);
  const meta: { byline?: string; excerpt?: string } = {};
  let title = pageTitle.trim();
  const elements = elementCount ?? document.querySelectorAll('*').length;
  if (elements <= READABILITY_MAX_ELEMENTS) {
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
      if (heading && !/^# /m.test(markdown)) markdown = withTitleLine(markdown, heading);
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
