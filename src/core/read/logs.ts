/** Reading a session's console and network ring buffers: filters, paging by seq, per-reader clear. */
import { BrowserError } from '../errors.js';
import type { ConsoleEntry, ConsoleLevel, NetworkEntry } from '../observe/records.js';
import type { RingBuffer } from '../observe/ring-buffer.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';

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
 * it moves a watermark for the page (or the whole session), so later reads of it start after it.
 * Entries still under way when cleared (a request waiting for its response) are carried over and
 * shown again until a read sees them finished.
 */
interface Mark {
  seq: number;
  carried: Set<number>;
}
type LogKind = 'console' | 'network';
/** A session's watermarks, per log and page ('*': the whole session); owned by the session. */
const watermarksSlot = slot('read.log-watermarks', () => ({
  console: new Map<string, Mark>(),
  network: new Map<string, Mark>(),
}));

/** The seq reads start after, and the entries carried over the watermark. */
function watermark(session: Session, kind: LogKind, pageId: string | null): Mark {
  const marks = session.state.peek(watermarksSlot)?.[kind];
  const all = marks?.get('*');
  const own = pageId ? marks?.get(pageId) : undefined;
  const seq = Math.max(all?.seq ?? 0, own?.seq ?? 0);
  // what the later of the two watermarks carried (both, when equal)
  const carried = new Set<number>();
  for (const m of [all, own]) if (m && m.seq === seq) for (const c of m.carried) carried.add(c);
  return { seq, carried };
}

function setWatermark(session: Session, kind: LogKind, pageId: string | null, mark: Mark): void {
  session.state.get(watermarksSlot)[kind].set(pageId ?? '*', mark);
}

function readBuffer<T extends { seq: number; page_id: string }>(
  session: Session,
  kind: LogKind,
  buf: RingBuffer<T>,
  q: LogQuery,
  match: (e: T) => boolean,
  underway: (e: T) => boolean = () => false,
): LogRead<T> {
  const mark = watermark(session, kind, q.pageId);
  const since = Math.max(q.sinceSeq ?? 0, mark.seq);
  const inScope = (e: T) => q.pageId === null || e.page_id === q.pageId;
  const carried = (e: T) => e.seq <= since && e.seq > (q.sinceSeq ?? 0) && mark.carried.has(e.seq);
  const hits = buf.read((e) => inScope(e) && (e.seq > since || carried(e)) && match(e));
  const entries = hits.length > q.limit ? hits.slice(hits.length - q.limit) : hits;
  const last = buf.lastSeq;
  if (q.clear) {
    const still = buf.read((e) => inScope(e) && underway(e) && (e.seq > since || carried(e)));
    setWatermark(session, kind, q.pageId, { seq: last, carried: new Set(still.map((e) => e.seq)) });
  }
  return {
    entries,
    last_seq: last,
    dropped: buf.dropped,
    total_count: hits.length,
    returned_count: entries.length,
    cleared: !!q.clear,
  };
}

/** ISO time of an entry's timestamp (ms since the epoch). */
const isoTime = (ms: number) => new Date(ms).toISOString();

/** A console entry as tools answer it: brow's fields plus `occurred_at` (ISO time). */
export const consoleView = (e: ConsoleEntry) => ({ ...e, occurred_at: isoTime(e.timestamp) });

/**
 * Where a request is: `request` (sent, no response yet), `response` (answered, any status),
 * `failed` (a network error: refused, aborted, blocked).
 */
export type NetworkPhase = 'request' | 'response' | 'failed';

export const networkPhase = (e: NetworkEntry): NetworkPhase =>
  e.pending ? 'request' : e.error ? 'failed' : 'response';

/** A network entry as tools answer it: brow's fields plus `phase` and `occurred_at` (ISO time). */
export const networkView = (e: NetworkEntry) => ({
  ...e,
  phase: networkPhase(e),
  occurred_at: isoTime(e.timestamp),
});

export interface ConsoleQuery extends LogQuery {
  level?: ConsoleLevel | undefined;
}

/** Console entries of a session (or one page): pattern on the text, level (error includes exception). */
export function readConsole(session: Session, q: ConsoleQuery) {
  const re = callerRegex(q.pattern);
  const levelOk = (l: ConsoleLevel) =>
    !q.level || l === q.level || (q.level === 'error' && l === 'exception');
  const read = readBuffer(
    session,
    'console',
    session.console,
    q,
    (e) => levelOk(e.level) && (!re || re.test(e.text)),
  );
  const r = { ...read, entries: read.entries.map(consoleView) };
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
  const read = readBuffer(
    session,
    'network',
    session.network,
    q,
    (e) => (!q.failedOnly || e.failed) && (!re || re.test(e.url)),
    (e) => e.pending,
  );
  const r = { ...read, entries: read.entries.map(networkView) };
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
