/**
 * The library door: `const brow = await createBrow(config)` gives typed methods for every capability
 * (`brow.openPage({url})`, `brow.click({ref})`), `brow.call(name, input)`, events with `brow.on`,
 * and `brow.close()`, which closes the browser it launched. It runs the core in this process.
 */
import { capabilities } from '../../capabilities/registry.js';
import {
  failure as failureOutcome,
  type ErrorOutcome,
  type OkOutcome,
  type Outcome,
} from '../../runtime/outcome.js';
import type { NatsOptions } from '../../cluster/connect.js';
import { BrowRuntime, type BrowEvent, type EventFilter, type Runtime } from '../../runtime/runtime.js';
import type { BrowConfigInput } from './config.js';
import { methodName, type BrowMethods, type Result } from './methods.js';

/** A failed call in strict mode: the error code, message and hint of the Outcome, and the Outcome itself. */
export class BrowError extends Error {
  override readonly name = 'BrowError';
  readonly code: ErrorOutcome['data']['error_code'];
  readonly hint: string;
  readonly data: ErrorOutcome['data'];
  readonly outcome: ErrorOutcome;

  constructor(outcome: ErrorOutcome) {
    super(outcome.data.message);
    this.code = outcome.data.error_code;
    this.hint = outcome.data.hint;
    this.data = outcome.data;
    this.outcome = outcome;
  }
}

export interface BrowOptions<Strict extends boolean = false> {
  /** Throw a BrowError for a failed call instead of resolving with `ok: false` (default false). */
  strict?: Strict;
  /** Who calls: sessions started through this instance belong to it (default: none, as the CLI and HTTP door). */
  owner?: string | null;
}

export interface CapabilityInfo {
  name: string;
  method: string;
  title: string;
  description: string;
  group: string;
}

export type Brow<Strict extends boolean = false> = BrowMethods<Strict> & {
  /** Call any capability by its tool name, e.g. `call('browser_click', {ref: 'e3'})`. */
  call(name: string, input?: Record<string, unknown>): Promise<Result<Strict>>;
  /** Subscribe to events (session-started, navigated, console-event, …); returns the unsubscribe function. */
  on(filter: EventFilter, fn: (event: BrowEvent) => void): () => void;
  /** Every capability with its method name. */
  readonly capabilities: CapabilityInfo[];
  /** Stop every session and close the browser this instance launched. Idempotent. */
  close(): Promise<void>;
  readonly closed: boolean;
};

function failure(code: 'invalid_request' | 'session_closed', message: string, hint: string): ErrorOutcome {
  return failureOutcome(code, message, hint);
}

/**
 * Create a brow instance. `config` is brow's configuration (max_sessions, executable, headless, …);
 * for brow.config.json and BROW_* variables pass `loadConfig().config`. Nothing launches until a call needs a browser.
 * With `nats` (a URL or NatsOptions) the calls run on a brow cluster's workers instead of in this process.
 */
export async function createBrow<Strict extends boolean = false>(
  config: BrowConfigInput & { nats?: string | NatsOptions } = {},
  options: BrowOptions<Strict> = {},
): Promise<Brow<Strict>> {
  let runtime: Runtime;
  const { nats, ...local } = config;
  try {
    if (nats) {
      // a gateway: the calls run on the cluster's workers (docs/cluster.md)
      const { ClusterRuntime } = await import('../../cluster/gateway.js');
      runtime = await ClusterRuntime.connect(typeof nats === 'string' ? { url: nats } : nats, local);
    } else runtime = new BrowRuntime(local);
  } catch (e) {
    const msg = e instanceof Error ? e.message.replace(/\s+/g, ' ') : String(e);
    throw new BrowError(
      failure('invalid_request', `Invalid brow configuration: ${msg}`, 'Fix the named key.'),
    );
  }
  const owner = options.owner ?? null;
  let closed = false;
  let closing: Promise<void> | null = null;

  const call = async (name: string, input: Record<string, unknown> = {}): Promise<Result<Strict>> => {
    const outcome: Outcome = closed
      ? failure('session_closed', 'This brow instance is closed.', 'Create a new one with createBrow().')
      : await runtime.invoke(name, input, { owner, door: 'lib' });
    if (!outcome.ok && options.strict) throw new BrowError(outcome);
    return outcome as Result<Strict>;
  };

  const brow = {
    call,
    on: (filter: EventFilter, fn: (event: BrowEvent) => void) => runtime.subscribe(filter, fn),
    capabilities: capabilities.map((c) => ({
      name: c.name,
      method: methodName(c.name),
      title: c.title,
      description: c.description,
      group: c.group,
    })),
    close: () => {
      closed = true;
      closing ??= runtime.close();
      return closing;
    },
    get closed() {
      return closed;
    },
  } as Record<string, unknown>;
  for (const c of capabilities) {
    const method = methodName(c.name);
    if (method in brow) throw new Error(`Capability ${c.name} would shadow brow.${method}.`);
    brow[method] = (input?: Record<string, unknown>) => call(c.name, input ?? {});
  }
  return brow as Brow<Strict>;
}

export type { BrowEvent, EventFilter, OkOutcome, Outcome, ErrorOutcome };
