/**
 * The gateway's calls to workers over NATS: one request per call on a worker's subject, its
 * progress and chunked answer on the gateway's inbox, and the guards that keep it from hanging (a
 * worker gone, a caller that aborts, NATS dropping). Where a call goes is gateway-routes.ts's.
 */
import type { NatsConnection } from 'nats';
import { getCapability } from '../capabilities/registry.js';
import { failure, type ErrorOutcome, type Outcome } from '../runtime/outcome.js';
import type { InvokeOptions } from '../runtime/runtime.js';
import { fillAnswer, fillLinks, GATEWAY_CONSOLE } from './console-link.js';
import { encode, decode, subjects } from './subjects.js';
import type { WorkerTable } from './workers.js';

/** nats.js's ErrorCode values (constants here: the module is loaded once, by connect). */
const NO_RESPONDERS = '503';
const TIMEOUT = 'TIMEOUT';
/** How often the gateway checks that the workers running its calls are still there. */
const LIVENESS_MS = 250;

interface InFlight {
  worker: string;
  fail(out: ErrorOutcome): void;
}

/** What the calls need of the gateway that owns them. */
export interface CallsHost {
  nc: NatsConnection;
  s: ReturnType<typeof subjects>;
  workers: WorkerTable;
  /** The gateway's max_timeout_ms now (its config may change). */
  maxTimeoutMs(): number;
  /** The console's address, for the links in handoff and pick answers. */
  consoleUrl(): Promise<string | null>;
  /** A worker found gone: forget what points to it. */
  onLost(worker: string): void;
}

export class WorkerCalls {
  private readonly inbox: string;
  private readonly backs = new Map<string, (subject: string, data: Uint8Array) => void>();
  private readonly inflight = new Map<string, InFlight>();
  private liveness: NodeJS.Timeout | undefined;
  private seq = 0;

  constructor(private readonly host: CallsHost) {
    const { nc } = host;
    this.inbox = `_INBOX.brow.${nc.info?.client_id ?? ''}${Math.random().toString(36).slice(2)}`;
    nc.subscribe(`${this.inbox}.>`, {
      callback: (err, m) => {
        if (err) return;
        const call = m.subject.slice(this.inbox.length + 1).split('.')[0]!;
        this.backs.get(call)?.(m.subject, m.data);
      },
    });
  }

  get size(): number {
    return this.inflight.size;
  }

  /** Fail every call in flight with this answer (NATS lost, the gateway closing). */
  failAll(out: ErrorOutcome): void {
    for (const f of this.inflight.values()) f.fail(out);
  }

  stop(): void {
    clearInterval(this.liveness);
  }

  /** One call on one worker's subject; fails fast when the worker is gone, the caller aborts or NATS drops. */
  async send(
    worker: string,
    subject: string,
    name: string,
    input: unknown,
    opts: InvokeOptions,
    id?: string,
  ): Promise<Outcome> {
    const { nc, s } = this.host;
    const call = `${++this.seq}`;
    const back = `${this.inbox}.${call}`;
    const chunks: Uint8Array[] = [];
    this.backs.set(call, (subj, data) => {
      const kind = subj.slice(back.length + 1);
      if (kind === 'p') {
        const p = decode<{ done: number; total?: number; message?: string }>(data);
        const tell = (message?: string) => {
          try {
            opts.progress?.(p.done, p.total, message);
          } catch {
            // a door that cannot carry progress any more is no reason to fail the call
          }
        };
        // a handoff's or pick's line names the console: this gateway's, filled in here
        if (p.message?.includes(GATEWAY_CONSOLE))
          void this.host.consoleUrl().then((base) => tell(fillLinks(p.message!, base)));
        else tell(p.message);
      } else if (kind.startsWith('c')) chunks[Number(kind.slice(1))] = data;
    });
    let fail: (out: ErrorOutcome) => void = () => undefined;
    const failed = new Promise<ErrorOutcome>((r) => (fail = r));
    if (worker) this.inflight.set(call, { worker, fail });
    this.watchLiveness();
    const onAbort = () => {
      if (worker) nc.publish(s.workerOp(worker, 'cancel'), encode({ call }));
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const msg = {
        op: 'invoke',
        call,
        name,
        input,
        owner: opts.owner ?? null,
        back,
        progress: !!opts.progress,
      };
      const reply = nc
        .request(subject, encode(msg), { timeout: this.timeoutFor(name, input) })
        .then((m) => this.answer(m.data, chunks))
        .catch((e: unknown) => {
          const code = (e as { code?: string }).code;
          if (code === NO_RESPONDERS) return this.lost(worker, id);
          if (code === TIMEOUT) {
            return failure(
              'timeout',
              `${name} got no answer from worker ${worker || '(any)'} in time.`,
              'Check the worker (brow cluster status), then try again.',
            );
          }
          return failure(
            'connection_failed',
            `NATS: ${e instanceof Error ? e.message : String(e)}`,
            'Check the NATS server; brow reconnects by itself.',
          );
        });
      return await Promise.race([reply, failed]);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      this.inflight.delete(call);
      this.backs.delete(call);
    }
  }

  /** A worker's answer (or its chunks, when it said how many), with console links made this gateway's. */
  private async answer(data: Uint8Array, chunks: Uint8Array[]): Promise<Outcome> {
    const text = await joined(data, chunks);
    const out = JSON.parse(text) as Outcome;
    return text.includes(GATEWAY_CONSOLE) ? fillAnswer(out, await this.host.consoleUrl()) : out;
  }

  /** A request whose answer may come in chunks (on this gateway's inbox), parsed. */
  async ask<T>(subject: string, msg: Record<string, unknown>, timeout: number): Promise<T> {
    const call = `${++this.seq}`;
    const back = `${this.inbox}.${call}`;
    const chunks: Uint8Array[] = [];
    this.backs.set(call, (subj, data) => {
      const kind = subj.slice(back.length + 1);
      if (kind.startsWith('c')) chunks[Number(kind.slice(1))] = data;
    });
    try {
      const m = await this.host.nc.request(subject, encode({ ...msg, back }), { timeout });
      return JSON.parse(await joined(m.data, chunks)) as T;
    } finally {
      this.backs.delete(call);
    }
  }

  /** session_closed for a call whose worker is gone: crashed (worker_lost) or drained (worker_stopped). */
  private lost(worker: string, id?: string): ErrorOutcome {
    if (!worker)
      return failure('resource_limit', 'No brow worker answered.', 'Start one: brow node --nats <url>.', {
        reason: 'worker_lost',
      });
    this.host.workers.forget(worker);
    this.host.onLost(worker);
    const reason = this.host.workers.left.has(worker) ? 'worker_stopped' : 'worker_lost';
    const what = id ? `${id} was on worker ${worker}, which` : `Worker ${worker}`;
    return failure(
      'session_closed',
      `${what} ${reason === 'worker_lost' ? 'is gone (it stopped answering: crashed or killed)' : 'has shut down'}.`,
      'Its sessions and pages are lost: start a new session (another worker takes it).',
      { reason, worker },
    );
  }

  /** While calls run, ping their workers: one that is gone (no responders) fails them at once. */
  private watchLiveness(): void {
    if (this.liveness) return;
    this.liveness = setInterval(() => {
      if (this.inflight.size === 0) {
        clearInterval(this.liveness);
        this.liveness = undefined;
        return;
      }
      for (const w of new Set([...this.inflight.values()].map((f) => f.worker))) {
        this.host.nc
          .request(this.host.s.workerOp(w, 'ping'), encode({}), { timeout: 5000 })
          .catch(async (e: unknown) => {
            const { ErrorCode } = await (await import('./connect.js')).natsModule();
            if ((e as { code?: string }).code !== ErrorCode.NoResponders) return;
            const out = this.lost(w);
            for (const f of this.inflight.values()) if (f.worker === w) f.fail(out);
          });
      }
    }, LIVENESS_MS);
    this.liveness.unref();
  }

  /** The call's deadline: the worker's own (max_timeout_ms or the capability's) plus slack. */
  private timeoutFor(name: string, input: unknown): number {
    const cap = getCapability(name);
    const parsed = cap?.input.safeParse(input ?? {});
    const own = parsed?.success ? (cap?.maxRunMs?.(parsed.data) ?? 0) : 0;
    return Math.max(this.host.maxTimeoutMs(), own) + 30_000;
  }
}

/** An answer's text: the reply itself, or the chunks it announced (`{"chunks": n}`) joined. */
async function joined(data: Uint8Array, chunks: Uint8Array[]): Promise<string> {
  const text = new TextDecoder().decode(data);
  const n = /^\{"chunks":(\d+)\}$/.exec(text)?.[1];
  if (n === undefined) return text;
  // the chunks were published before the reply, on the same connection: they are here already
  for (let i = 0; i < 20 && chunks.filter(Boolean).length < Number(n); i++)
    await new Promise((r) => setTimeout(r, 5));
  return new TextDecoder().decode(Buffer.concat(chunks.slice(0, Number(n))));
}
