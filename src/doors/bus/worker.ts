/**
 * The bus door: brow as seed 002's `browser` worker on an iii engine. Functions from the table in
 * functions.ts, triggers from the core's event stream, configuration from the configuration worker.
 * The iii SDK reconnects with its backoff (1 s → 30 s, ×2, jitter 0.3) and replays every
 * registration (trigger types, functions, bindings) on each new connection.
 */
import { registerWorker, type IIIClient, type InitOptions } from 'iii-sdk';
import { z } from 'zod';
import { setDoorNames } from '../../runtime/door-names.js';
import { cancelReason, type ErrorOutcome } from '../../runtime/outcome.js';
import type { BrowRuntime } from '../../runtime/runtime.js';
import { syncConfiguration } from './config-sync.js';
import { BusError } from './errors.js';
import { DEFAULT_FLOW, type FlowOptions } from './flow.js';
import { BUS_FUNCTIONS, type BusFunction } from './functions.js';
import { DEFAULT_ENGINE } from './load.js';
import { registerTriggers, startUrlsOf } from './triggers.js';

export interface BusWorkerOptions {
  /** Engine WebSocket URL (default III_URL, else ws://127.0.0.1:49134). */
  engine?: string;
  /** Worker name (default III_WORKER_NAME, else "browser"). */
  workerName?: string;
  /** Override the SDK's reconnection backoff (tests make it short). */
  reconnection?: InitOptions['reconnectionConfig'];
  /** Trigger flow control per binding (default 500 events/s, bursts of 1000, 4 MiB socket backlog). */
  flow?: Partial<FlowOptions>;
  /** Register the configuration schema when the engine has a configuration worker (default true). */
  configuration?: boolean;
  log?: (msg: string) => void;
}

export interface BusWorker {
  client: IIIClient;
  engine: string;
  /** Function ids registered. */
  functions: string[];
  /** Resolves once the configuration sync finished (true when a configuration worker answered). */
  configured: Promise<boolean>;
  /** The functions the worker delivers trigger events to now, one per binding. */
  boundFunctions(): string[];
  close(): Promise<void>;
}

/** Capability names in error text, as the bus door's function ids (hints name what to call next). */
const RENAMES: [string, string][] = [
  ...BUS_FUNCTIONS.flatMap((f): [string, string][] =>
    typeof f.capability === 'string' ? [[f.capability, f.id]] : [],
  ),
  ['browser_open_page', 'browser::sessions::start'],
  ['browser_list_pages', 'browser::sessions::list'],
  ...['click', 'hover', 'type', 'press', 'scroll', 'select', 'drag'].map((a): [string, string] => [
    `browser_${a}`,
    'browser::act',
  ]),
];
setDoorNames('bus', RENAMES);

const describeIssues = (f: BusFunction, e: z.ZodError): BusError => {
  const parts = e.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown field(s) ${i.keys.map((k) => `"${k}"`).join(', ')}`
      : `${i.path.join('.') || '(payload)'}: ${i.message}`,
  );
  return new BusError(
    'invalid_request',
    `Invalid payload for ${f.id}: ${parts.join('; ')}.`,
    `${f.id} takes: ${Object.keys(f.request.shape).join(', ') || 'nothing'}.`,
  );
};

/** Run one bus function: validate the seed payload, invoke the capability, translate the result. */
export async function runBusFunction(
  runtime: BrowRuntime,
  f: BusFunction,
  payload: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const parsed = f.request.safeParse(payload ?? {});
  if (!parsed.success) throw describeIssues(f, parsed.error);
  const p = parsed.data;
  const name = typeof f.capability === 'string' ? f.capability : f.capability(p);
  const cap = runtime.capabilities.find((c) => c.name === name);
  if (!cap) {
    throw new BusError(
      'capability_unavailable',
      `${f.id} needs the capability ${name}, which this brow build does not have yet.`,
      'Use another browser::* function for now (browser::doctor lists what is available).',
    );
  }
  // the engine's protocol carries no cancel and no caller deadline: a call ends on its own
  // timeout_ms, invoke's deadline, or the worker's close (signal)
  const call = (n: string, input: Record<string, unknown>) =>
    runtime.invoke(n, input, signal ? { signal } : {});
  const error = (o: ErrorOutcome) => BusError.from(o);
  const starts = f.id === 'browser::sessions::start' ? startUrlsOf(runtime) : null;
  const ended = starts?.begin();
  try {
    const o = await call(name, f.input(p, new Set(Object.keys(cap.input.shape))));
    if (!o.ok) {
      const recovered = f.recover?.(o.data, p);
      if (recovered !== undefined) return recovered;
      throw error(o);
    }
    return await f.output(o.data, p, {
      call,
      error,
      config: runtime.config,
      content: o.content,
      ...(o.images ? { images: o.images } : {}),
      ...(starts ? { startedWith: (id: string, url: string) => starts.named(id, url) } : {}),
    });
  } finally {
    ended?.();
  }
}

const otelOn = (): boolean => {
  const v = process.env.OTEL_ENABLED?.toLowerCase();
  return v !== undefined && !['false', '0', 'no', 'off', ''].includes(v);
};

/** Connect to the engine and serve `browser::*` until close(). */
export function runBusWorker(runtime: BrowRuntime, opts: BusWorkerOptions = {}): BusWorker {
  const engine = opts.engine ?? process.env.III_URL ?? DEFAULT_ENGINE;
  const log = opts.log ?? ((m: string) => process.stderr.write(`[brow worker] ${m}\n`));
  const otel = otelOn();
  const client = registerWorker(engine, {
    workerName: opts.workerName ?? process.env.III_WORKER_NAME ?? 'browser',
    workerDescription:
      'Real Chromium sessions as data: snapshots with refs, actions, console and network capture.',
    // OpenTelemetry opens a second socket and patches fetch: opt in with OTEL_ENABLED=true
    otel: { enabled: otel },
    enableMetricsReporting: otel,
    ...(opts.reconnection ? { reconnectionConfig: opts.reconnection } : {}),
  });

  // trigger types first, so bindings replayed by other workers find them
  const triggers = registerTriggers(client, runtime, log, { ...DEFAULT_FLOW, ...opts.flow });
  // closing the worker cancels the calls it is serving (their waits and page work stop)
  const closing = new AbortController();
  for (const f of BUS_FUNCTIONS) {
    client.registerFunction(f.id, (payload: unknown) => runBusFunction(runtime, f, payload, closing.signal), {
      description: f.description,
      request_format: z.toJSONSchema(f.request, { io: 'input' }) as Record<string, unknown>,
      response_format: z.toJSONSchema(f.response, { io: 'output' }) as Record<string, unknown>,
      metadata: { capability: typeof f.capability === 'string' ? f.capability : 'by action' },
    });
  }
  const configured =
    opts.configuration === false
      ? Promise.resolve(false)
      : syncConfiguration(client, runtime, log, closing.signal).catch(() => false);

  return {
    client,
    engine,
    functions: BUS_FUNCTIONS.map((f) => f.id),
    configured,
    boundFunctions: () => [...triggers.bindings.values()].map((b) => b.function_id),
    async close() {
      closing.abort(
        cancelReason(
          'connection_failed',
          'The bus worker is shutting down; the call was cancelled.',
          'Call again once a browser worker is connected.',
        ),
      );
      triggers.stop();
      await client.shutdown();
    },
  };
}
