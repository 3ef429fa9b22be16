/**
 * Content boundaries (docs/content-boundaries.md): page-derived text in an answer marked with a nonce a
 * page cannot know, so a model can tell the page's words from brow's. Capabilities already put page text
 * between a `<page-content>` line and a `</page-content>` line; this is the one place that turns brow's
 * pair into `<<<page_content nonce=…>>>` … `<<<end_page_content nonce=…>>>` for the doors that want it.
 * Only the text changes: `data` stays as the capability returned it.
 */
import { randomBytes } from 'node:crypto';
import type { BrowConfig } from '../core/config.js';
import type { Outcome } from './outcome.js';

/** The lines capabilities put around page text (every door sees them when boundaries are off). */
export const PAGE_OPEN = '<page-content>';
export const PAGE_CLOSE = '</page-content>';

/** A door that may mark page text: the values of the `content_boundaries` configuration key. */
export type BoundaryDoor = BrowConfig['content_boundaries'][number];

/** A fresh nonce: 48 random bits, new for every answer (a page never sees one, so it cannot forge it). */
export function newNonce(): string {
  return randomBytes(6).toString('hex');
}

// A marker is one line; a page's URL cannot break it (whitespace and angle brackets are escaped).
const safeUrl = (url: string) => url.replace(/[\s<>]/g, (c) => encodeURIComponent(c));

/** The opening marker. */
export function openMarker(nonce: string, source: string, url?: string): string {
  return `<<<page_content nonce=${nonce} source=${source}${url ? ` url=${safeUrl(url)}` : ''}>>>`;
}

/** The closing marker. */
export function closeMarker(nonce: string): string {
  return `<<<end_page_content nonce=${nonce}>>>`;
}

// A page line that looks like a marker (any nonce) is escaped with a leading backslash, so no page line
// equals a marker even in appearance; a forged end marker also carries the wrong nonce. (Leading
// blanks of one line only: a newline is not one.)
const MARKER_LIKE_LINES = /^[^\S\n]*<<<(?:end_)?page_content\b/gm;

export interface MarkOptions {
  nonce: string;
  /** What the text is: the capability's name without `browser_` (snapshot, read_page, evaluate…). */
  source: string;
  url?: string | undefined;
}

/** Where a line equal to `line` starts in text (the first, or with `last` the last), or -1. */
function lineAt(text: string, line: string, last: boolean): number {
  let at = last ? text.lastIndexOf(line) : text.indexOf(line);
  while (at >= 0) {
    const end = at + line.length;
    if ((at === 0 || text[at - 1] === '\n') && (end === text.length || text[end] === '\n')) return at;
    at = last ? (at === 0 ? -1 : text.lastIndexOf(line, at - 1)) : text.indexOf(line, at + 1);
  }
  return -1;
}

/**
 * Mark the page text of an answer: the first `<page-content>` line and the last `</page-content>` line
 * become the markers, and everything between is the block. Pairing outermost makes a page's own
 * `</page-content>` line harmless (it stays inside the block: brow's close comes after it); page text
 * before brow's first open line never stands alone on a line (headers prefix it: `URL: …`). Text with
 * no such pair is returned as it is. Works on the string as a whole: a full listing of a big page
 * has tens of thousands of lines.
 */
export function markPageContent(text: string, opts: MarkOptions): string {
  const open = lineAt(text, PAGE_OPEN, false);
  const close = lineAt(text, PAGE_CLOSE, true);
  if (open < 0 || close <= open) return text;
  const innerStart = open + PAGE_OPEN.length + 1;
  const inner =
    close > innerStart ? `${text.slice(innerStart, close - 1).replace(MARKER_LIKE_LINES, '\\$&')}\n` : '';
  return (
    text.slice(0, open) +
    `${openMarker(opts.nonce, opts.source, opts.url)}\n${inner}${closeMarker(opts.nonce)}` +
    text.slice(close + PAGE_CLOSE.length)
  );
}

const isRec = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The page URL an answer is about, where its data says it (top level, or its snapshot/outline). */
function urlOf(data: Record<string, unknown>): string | undefined {
  for (const v of [data, data.snapshot, data.outline]) {
    if (isRec(v) && typeof v.url === 'string' && v.url) return v.url;
  }
  return undefined;
}

/** The source name a marker gives: browser_list_elements → snapshot; others lose `browser_`. */
function sourceOf(tool: string): string {
  return tool === 'browser_list_elements' ? 'snapshot' : tool.replace(/^browser_/, '');
}

/** An outcome with its page text marked (a new nonce); failures and answers without page text as they are. */
export function withBoundaries(outcome: Outcome, tool: string, nonce: string = newNonce()): Outcome {
  if (!outcome.ok) return outcome;
  const content = markPageContent(outcome.content, {
    nonce,
    source: sourceOf(tool),
    url: urlOf(outcome.data),
  });
  return content === outcome.content ? outcome : { ...outcome, content };
}

/**
 * Whether a call's answer is marked: a door's explicit choice (an MCP server option) wins, else the
 * door is listed in `content_boundaries` (default: MCP only). A caller naming no door gets no markers.
 */
export function boundariesOn(
  config: Pick<BrowConfig, 'content_boundaries'>,
  door: BoundaryDoor | undefined,
  explicit: boolean | undefined,
): boolean {
  if (explicit !== undefined) return explicit;
  return door !== undefined && config.content_boundaries.includes(door);
}
