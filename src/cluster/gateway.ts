/**
 * The gateway (`brow serve --nats`, `brow mcp --nats`, `createBrow({nats})`): a Runtime whose calls
 * run on cluster workers. Stateless but for caches: a call naming a session, page or handoff goes
 * to the worker its id names (per-session subject); a new session goes to the worker with the most
 * free capacity; calls without a session fan out and merge. A worker that dies makes its sessions'
 * calls answer session_closed (reason worker_lost) at once, never a hang.
 *
 * The class holds the parts together: gateway-calls.ts (a call to a worker and its guards),
 * gateway-routes.ts (which worker a call goes to), workers.ts (who is there), gateway-events.ts
 * (events and history), fan-out.ts (calls every worker answers).
 */
import type { NatsConnection } from 'nats';
import type { AnyCapability } from '../capabilities/define.js';
import { boundariesOn, withBoundaries } from '../runtime/boundaries.js';
import { failure, type Outcome } from '../runtime/outcome.js';
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
import { mergeDoctor, mergeSessions } from './fan-out.js';
import { WorkerCalls } from './gateway-calls.js';
import { GatewayEvents } from './gateway-events.js';
import { remoteLive } from './gateway-live.js';
import { Routes } from './gateway-routes.js';
import { encode, subjects } from './subjects.js';
import { WorkerTable } from './workers.js';

export class ClusterRuntime implements Runtime {
  readonly capabilities: AnyCapability[] = capabilities;
  config: BrowConfig;
  readonly workers: WorkerTable;
  private readonly s: ReturnType<typeof subjects>;
  private readonly calls: WorkerCalls;
  private readonly routes: Routes;
  private readonly events: GatewayEvents;
  private consoleUrl: Promise<string | null> = Promise.resolve(null);
  private closed = false;
  private disconnected = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly options: NatsOptions,
    config: BrowConfigInput,
  ) {
    this.config = configSchema.parse(config);
    const prefix = options.prefix ?? 'brow';
    this.s = subjects(prefix);
    this.workers = new WorkerTable(nc, this.s);
    this.calls = new WorkerCalls({
      nc,
      s: this.s,
      workers: this.workers,
      maxTimeoutMs: () => this.config.max_timeout_ms,
      consoleUrl: () => this.consoleUrl,
      onLost: (worker) => this.routes.forgetWorker(worker),
    });
    this.routes = new Routes(this.s, this.workers, this.calls);
    this.events = new GatewayEvents(nc, prefix, this.s, this.workers, this.calls);
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
      this.calls.failAll(
        failure(
          'connection_failed',
          'The connection to NATS was lost while the call ran; it may or may not have completed on its worker.',
          'Check the session with browser_list_pages, then repeat the call if needed (brow reconnects by itself).',
          { reason: 'nats_disconnected' },
        ),
      );
    }
  }

  get inFlight(): number {
    return this.calls.size;
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
    const route = this.routes.route(name, input, owner);
    if ('place' in route) return this.routes.place(name, input, opts);
    const out = await this.calls.send(route.worker, route.subject, name, input, opts, route.id);
    this.routes.remember(owner, out, route.worker);
    return out;
  }

  /** Calls about every session (list, doctor): each worker answers, the gateway merges. */
  private async fanOut(name: string, input: unknown, opts: InvokeOptions): Promise<Outcome> {
    const workers = await this.workers.refresh();
    const outs = await Promise.all(
      workers.map((w) => this.calls.send(w.id, this.s.workerCall(w.id), name, input, opts)),
    );
    return name === 'browser_list_sessions'
      ? mergeSessions(outs)
      : mergeDoctor(workers, outs, await this.consoleUrl);
  }

  /**
   * Subscribe to the workers' events: NATS delivers only what the filter asks for (its session's
   * subjects, its types), so a gateway is not sent every page's network events.
   */
  subscribe(filter: EventFilter, fn: (e: BrowEvent) => void): () => void {
    return this.events.subscribe(filter, fn);
  }

  /** Recent events after a per-session seq, from the workers and this gateway's listeners, in time order. */
  history(filter: EventFilter, sinceSeq = 0): Promise<BrowEvent[]> {
    return this.events.history(filter, sinceSeq);
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
    this.routes.release(owner);
    this.nc.publish(this.s.all('release'), encode({ owner }));
    await this.nc.flush();
  }

  live(): LiveSurface {
    return remoteLive(this.nc, this.s, this.workers, () => this.routes.last(null));
  }

  setConsoleUrl(url: string | null | Promise<string | null>): void {
    this.consoleUrl = Promise.resolve(url).catch(() => null);
  }

  /** Workers launch their own Chromium: nothing to start here. */
  prelaunch(): void {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.calls.stop();
    this.calls.failAll(failure('session_closed', 'The gateway is closing.', 'Connect again.'));
    await this.nc.drain().catch(() => undefined);
  }
}
