/**
 * The gateway's view of the workers: who is there (heartbeats, a scatter-gather on demand), how
 * loaded, and which one a new session goes to (the most free capacity).
 */
import type { NatsConnection } from 'nats';
import { HEARTBEAT_MS } from './worker.js';
import { decode, encode, subjects, type WorkerStatus } from './subjects.js';

interface Known {
  status: WorkerStatus;
  seen: number;
  /** Sessions placed here since its last heartbeat. */
  placed: number;
}

/** A worker silent this long is no longer offered new sessions. */
const STALE_MS = HEARTBEAT_MS * 3.5;

export class WorkerTable {
  private readonly known = new Map<string, Known>();
  /** Workers that said they left (drained): their sessions' reason. */
  readonly left = new Set<string>();
  private refreshed = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly s: ReturnType<typeof subjects>,
  ) {
    nc.subscribe(s.heartbeat, { callback: (err, m) => !err && this.note(decode(m.data)) });
  }

  private note(st: WorkerStatus & { gone?: boolean }): void {
    if (st.gone) {
      this.known.delete(st.id);
      this.left.add(st.id);
      return;
    }
    this.left.delete(st.id);
    this.known.set(st.id, { status: st, seen: Date.now(), placed: 0 });
  }

  /** Forget a worker the gateway found gone (no responders). */
  forget(id: string): void {
    this.known.delete(id);
  }

  /**
   * Ask every worker for its status now. The workers heard from lately are waited for (at most
   * 1 s: one that died meanwhile costs that wait); with none known, done 300 ms after the last answer.
   */
  async refresh(): Promise<WorkerStatus[]> {
    const { RequestStrategy } = await (await import('./connect.js')).natsModule();
    const expected = new Set(
      [...this.known.values()].filter((k) => Date.now() - k.seen < STALE_MS).map((k) => k.status.id),
    );
    const waited = expected.size > 0;
    const seen: WorkerStatus[] = [];
    try {
      const replies = await this.nc.requestMany(this.s.all('status'), encode({}), {
        ...(waited
          ? { strategy: RequestStrategy.Timer, maxWait: 1000 }
          : { strategy: RequestStrategy.JitterTimer, maxWait: 1000, jitter: 300 }),
      });
      for await (const m of replies) {
        if (m.data.length === 0) continue;
        const st = decode<WorkerStatus>(m.data);
        seen.push(st);
        this.note(st);
        expected.delete(st.id);
        // all the known ones answered: no need to wait out the timer
        if (waited && expected.size === 0 && this.known.size <= seen.length) break;
      }
    } catch {
      // no responders: no worker is connected
    }
    const ids = new Set(seen.map((w) => w.id));
    for (const id of this.known.keys()) if (!ids.has(id)) this.known.delete(id);
    this.refreshed = Date.now();
    return seen.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** The live workers, fresh when the table may be stale. */
  async list(): Promise<WorkerStatus[]> {
    if (this.known.size === 0 || Date.now() - this.refreshed > STALE_MS) return this.refresh();
    return [...this.known.values()].map((k) => k.status).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Workers to try for a new session, most free capacity first (then least loaded). */
  async candidates(): Promise<string[]> {
    const now = Date.now();
    if (![...this.known.values()].some((k) => now - k.seen < STALE_MS)) await this.refresh();
    const free = (k: Known) => k.status.capacity - k.status.sessions - k.placed;
    return [...this.known.values()]
      .filter((k) => !k.status.draining && Date.now() - k.seen < STALE_MS)
      .sort((a, b) => free(b) - free(a) || a.status.load - b.status.load || a.placed - b.placed)
      .map((k) => k.status.id);
  }

  /** Count a session placed on a worker until its next heartbeat says so itself. */
  placed(id: string): void {
    const k = this.known.get(id);
    if (k) k.placed += 1;
  }
}
