/** Reading a session's console and network ring buffers: filters, paging by seq, per-reader clear. */
import { BrowserError } from '../errors.js';
import type { ConsoleEntry, ConsoleLevel, NetworkEntry } from '../observe/records.js';
import type { RingBuffer } from '../observe/ring-buffer.js';
import type { Session } from '../session/session.js';

export interface LogQuery {
  /** Only entries of this page; null = every page of the session. */
  pageId: string | null;
  pattern?: string | undefined;
  sinceSeq?: number | undefined;
  limit: number;
  clear?: boolean | undefined;
}

export interface LogRead<T> {
  entries: T[];
  /** The newest seq in the session's buffer (matching or not): pass it as since_seq next time. */
  last_seq: number;
  /** Entries the buffer pushed out because it was full. */
  dropped: number;
  /** Entries that matched, before `limit` kept the newest. */
  total_count: number;
  returned_count: number;
  cleared: boolean;
}

/** A regex from a caller; invalid_request names the problem. Case-insensitive. */
export function callerRegex(pattern: string | undefined, field = 'pattern'): RegExp | null {
  if (pattern === undefined || pattern === '') return null;
  try {
    return new RegExp(pattern, 'i');
  } catch (e) {
    throw new BrowserError(
      'invalid_request',
      `${field} is not a valid regular expression: ${(e as Error).message}.`,
      {
        hint: 'Pass a JavaScript regular expression without slashes, e.g. "timeout|refused"; escape ( [ . with \\.',
        details: { [field]: pattern },
      },
    );
  }
}

/**
 * "clear" never empties the shared buffer (an action's effect and other readers still need it):
 * it moves this reader's watermark, so later reads of the same page (or session) start after it.
 */
const watermarks = new WeakMap<RingBuffer<{ seq: number }>, Map<string, number>>();

function watermark(buf: RingBuffer<{ seq: number }>, pageId: string | null): number {
  const marks = watermarks.get(buf);
  if (!marks) return 0;
  const all = marks.get('*') ?? 0;
  return pageId ? Math.max(all, marks.get(pageId) ?? 0) : all;
}

function setWatermark(buf: RingBuffer<{ seq: number }>, pageId: string | null, seq: number): void {
  let marks = watermarks.get(buf);
  if (!marks) watermarks.set(buf, (marks = new Map()));
  marks.set(pageId ?? '*', seq);
}

function readBuffer<T extends { seq: number; page_id: string }>(
  buf: RingBuffer<T>,
  q: LogQuery,
  match: (e: T) => boolean,
): LogRead<T> {
  const since = Math.max(q.sinceSeq ?? 0, watermark(buf, q.pageId));
  const hits = buf.read((e) => (q.pageId === null || e.page_id === q.pageId) && match(e), since);
  const entries = hits.length > q.limit ? hits.slice(hits.length - q.limit) : hits;
  const last = buf.lastSeq;
  if (q.clear) setWatermark(buf, q.pageId, last);
  return {
    entries,
    last_seq: last,
    dropped: buf.dropped,
    total_count: hits.length,
    returned_count: entries.length,
    cleared: !!q.clear,
  };
}

export interface ConsoleQuery extends LogQuery {
  level?: ConsoleLevel | undefined;
}

/** Console entries of a session (or one page): pattern on the text, level (error includes exception). */
export function readConsole(session: Session, q: ConsoleQuery) {
  const re = callerRegex(q.pattern);
  const levelOk = (l: ConsoleLevel) =>
    !q.level || l === q.level || (q.level === 'error' && l === 'exception');
  const r = readBuffer(session.console, q, (e) => levelOk(e.level) && (!re || re.test(e.text)));
  let errors = 0;
  let warnings = 0;
  for (const e of r.entries) {
    if (e.level === 'error' || e.level === 'exception') errors++;
    else if (e.level === 'warning') warnings++;
  }
  return { ...r, error_count: errors, warning_count: warnings };
}

export interface NetworkQuery extends LogQuery {
  failedOnly?: boolean | undefined;
}

/** Network entries of a session (or one page): pattern on the URL; failed = network error or status ≥ 400. */
export function readNetwork(session: Session, q: NetworkQuery) {
  const re = callerRegex(q.pattern);
  const r = readBuffer(session.network, q, (e) => (!q.failedOnly || e.failed) && (!re || re.test(e.url)));
  return {
    ...r,
    failed_count: r.entries.filter((e) => e.failed).length,
    pending_count: r.entries.filter((e) => e.pending).length,
  };
}

/** One line per console entry, for a model. */
export function consoleLine(e: ConsoleEntry): string {
  const text = e.text.length > 500 ? `${e.text.slice(0, 500)}… (${e.text.length} chars)` : e.text;
  return `#${e.seq} [${e.level}] ${text.replace(/\n/g, '\n    ')}${e.source ? `  (${e.source})` : ''}`;
}

/** One line per request, for a model. */
export function networkLine(e: NetworkEntry): string {
  const status = e.pending ? 'pending' : e.error ? `failed ${e.error}` : String(e.status ?? '?');
  const extra = [e.resource_type, e.mime_type, e.duration_ms !== undefined ? `${e.duration_ms} ms` : '']
    .filter(Boolean)
    .join(', ');
  return `#${e.seq} ${e.method} ${e.url} → ${status}${e.failed && !e.error ? ' (failed)' : ''}${extra ? `  (${extra})` : ''}`;
}
