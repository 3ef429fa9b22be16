/** browser_read_page: the page as readable Markdown, what is on screen or all of it, within a budget. */
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import type { BrowPage } from '../session/page.js';
import { slot } from '../state-bag.js';
import { sendRacingDialog } from '../scripts/evaluate.js';
import { readableHtmlInPage } from './page-html.js';
import { frameOwners } from '../snapshot/frames.js';
import { evaluateIn } from '../snapshot/page-script.js';
import { htmlToReadable, type Readable } from './to-markdown.js';

export type ReadScope = 'viewport' | 'full';

export interface ReadPageInput {
  scope: ReadScope;
  max_chars: number;
  cursor?: string | undefined;
}

export interface ReadPageData {
  page_id: string;
  scope: ReadScope;
  url: string;
  title: string;
  byline?: string;
  excerpt?: string;
  markdown: string;
  /** Readability, or the fallback selector the text came from. */
  source: string;
  /** Where this part starts in the whole Markdown, and its whole length. */
  offset: number;
  total_chars: number;
  truncated: boolean;
  cursor?: string;
}

interface StoredRead extends Readable {
  id: string;
  scope: ReadScope;
  url: string;
}

/** The page's latest reading, for cursors (owned by the page: see state-bag.ts). */
const lastReadSlot = slot<{ read: StoredRead | null }>('read.last-read', () => ({ read: null }));

/** The most HTML read from a page before conversion (a 45k-node page is about 2 MB). */
const MAX_HTML_CHARS = 8_000_000;

/** Where to cut a long text: a paragraph break, else a line break, else the budget. */
function cutAt(text: string, from: number, budget: number): number {
  const end = from + budget;
  if (end >= text.length) return text.length;
  const floor = from + Math.floor(budget * 0.6);
  const para = text.lastIndexOf('\n\n', end);
  if (para > floor) return para + 2;
  const line = text.lastIndexOf('\n', end);
  if (line > floor) return line + 1;
  return end;
}

async function readFresh(page: BrowPage, scope: ReadScope): Promise<StoredRead> {
  const main = page.raw.mainFrame();
  const opts = { viewport: scope === 'viewport', maxChars: MAX_HTML_CHARS };
  const snap = await sendRacingDialog(page, main.evaluate(readableHtmlInPage, opts));
  let html = snap.html;
  let elements = snap.elements;
  if (snap.frames.length > 0) {
    // cross-origin iframes (one level): each serialises itself, whole, into its marker
    const owners = await sendRacingDialog(page, frameOwners(main));
    for (const id of snap.frames) {
      const frame = owners.get(id);
      const inner = frame
        ? await sendRacingDialog(
            page,
            evaluateIn(
              frame,
              `(${readableHtmlInPage.toString()})(${JSON.stringify({ viewport: false, maxChars: MAX_HTML_CHARS })})`,
            ) as Promise<ReturnType<typeof readableHtmlInPage>>,
          ).catch(() => null)
        : null;
      const body = inner ? (/<body[^>]*>([\s\S]*)<\/body>/.exec(inner.html)?.[1] ?? '') : '';
      elements += inner?.elements ?? 0;
      html = html.replace(`BROWFRAME${id}X`, () => body);
    }
  }
  const readable = htmlToReadable(html, snap.title, elements);
  return { ...readable, id: newId('read'), scope, url: snap.url };
}

/** Read the page (or continue a cursor) and return the part that fits in max_chars. */
export async function readPage(
  page: BrowPage,
  input: ReadPageInput,
): Promise<{ text: string; data: ReadPageData }> {
  let read: StoredRead;
  let offset = 0;
  if (input.cursor) {
    const [id, at] = input.cursor.split('@');
    const stored = page.state.peek(lastReadSlot)?.read;
    offset = Number(at);
    if (
      !stored ||
      stored.id !== id ||
      !Number.isInteger(offset) ||
      offset <= 0 ||
      offset >= stored.markdown.length
    ) {
      throw new BrowserError(
        'invalid_request',
        `Cursor "${input.cursor}" does not continue the latest reading of this page.`,
        {
          hint: 'Call browser_read_page without a cursor, then follow the cursor it returns.',
        },
      );
    }
    read = stored;
  } else {
    read = await readFresh(page, input.scope);
    page.state.get(lastReadSlot).read = read;
  }
  const header = [
    `Page: ${read.title || read.url}`,
    `Page ID: ${page.id}`,
    `URL: ${read.url}`,
    `Scope: ${read.scope === 'viewport' ? 'viewport (what is on screen; scope "full" reads the whole page)' : 'full'}`,
    ...(read.byline ? [`Byline: ${read.byline}`] : []),
  ];
  const budget = Math.max(200, input.max_chars - header.join('\n').length - 160);
  const end = cutAt(read.markdown, offset, budget);
  const part = read.markdown.slice(offset, end);
  const truncated = end < read.markdown.length;
  const cursor = truncated ? `${read.id}@${end}` : undefined;
  const footer: string[] = [];
  if (read.markdown.length === 0) {
    footer.push(
      read.scope === 'viewport'
        ? 'The page has no readable text on screen. Try scope "full", browser_list_elements, or browser_screenshot.'
        : 'The page has no readable text. It may draw with canvas or images, or still be loading: try browser_list_elements or browser_screenshot.',
    );
  } else if (truncated) {
    footer.push(
      `[truncated: characters ${offset}–${end} of ${read.markdown.length}; continue with cursor "${cursor}"]`,
    );
  } else if (offset > 0) {
    footer.push(`[end: characters ${offset}–${end} of ${read.markdown.length}]`);
  }
  const body = read.markdown.length === 0 ? [] : ['<page-content>', part, '</page-content>'];
  return {
    text: [...header, ...body, ...footer].join('\n'),
    data: {
      page_id: page.id,
      scope: read.scope,
      url: read.url,
      title: read.title,
      ...(read.byline ? { byline: read.byline } : {}),
      ...(read.excerpt ? { excerpt: read.excerpt } : {}),
      markdown: part,
      source: read.source,
      offset,
      total_chars: read.markdown.length,
      truncated,
      ...(cursor ? { cursor } : {}),
    },
  };
}
