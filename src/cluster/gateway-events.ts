/**
 * The gateway's events: subscriptions to the workers' event subjects (narrowed to what the filter
 * asks for) and history merged from every worker's recent events and the ones seen here.
 */
import type { NatsConnection } from 'nats';
import type { BrowEvent, EventFilter } from '../runtime/runtime.js';
import type { WorkerCalls } from './gateway-calls.js';
import { decode, subjects, workerOf } from './subjects.js';
import type { WorkerTable } from './workers.js';

export class GatewayEvents {
  private readonly recent: BrowEvent[] = [];
  private readonly recentKeys = new Set<string>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly s: ReturnType<typeof subjects>,
    private readonly workers: WorkerTable,
    private readonly calls: WorkerCalls,
  ) {}

  /** Keep an event for history(), once (two listeners may both receive it). */
  private keep(e: BrowEvent): void {
    const key = `${e.session_id}#${e.seq}`;
    if (this.recentKeys.has(key)) return;
    this.recentKeys.add(key);
    this.recent.push(e);
    if (this.recent.length > 1000) {
      for (const old of this.recent.splice(0, this.recent.length - 1000)) {
        this.recentKeys.delete(`${old.session_id}#${old.seq}`);
      }
    }
  }

  /**
   * Subscribe to the workers' events: NATS delivers only what the filter asks for (its session's
   * subjects, its types), so a gateway is not sent every page's network events.
   */
  subscribe(filter: EventFilter, fn: (e: BrowEvent) => void): () => void {
    // only plain tokens narrow the subjects (no wildcards from a caller); matches() filters the rest
    const token = (v: string) => /^[\w-]+$/.test(v);
    const sid = filter.session_id && token(filter.session_id) ? filter.session_id : null;
    const where = sid ? `${workerOf(sid) ?? '*'}.${sid}` : '*.*';
    const asked = filter.types ?? [];
    const types = asked.length > 0 && asked.every(token) ? asked : ['*'];
    const subs = types.map((t) =>
      this.nc.subscribe(`${this.prefix}.ev.${where}.${t}`, {
        callback: (err, m) => {
          if (err) return;
          const e = decode<BrowEvent>(m.data);
          if (!matches(filter, e)) return;
          this.keep(e);
          try {
            fn(e);
          } catch {
            // a listener's bug must not stop the stream
          }
        },
      }),
    );
    return () => subs.forEach((sub) => sub.unsubscribe());
  }

  /**
   * Recent events after a per-session seq, as the workers keep them (each its last 1000): the
   * session's worker when the filter names one, else every worker, merged in time order. Events this
   * gateway's listeners received from a worker that is gone since are kept here and included.
   */
  async history(filter: EventFilter, sinceSeq = 0): Promise<BrowEvent[]> {
    const sid = filter.session_id;
    const ids = sid
      ? [workerOf(sid)].filter((w): w is string => !!w)
      : (await this.workers.list()).map((w) => w.id);
    const q = {
      filter: { ...(sid ? { session_id: sid } : {}), ...(filter.types ? { types: filter.types } : {}) },
      since: sinceSeq,
    };
    const parts = await Promise.all(
      ids.map((w) => this.calls.ask<BrowEvent[]>(this.s.workerOp(w, 'history'), q, 5000).catch(() => [])),
    );
    const byKey = new Map<string, BrowEvent>();
    for (const e of [...this.recent.filter((e) => matches(filter, e) && e.seq > sinceSeq), ...parts.flat()])
      byKey.set(`${e.session_id}#${e.seq}`, e);
    return [...byKey.values()].sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq);
  }
}

function matches(f: EventFilter, e: BrowEvent): boolean {
  if (f.session_id && f.session_id !== e.session_id) return false;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  return true;
}
