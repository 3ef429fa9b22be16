/** The runtime doors hold: a core plus invoke(). Doors never touch puppeteer or core objects. */
import type { AnyCapability } from '../capabilities/define.js';
import { capabilities } from '../capabilities/registry.js';
import { BrowCore } from '../core/core.js';
import type { BrowConfig, BrowConfigInput } from '../core/config.js';
import type { BrowEvent, EventFilter } from '../core/observe/events.js';
import { invoke } from './invoke.js';
import type { Outcome } from './outcome.js';

export interface InvokeOptions {
  /** Who calls: sessions started by this caller belong to it. */
  owner?: string | null;
  signal?: AbortSignal;
  /** Progress of a long call (see CapabilityContext.progress). */
  progress?: (done: number, total?: number, message?: string) => void;
}

export class BrowRuntime {
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

  invoke(name: string, input: unknown, opts: InvokeOptions = {}): Promise<Outcome> {
    return invoke(name, input, {
      core: this.core,
      owner: opts.owner ?? null,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.progress ? { progress: opts.progress } : {}),
    });
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
}

export type { Outcome } from './outcome.js';
export type { BrowEvent, BrowEventType, EventFilter } from '../core/observe/events.js';
export { EVENT_TYPES } from '../core/observe/events.js';
export { configSchema } from '../core/config.js';
