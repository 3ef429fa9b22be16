/**
 * The gateway (`brow serve --nats`, `brow mcp --nats`, `createBrow({nats})`): a Runtime whose calls
 * run on cluster workers. Stateless but for caches: a call naming a session, page or handoff goes
 * to the worker its id names (per-session subject); a new session goes to the worker with the most
 * free capacity; calls without a session fan out and merge. A worker that dies makes its sessions'
 * calls answer session_closed (reason worker_lost) at once, never a hang.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { AnyCapability } from '../capabilities/define.js';
import { getCapability } from '../capabilities/registry.js';
import { boundariesOn, withBoundaries } from '../runtime/boundaries.js';
import { failure, type ErrorOutcome, type Outcome } from '../runtime/outcome.js';
import { configSchema, type BrowConfig, type BrowConfigInput } from '../runtime/config.js';
import {
  type BrowEvent,
  type EventFilter,
  type InvokeOptions,
  type LiveSurface,
  type Runtime,
} from '../runtime/runtime.js';
import { capabilities } from '../capabilities/registry.js';
import { connectNats, type NatsOptions } from './connect.js';
import { places } from './placement.js';
import { fillAnswer, fillLinks, GATEWAY_CONSOLE } from './console-link.js';
import { mergeDoctor, mergeSessions } from './fan-out.js';
import { remoteLive } from './gateway-live.js';
import { decode, encode, ROUTING_FIELDS, subjects, workerOf } from './subjects.js';
import { WorkerTable } from './workers.js';

/** nats.js's ErrorCode values (constants here: the module is loaded once, by connect). */
const NO_RESPONDERS = '503';
const TIMEOUT = 'TIMEOUT';
/** How often the gateway checks that the workers running its calls are still there. */
const LIVENESS_MS = 250;

interface InFlight {
  worker: string;
  fail(out: ErrorOutcome): void;
}

type Route = { worker: string; subject: string; id?: string } | { place: true };

export class ClusterRuntime implements Runtime {
  readonly capabilities: AnyCapability[] = capabilities;
  config: BrowConfig;
  readonly workers: WorkerTable;
  private readonly s: ReturnType<typeof subjects>;
  private readonly prefix: string;
  private readonly inbox: string;
  private readonly backs = new Map<string, (subject: string, data: Uint8Array) => void>();
  private readonly inflight = new Map<string, InFlight>();
  /** Each caller's last worker: calls that name no session mean the session used last, which lives there. */
  private readonly sticky = new Map<string | null, string>();
  private readonly recent: BrowEvent[] = [];
  private readonly recentKeys = new Set<string>();
  private readonly subs: Subscription[] = [];
  private liveness: NodeJS.Timeout | undefined;
  private consoleUrl: Promise<string | null> = Promise.resolve(null);
  private seq = 0;
  private closed = false;
  private disconnected = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly options: NatsOptions,
    config: BrowConfigInput,
  ) {
    this.config = configSchema.parse(config);
    this.prefix = options.prefix ?? 'brow';
    this.s = subjects(this.prefix);
    this.inbox = `_INBOX.brow.${nc.info?.client_id ?? ''}${Math.random().toString(36).slice(2)}`;
    this.workers = new WorkerTable(nc, this.s);
    this.subs.push(
      nc.subscribe(`${this.inbox}.>`, {
        callback: (err, m) => {
          if (err) return;
          const call = m.subject.slice(this.inbox.length + 1).split('.')[0]!;
          this.backs.get(call)?.(m.subject, m.data);
        },
      }),
    );
    void this.watchConnection();
  }

  /** Connect to NATS and find the workers; `config` is the gateway's own (its doors' settings). */
  static async connect(options: NatsOptions, config: BrowConfigInput = {}): Promise<ClusterRuntime> {
    const nc = await connectNats({ ...options, name: options.name ?? 'brow-gateway' });
    const rt = new ClusterRuntime(nc, options, config);
    await rt.workers.refresh();
    return rt;
  }

  /**
   * A NATS disconnect fails the calls in flight clearly, and calls made until nats.js has reconnected
   * fail at once instead of waiting in its buffer.
   */
  private async watchConnection(): Promise<void> {
    for await (const st of this.nc.status()) {
      if (st.type === 'reconnect') this.disconnected = false;
      if (st.type !== 'disconnect') continue;
      this.disconnected = true;
      const out = failure(
        'connection_failed',
        'The connection to NATS was lost while the call ran; it may or may not have completed on its worker.',
        'Check the session with browser_list_pages, then repeat the call if needed (brow reconnects by itself).',
        { reason: 'nats_disconnected' },
      );
      for (const f of this.inflight.values()) f.fail(out);
    }
  }

  get inFlight(): number {
    return this.inflight.size;
  }

  async invoke(name: string, input: unknown, opts: InvokeOptions = {}): Promise<Outcome> {
    const out = await this.run(name, input, opts);
    // page text is marked here, by the gateway's configuration for the calling door (workers answer raw)
    return boundariesOn(this.config, opts.door, opts.boundaries) ? withBoundaries(out, name) : out;
  }

  private async run(name: string, input: unknown, opts: InvokeOptions): Promise<Outcome> {
    if (this.closed) return failure('session_closed', 'This gateway is closed.', 'Connect a new one.');
    if (this.disconnected) {
      return failure(
        'connection_failed',
        `brow is not connected to NATS right now; it is reconnecting.`,
        'Try again in a moment; if it persists, check the NATS server.',
        { reason: 'nats_disconnected' },
      );
    }
    const owner = opts.owner ?? null;
    if (name === 'browser_list_sessions' || name === 'browser_doctor') return this.fanOut(name, input, opts);
    const route = this.route(name, input, owner);
    if ('place' in route) return this.place(name, input, opts);
    const out = await this.send(route.worker, route.subject, name, input, opts, route.id);
    this.remember(owner, out, route.worker);
    return out;
  }

  /** Where a call goes: the worker its ids name, else the caller's last worker, else placement. */
  private route(name: string, input: unknown, owner: string | null): Route {
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

  private remember(owner: string | null, out: Outcome, worker: string): void {
    if (!out.ok) return;
    const w = workerOf(out.data.page_id) ?? workerOf(out.data.session_id) ?? worker;
    this.sticky.set(owner, w);
    if (this.sticky.size > 1000) this.sticky.delete(this.sticky.keys().next().value as string | null);
  }

  /** A new session: the most free worker first; a full or draining one refuses and the next is tried. */
  private async place(name: string, input: unknown, opts: InvokeOptions): Promise<Outcome> {
    const tried = new Set<string>();
    let last: Outcome | null = null;
    for (const w of await this.workers.candidates()) {
      tried.add(w);
      const out = await this.send(w, this.s.workerCall(w), name, input, opts);
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
      const out = await this.send('', this.s.place, name, input, opts);
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

  /** One call on one worker's subject; fails fast when the worker is gone, the caller aborts or NATS drops. */
  private async send(
    worker: string,
    subject: string,
    name: string,
    input: unknown,
    opts: InvokeOptions,
    id?: string,
  ): Promise<Outcome> {
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
          void this.consoleUrl.then((base) => tell(fillLinks(p.message!, base)));
        else tell(p.message);
      } else if (kind.startsWith('c')) chunks[Number(kind.slice(1))] = data;
    });
    let fail: (out: ErrorOutcome) => void = () => undefined;
    const failed = new Promise<ErrorOutcome>((r) => (fail = r));
    if (worker) this.inflight.set(call, { worker, fail });
    this.watchLiveness();
    const onAbort = () => {
      if (worker) this.nc.publish(this.s.workerOp(worker, 'cancel'), encode({ call }));
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
      const reply = this.nc
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
    return text.includes(GATEWAY_CONSOLE) ? fillAnswer(out, await this.consoleUrl) : out;
  }

  /** A request whose answer may come in chunks (on this gateway's inbox), parsed. */
  private async ask<T>(subject: string, msg: Record<string, unknown>, timeout: number): Promise<T> {
    const call = `${++this.seq}`;
    const back = `${this.inbox}.${call}`;
    const chunks: Uint8Array[] = [];
    this.backs.set(call, (subj, data) => {
      const kind = subj.slice(back.length + 1);
      if (kind.startsWith('c')) chunks[Number(kind.slice(1))] = data;
    });
    try {
      const m = await this.nc.request(subject, encode({ ...msg, back }), { timeout });
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
    this.workers.forget(worker);
    for (const [owner, w] of this.sticky) if (w === worker) this.sticky.delete(owner);
    const reason = this.workers.left.has(worker) ? 'worker_stopped' : 'worker_lost';
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
        this.nc
          .request(this.s.workerOp(w, 'ping'), encode({}), { timeout: 5000 })
          .catch(async (e: unknown) => {
            const { ErrorCode } = await import('nats');
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
    return Math.max(this.config.max_timeout_ms, own) + 30_000;
  }

  /** Calls about every session (list, doctor): each worker answers, the gateway merges. */
  private async fanOut(name: string, input: unknown, opts: InvokeOptions): Promise<Outcome> {
    const workers = await this.workers.refresh();
    const outs = await Promise.all(
      workers.map((w) => this.send(w.id, this.s.workerCall(w.id), name, input, opts)),
    );
    return name === 'browser_list_sessions'
      ? mergeSessions(outs)
      : mergeDoctor(workers, outs, await this.consoleUrl);
  }

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
      ids.map((w) => this.ask<BrowEvent[]>(this.s.workerOp(w, 'history'), q, 5000).catch(() => [])),
    );
    const byKey = new Map<string, BrowEvent>();
    for (const e of [...this.recent.filter((e) => matches(filter, e) && e.seq > sinceSeq), ...parts.flat()])
      byKey.set(`${e.session_id}#${e.seq}`, e);
    return [...byKey.values()].sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq);
  }

  /**
   * The gateway's own settings only: each worker keeps the configuration (and policies: read-only,
   * allowed schemes, attach) its operator gave it; a gateway cannot loosen them.
   */
  updateConfig(partial: Partial<BrowConfigInput>): BrowConfig {
    this.config = configSchema.parse({ ...this.config, ...partial });
    return this.config;
  }

  async releaseOwner(owner: string): Promise<void> {
    this.sticky.delete(owner);
    this.nc.publish(this.s.all('release'), encode({ owner }));
    await this.nc.flush();
  }

  live(): LiveSurface {
    return remoteLive(this.nc, this.s, this.workers, () => this.sticky.get(null) ?? null);
  }

  setConsoleUrl(url: string | null | Promise<string | null>): void {
    this.consoleUrl = Promise.resolve(url).catch(() => null);
  }

  /** Workers launch their own Chromium: nothing to start here. */
  prelaunch(): void {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.liveness);
    for (const f of this.inflight.values())
      f.fail(failure('session_closed', 'The gateway is closing.', 'Connect again.'));
    await this.nc.drain().catch(() => undefined);
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

function matches(f: EventFilter, e: BrowEvent): boolean {
  if (f.session_id && f.session_id !== e.session_id) return false;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  return true;
}
