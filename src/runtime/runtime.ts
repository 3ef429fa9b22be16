/** The runtime doors hold: a core plus invoke(). Doors never touch puppeteer or core objects. */
import type { AnyCapability } from '../capabilities/define.js';
import { capabilities } from '../capabilities/registry.js';
import { BrowCore } from '../core/core.js';
import { setConsoleUrl } from '../core/live/console-link.js';
import { liveSurface, type LiveSurface } from '../core/live/surface.js';
import type { BrowConfig, BrowConfigInput } from '../core/config.js';
import type { BrowEvent, EventFilter } from '../core/observe/events.js';
import { boundariesOn, withBoundaries, type BoundaryDoor } from './boundaries.js';
import { invoke } from './invoke.js';
import type { Outcome } from './outcome.js';

export interface InvokeOptions {
  /** Who calls: sessions started by this caller belong to it. */
  owner?: string | null;
  signal?: AbortSignal;
  /** Progress of a long call (see CapabilityContext.progress). */
  progress?: (done: number, total?: number, message?: string) => void;
  /** The door calling: its answers mark page text when the `content_boundaries` key lists it. */
  door?: BoundaryDoor;
  /** Mark page text (true) or not (false) whatever the configuration says (a door's own option). */
  boundaries?: boolean;
}

/**
 * What every door holds: the local BrowRuntime (a core in this process) or a cluster gateway
 * (src/cluster), which serves the same calls from workers elsewhere.
 */
export interface Runtime {
  readonly config: BrowConfig;
  readonly capabilities: AnyCapability[];
  invoke(name: string, input: unknown, opts?: InvokeOptions): Promise<Outcome>;
  /** Subscribe to the event stream; returns the unsubscribe function. */
  subscribe(filter: EventFilter, fn: (e: BrowEvent) => void): () => void;
  /** Recent events matching the filter, after a per-session seq (a cluster gateway asks its workers: a promise). */
  history(filter: EventFilter, sinceSeq?: number): BrowEvent[] | Promise<BrowEvent[]>;
  updateConfig(partial: Partial<BrowConfigInput>): BrowConfig;
  releaseOwner(owner: string): Promise<void>;
  close(): Promise<void>;
  /** The web console's view: sessions, a page's frames, a person's input. */
  live(): LiveSurface;
  /** Record where the web console is served (handoffs and the doctor name it). */
  setConsoleUrl(url: string | null | Promise<string | null>): void;
  /** Start launching Chromium now, for a door whose client will surely need it. */
  prelaunch(): void;
}

export class BrowRuntime implements Runtime {
  readonly core: BrowCore;

  constructor(config: BrowConfigInput = {}) {
    this.core = new BrowCore(config);
  }

  get config(): BrowConfig {
    return this.core.config;
  }

  /** Every capability (the doors' tool lists). */
  get capabilities(): AnyCapability[] {
    return capabilities;
  }

  async invoke(name: string, input: unknown, opts: InvokeOptions = {}): Promise<Outcome> {
    const outcome = await invoke(name, input, {
      core: this.core,
      owner: opts.owner ?? null,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.progress ? { progress: opts.progress } : {}),
    });
    // the one place page text is marked for a model (src/runtime/boundaries.ts)
    return boundariesOn(this.config, opts.door, opts.boundaries) ? withBoundaries(outcome, name) : outcome;
  }

  /** Subscribe to the event stream; returns the unsubscribe function. */
  subscribe(filter: EventFilter, fn: (e: BrowEvent) => void): () => void {
    return this.core.events.subscribe(filter, fn);
  }

  /** Recent events (the last 1000) matching the filter, after a per-session seq: how a reader resumes. */
  history(filter: EventFilter, sinceSeq = 0): BrowEvent[] {
    return this.core.events.history(filter, sinceSeq);
  }

  /** Change configuration live; throws a ZodError naming a bad key or value. */
  updateConfig(partial: Partial<BrowConfigInput>): BrowConfig {
    return this.core.updateConfig(partial);
  }

  /** Stop sessions owned by a caller that went away. */
  async releaseOwner(owner: string): Promise<void> {
    const mine = [...this.core.sessions.values()].filter((s) => s.options.owner === owner);
    await Promise.all(mine.map((s) => s.stop('stopped')));
  }

  close(): Promise<void> {
    return this.core.close();
  }

  live(): LiveSurface {
    return liveSurface(this.core);
  }

  setConsoleUrl(url: string | null | Promise<string | null>): void {
    setConsoleUrl(this.core, url);
  }

  prelaunch(): void {
    this.core.prelaunch();
  }
}

export type { Outcome } from './outcome.js';
export type { BrowEvent, BrowEventType, EventFilter } from '../core/observe/events.js';
export { EVENT_TYPES } from '../core/observe/events.js';
export { configSchema } from '../core/config.js';
export type { LiveSurface, LiveOverview } from '../core/live/surface.js';
export { setWorkerId } from '../core/ids.js';
