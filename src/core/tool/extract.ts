/**
 * `tab.extract(format)`: the page's readable content. Uses brow's reader
 * (core/read/to-markdown.ts: Readability over linkedom, a main-content fallback chain, turndown
 * with ATX headings, fenced code, "-" bullets and GFM tables) and shapes seed 000's answer.
 */
import { htmlToReadable } from '../read/to-markdown.js';

export type ExtractFormat = 'markdown' | 'text';

export interface Readable {
  url: string;
  title?: string;
  byline?: string;
  excerpt?: string;
  contentLength: number;
  markdown?: string;
  text?: string;
}

/** Markdown without its markup: for format "text". */
export function markdownToText(md: string): string {
  return md
    .replace(/^```[^\n]*\n?/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\|?\s*:?-{3,}.*$/gm, '')
    .replace(/\s*\|\s*/g, '\t')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Readable content of a page's HTML; null when there is nothing to read. */
export function extractReadable(
  html: string,
  url: string,
  title: string,
  format: ExtractFormat = 'markdown',
): Readable | null {
  const r = htmlToReadable(html, title);
  if (!r.markdown.trim()) return null;
  const text = markdownToText(r.markdown);
  const out: Readable = { url, contentLength: text.length };
  if (r.title) out.title = r.title;
  if (r.byline) out.byline = r.byline;
  if (r.excerpt) out.excerpt = r.excerpt;
  if (format === 'text') out.text = text;
  else out.markdown = r.markdown;
  return out;
}
