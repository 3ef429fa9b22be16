/**
 * A cluster worker (`brow node --nats URL`): a local BrowRuntime (its own Chromium) served on NATS.
 * New sessions reach it through the placement queue group or its own call subject; every call for one
 * of its sessions arrives on that session's subject; its events go out per session. SIGTERM drains.
 */
import { hostname, loadavg, availableParallelism } from 'node:os';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { failure, type Outcome } from '../runtime/outcome.js';
import type { BrowRuntime, EventFilter } from '../runtime/runtime.js';
import { connectNats, type NatsOptions } from './connect.js';
import { places } from './placement.js';
import { GATEWAY_CONSOLE } from './console-link.js';
import {
  decode,
  encode,
  subjects,
  type CallMessage,
  type LiveMessage,
  type WorkerStatus,
} from './subjects.js';
import { replyLive } from './worker-live.js';

export interface WorkerOptions extends NatsOptions {
  /** The worker's id (already set with setWorkerId before the runtime made any id). */
  id: string;
  log?: (line: string) => void;
}

/** How often a worker says it is alive (and how loaded it is). */
export const HEARTBEAT_MS = 1000;

export class ClusterWorker {
  readonly id: string;
  private readonly s: ReturnType<typeof subjects>;
  private readonly running = new Map<string, AbortController>();
  private readonly subs: Subscription[] = [];
  private readonly startedAt = Date.now();
  private readonly unwatch = new Map<string, () => void>();
  private draining = false;
  private placement: Subscription | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private offEvents: () => void = () => undefined;
  private chromium: string | null = null;

  private constructor(
    readonly nc: NatsConnection,
    readonly runtime: BrowRuntime,
    private readonly opts: WorkerOptions,
  ) {
    this.id = opts.id;
    this.s = subjects(opts.prefix ?? 'brow');
  }

  /** Connect and serve; resolves once the worker takes calls. */
  static async start(runtime: BrowRuntime, opts: WorkerOptions): Promise<ClusterWorker> {
    const nc = await connectNats({ ...opts, name: opts.name ?? `brow-node-${opts.id}` });
    const w = new ClusterWorker(nc, runtime, opts);
    await w.serve();
    return w;
  }

  private async serve(): Promise<void> {
    // handoffs, picks and the doctor name the console of the gateway that carries the call
    this.runtime.setConsoleUrl(GATEWAY_CONSOLE);
    const doctor = await this.runtime.invoke('browser_doctor', {});
    this.chromium = typeof doctor.data.chromium_version === 'string' ? doctor.data.chromium_version : null;
    const on = (subject: string, fn: (m: Msg) => unknown, queue?: string) => {
      const sub = this.nc.subscribe(subject, {
        ...(queue ? { queue } : {}),
        callback: (err, m) => {
          if (!err)
            void Promise.resolve(fn(m)).catch((e: unknown) => this.log(`handler failed: ${String(e)}`));
        },
      });
      this.subs.push(sub);
      return sub;
    };
    on(this.s.sessionAll(this.id), (m) => this.onSessionMessage(m));
    on(this.s.workerCall(this.id), (m) => this.onCall(m, true));
    on(this.s.workerOp(this.id, 'ping'), (m) => m.respond(encode({ id: this.id })));
    on(this.s.workerOp(this.id, 'cancel'), (m) => {
      this.running.get(decode<{ call: string }>(m.data).call)?.abort();
    });
    on(this.s.workerOp(this.id, 'overview'), async (m) =>
      m.respond(encode(await this.runtime.live().overview())),
    );
    on(this.s.workerOp(this.id, 'history'), (m) => {
      const q = decode<{ filter?: EventFilter; since?: number; back: string }>(m.data);
      this.reply(m, q.back, this.runtime.history(q.filter ?? {}, q.since ?? 0));
    });
    on(this.s.all('status'), (m) => m.respond(encode(this.status())));
    on(this.s.all('release'), async (m) => {
      await this.runtime.releaseOwner(decode<{ owner: string }>(m.data).owner);
      if (m.reply) m.respond(encode({ ok: true }));
    });
    this.placement = on(this.s.place, (m) => this.onCall(m, true), 'brow-place');
    this.offEvents = this.runtime.subscribe({}, (e) =>
      this.nc.publish(this.s.events(this.id, e.session_id, e.type), encode(e)),
    );
    this.heartbeat = setInterval(
      () => this.nc.publish(this.s.heartbeat, encode(this.status())),
      HEARTBEAT_MS,
    );
    this.heartbeat.unref();
    this.nc.publish(this.s.heartbeat, encode(this.status()));
    await this.nc.flush();
  }

  /** What `brow cluster status` and the gateway's placement read. */
  status(): WorkerStatus {
    const sessions = [...this.runtime.core.sessions.values()].filter((s) => !s.closed).length;
    return {
      id: this.id,
      capacity: this.runtime.config.max_sessions,
      sessions,
      running: this.running.size,
      load: Math.round((loadavg()[0]! / availableParallelism()) * 100) / 100,
      chromium_version: this.chromium,
      started_at: this.startedAt,
      uptime_s: Math.round((Date.now() - this.startedAt) / 1000),
      draining: this.draining,
      host: hostname(),
      pid: process.pid,
    };
  }

  private onSessionMessage(m: Msg): Promise<void> | void {
    const msg = decode<CallMessage | LiveMessage>(m.data);
    if (msg.op === 'live') return this.onLive(m, msg);
    return this.onCall(m, false);
  }

  private async onLive(m: Msg, msg: LiveMessage): Promise<void> {
    await replyLive(this.runtime, this.nc, this.unwatch, m, msg);
  }

  /** Run a call and answer it; `placing`: it may start a session here. */
  private async onCall(m: Msg, placing: boolean): Promise<void> {
    const msg = decode<CallMessage>(m.data);
    const refuse = this.refusal(msg, placing);
    if (refuse) return this.reply(m, msg.back, refuse);
    const ac = new AbortController();
    this.running.set(msg.call, ac);
    try {
      const out = await this.runtime.invoke(msg.name, msg.input, {
        owner: msg.owner ?? null,
        signal: ac.signal,
        ...(msg.progress
          ? {
              progress: (done: number, total?: number, message?: string) =>
                this.nc.publish(`${msg.back}.p`, encode({ done, total, message })),
            }
          : {}),
      });
      this.reply(m, msg.back, out);
    } finally {
      this.running.delete(msg.call);
    }
  }

  /** A draining or full worker turns new sessions away (the gateway tries the next worker). */
  private refusal(msg: CallMessage, placing: boolean): Outcome | null {
    if (!this.draining) {
      const starts = placing && places(msg.name);
      if (starts && this.status().sessions >= this.runtime.config.max_sessions) {
        return failure('resource_limit', `Worker ${this.id} is full.`, 'Another worker may have room.', {
          reason: 'worker_full',
          worker: this.id,
          max_sessions: this.runtime.config.max_sessions,
        });
      }
      return null;
    }
    if (placing) {
      return failure(
        'resource_limit',
        `Worker ${this.id} is draining.`,
        'Another worker takes new sessions.',
        {
          reason: 'worker_draining',
          worker: this.id,
        },
      );
    }
    return failure(
      'session_closed',
      `Worker ${this.id} is shutting down; its sessions are ending.`,
      'Start a new session: another worker takes it.',
      { reason: 'worker_draining', worker: this.id },
    );
  }

  /** Answer a request; a body over NATS's max_payload goes as chunks to `back`, the reply says how many. */
  private reply(m: Msg, back: string, out: unknown): void {
    const body = encode(out);
    const max = this.nc.info?.max_payload ?? 1024 * 1024;
    if (body.length <= max - 512) {
      m.respond(body);
      return;
    }
    // larger than one NATS message: the chunks go to the caller's inbox, the reply says how many
    const size = max - 512;
    const n = Math.ceil(body.length / size);
    for (let i = 0; i < n; i++) this.nc.publish(`${back}.c${i}`, body.subarray(i * size, (i + 1) * size));
    m.respond(encode({ chunks: n }));
  }

  /**
   * Drain (SIGTERM): take no new sessions, let running calls finish, stop the sessions, leave.
   * Calls arriving meanwhile for this worker's sessions answer session_closed (worker_draining).
   */
  async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    this.log('draining: no new sessions; waiting for running calls');
    await this.placement?.drain().catch(() => undefined);
    this.nc.publish(this.s.heartbeat, encode(this.status()));
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 50));
    await this.close();
  }

  /** Stop serving and close the runtime (its sessions stop, Chromium exits). */
  async close(): Promise<void> {
    this.draining = true;
    clearInterval(this.heartbeat);
    this.offEvents();
    for (const off of this.unwatch.values()) off();
    for (const ac of this.running.values()) ac.abort();
    await this.runtime.close().catch(() => undefined);
    this.nc.publish(this.s.heartbeat, encode({ ...this.status(), sessions: 0, gone: true }));
    await this.nc.drain().catch(() => undefined);
  }

  private log(line: string): void {
    this.opts.log?.(`worker ${this.id}: ${line}`);
  }
}
