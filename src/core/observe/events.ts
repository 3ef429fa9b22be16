/** One event stream for every door: bus triggers, server-sent events, waits. */

export const EVENT_TYPES = [
  'session-started',
  'session-stopped',
  'navigated',
  'console-event',
  'network-event',
  'dialog',
  'download',
  'page-opened',
  'page-closed',
  /** A page's renderer crashed: its calls answer browser_crashed. */
  'page-crashed',
  /** A page's script stopped answering and brow terminated it. */
  'page-unresponsive',
  'picked',
  /** An agent asked a person to pick an element (browser_pick). */
  'pick-requested',
  'handoff-requested',
  'handoff-resolved',
  /** An agent action starts (the console's ghost cursor follows it), and again when it ends, with its `outcome`. */
  'action',
] as const;

export type BrowEventType = (typeof EVENT_TYPES)[number];

export interface BrowEvent {
  type: BrowEventType;
  session_id: string;
  /** Monotonic per session, so a reader can resume. */
  seq: number;
  timestamp: number;
  [key: string]: unknown;
}

export interface EventFilter {
  session_id?: string;
  types?: BrowEventType[];
}

type Listener = (e: BrowEvent) => void;

export class EventBus {
  private listeners = new Set<{ filter: EventFilter; fn: Listener }>();
  private seqs = new Map<string, number>();
  private recent: BrowEvent[] = [];

  /** Emit an event; listeners run on a later microtask so a slow one never blocks the emitter. */
  emit(type: BrowEventType, sessionId: string, payload: Record<string, unknown> = {}): BrowEvent {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1;
    this.seqs.set(sessionId, seq);
    const event: BrowEvent = { ...payload, type, session_id: sessionId, seq, timestamp: Date.now() };
    this.recent.push(event);
    if (this.recent.length > 1000) this.recent.splice(0, this.recent.length - 1000);
    for (const l of this.listeners) {
      if (!matches(l.filter, event)) continue;
      queueMicrotask(() => {
        try {
          l.fn(event);
        } catch {
          // a listener's failure is its own; the stream goes on
        }
      });
    }
    return event;
  }

  /** Subscribe; returns the unsubscribe function. */
  subscribe(filter: EventFilter, fn: Listener): () => void {
    const entry = { filter, fn };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** How many listeners an event of this type and session would reach now (a wait's subscription is in place). */
  listening(type: BrowEventType, sessionId: string): number {
    const probe = { type, session_id: sessionId } as BrowEvent;
    return [...this.listeners].filter((l) => matches(l.filter, probe)).length;
  }

  /** Recent events (the last 1000) matching the filter, after a seq of that session. */
  history(filter: EventFilter, sinceSeq = 0): BrowEvent[] {
    return this.recent.filter((e) => matches(filter, e) && e.seq > sinceSeq);
  }
}

function matches(f: EventFilter, e: BrowEvent): boolean {
  if (f.session_id && f.session_id !== e.session_id) return false;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  return true;
}
