/**
 * Reading a Chromium trace (the JSON Tracing.end streams): the longest main-thread tasks of one page's
 * renderer. Pure: no browser here, so it is tested on any trace.
 */

/** One trace event, as far as brow reads it. */
interface TraceEvent {
  name?: string;
  cat?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

export interface LongTask {
  /** ms since the recording started */
  start_ms: number;
  duration_ms: number;
  /** What ran in it, when the trace says: "click handler", "script app.js:12", "layout"… */
  what: string | null;
}

export interface TraceSummary {
  events: number;
  /** How long the recording ran (ms). */
  duration_ms: number;
  long_tasks: LongTask[];
}

/** The trace's event list: `{traceEvents: [...]}` or a bare array. */
export function traceEvents(trace: unknown): TraceEvent[] {
  if (Array.isArray(trace)) return trace as TraceEvent[];
  if (trace && typeof trace === 'object' && Array.isArray((trace as { traceEvents?: unknown }).traceEvents))
    return (trace as { traceEvents: TraceEvent[] }).traceEvents;
  return [];
}

/** Renderer processes that held the frame: from the recording's start and every commit after. */
function pidsOfFrame(events: TraceEvent[], frameId: string): Set<number> {
  const pids = new Set<number>();
  for (const e of events) {
    const data = e.args?.data;
    if (!data) continue;
    if (e.name === 'TracingStartedInBrowser' && Array.isArray(data.frames)) {
      for (const f of data.frames as { frame?: string; processId?: number }[])
        if (f.frame === frameId && typeof f.processId === 'number') pids.add(f.processId);
    }
    if (
      (e.name === 'FrameCommittedInBrowser' || e.name === 'CommitLoad') &&
      data.frame === frameId &&
      typeof data.processId === 'number'
    )
      pids.add(data.processId);
  }
  return pids;
}

const key = (pid: number | undefined, tid: number | undefined) => `${pid}:${tid}`;

/** What one event inside a task says it ran, or null for events that say nothing. */
function label(e: TraceEvent): string | null {
  const d = e.args?.data ?? {};
  if (e.name === 'EventDispatch' && typeof d.type === 'string') return `${d.type} handler`;
  if (e.name === 'TimerFire') return 'timer';
  if (e.name === 'FireAnimationFrame') return 'animation frame';
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript') {
    const url = typeof d.url === 'string' && d.url ? d.url.split('/').pop() : '';
    const fn = typeof d.functionName === 'string' && d.functionName ? `${d.functionName} ` : '';
    const line = typeof d.lineNumber === 'number' ? `:${d.lineNumber + 1}` : '';
    return `script ${fn}${url ? `(${url}${line})` : ''}`.trim();
  }
  if (e.name === 'ParseHTML') return 'HTML parsing';
  if (e.name === 'Layout') return 'layout';
  return null;
}

/**
 * What a task ran: the longest telling event inside it on the same thread (a click's task also
 * dispatches pointer and mouse events; the handler that took the time is the one to name).
 */
function describeTask(task: TraceEvent, inside: TraceEvent[]): string | null {
  const start = task.ts ?? 0;
  const end = start + (task.dur ?? 0);
  let best: { what: string; dur: number } | null = null;
  for (const e of inside) {
    const ts = e.ts ?? 0;
    if (ts < start || ts > end) continue;
    const what = label(e);
    if (what && (!best || (e.dur ?? 0) > best.dur)) best = { what, dur: e.dur ?? 0 };
  }
  return best?.what ?? null;
}

/**
 * The longest tasks (`RunTask`, the scheduler's unit; 50 ms or more is a long task) on the main thread
 * of the page's renderer, longest first. frameId narrows to the page's processes; when the trace does
 * not say which they are, every renderer main thread counts.
 */
export function summarizeTrace(trace: unknown, opts: { frameId?: string; top?: number } = {}): TraceSummary {
  const events = traceEvents(trace);
  const mains = new Set<string>();
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      mains.add(key(e.pid, e.tid));
    if (typeof e.ts === 'number' && e.ts > 0 && e.ph !== 'M') {
      first = Math.min(first, e.ts);
      last = Math.max(last, e.ts + (e.dur ?? 0));
    }
  }
  const pids = opts.frameId ? pidsOfFrame(events, opts.frameId) : new Set<number>();
  const onMain = (e: TraceEvent) =>
    mains.has(key(e.pid, e.tid)) && (pids.size === 0 || (e.pid !== undefined && pids.has(e.pid)));
  const mainEvents = events.filter(onMain);
  const tasks = mainEvents
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, opts.top ?? 5);
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    events: events.length,
    duration_ms: Number.isFinite(first) ? ms(last - first) : 0,
    long_tasks: tasks.map((t) => ({
      start_ms: ms((t.ts ?? 0) - (Number.isFinite(first) ? first : 0)),
      duration_ms: ms(t.dur ?? 0),
      what: describeTask(
        t,
        mainEvents.filter((e) => e.tid === t.tid && e.pid === t.pid && e !== t),
      ),
    })),
  };
}
