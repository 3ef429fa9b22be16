/**
 * Where the gateway sends a call: the worker an id in it names (per-session subject), else the
 * caller's last worker, else placement on the worker with the most free capacity (a full or
 * draining one refuses and the next is tried).
 */
import { failure, type Outcome } from '../runtime/outcome.js';
import type { InvokeOptions } from '../runtime/runtime.js';
import type { WorkerCalls } from './gateway-calls.js';
import { places } from './placement.js';
import { ROUTING_FIELDS, subjects, workerOf } from './subjects.js';
import type { WorkerTable } from './workers.js';

export type Route = { worker: string; subject: string; id?: string } | { place: true };

export class Routes {
  /** Each caller's last worker: calls that name no session mean the session used last, which lives there. */
  private readonly sticky = new Map<string | null, string>();

  constructor(
    private readonly s: ReturnType<typeof subjects>,
    private readonly workers: WorkerTable,
    private readonly calls: WorkerCalls,
  ) {}

  /** Where a call goes: the worker its ids name, else the caller's last worker, else placement. */
  route(name: string, input: unknown, owner: string | null): Route {
    const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    for (const f of ROUTING_FIELDS) {
      const id = fields[f];
      if (typeof id !== 'string' || !id) continue;
      const worker = workerOf(id);
      // an id brow did not make: the worker the caller used says it does not know it
      if (!worker) break;
      return { worker, subject: this.s.session(worker, id), id };
    }
    if (places(name)) return { place: true };
    const last = this.sticky.get(owner);
    if (last) return { worker: last, subject: this.s.workerCall(last) };
    return { place: true };
  }

  /** The caller's last worker, from a successful answer's ids (or the worker that gave it). */
  remember(owner: string | null, out: Outcome, worker: string): void {
    if (!out.ok) return;
    const w = workerOf(out.data.page_id) ?? workerOf(out.data.session_id) ?? worker;
    this.sticky.set(owner, w);
    if (this.sticky.size > 1000) this.sticky.delete(this.sticky.keys().next().value as string | null);
  }

  /** The worker a caller used last, if any. */
  last(owner: string | null): string | null {
    return this.sticky.get(owner) ?? null;
  }

  /** A caller gone: its last worker is forgotten. */
  release(owner: string): void {
    this.sticky.delete(owner);
  }

  /** A worker gone: no caller's calls go there by default any more. */
  forgetWorker(worker: string): void {
    for (const [owner, w] of this.sticky) if (w === worker) this.sticky.delete(owner);
  }

  /** A new session: the most free worker first; a full or draining one refuses and the next is tried. */
  async place(name: string, input: unknown, opts: InvokeOptions): Promise<Outcome> {
    const tried = new Set<string>();
    let last: Outcome | null = null;
    for (const w of await this.workers.candidates()) {
      tried.add(w);
      const out = await this.calls.send(w, this.s.workerCall(w), name, input, opts);
      const reason = out.ok ? null : out.data.reason;
      if (reason === 'worker_full' || reason === 'worker_draining' || reason === 'worker_lost') {
        last = out;
        continue;
      }
      if (out.ok && (name === 'browser_start_session' || name === 'browser_open_page'))
        this.workers.placed(w);
      this.remember(opts.owner ?? null, out, w);
      return out;
    }
    if (tried.size === 0) {
      // no heartbeat seen yet: the queue group reaches any worker there is
      const out = await this.calls.send('', this.s.place, name, input, opts);
      if (out.ok || out.data.reason !== 'worker_lost') {
        const w = workerOf(out.data.session_id) ?? workerOf(out.data.page_id);
        if (w) this.remember(opts.owner ?? null, out, w);
        return out;
      }
    }
    return (
      last ??
      failure(
        'resource_limit',
        'No brow worker is connected to the cluster.',
        'Start one: brow node --nats <url> (brow cluster status lists the workers).',
        { reason: 'no_workers' },
      )
    );
  }
}
