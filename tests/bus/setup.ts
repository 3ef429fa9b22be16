/** Bus test setup: the fixture server, the engine double, brow's bus worker, and an agent client (real iii-sdk). */
import { registerWorker, type IIIClient } from 'iii-sdk';
import { parseBusError } from '../../src/doors/bus/errors.js';
import { runBusWorker, type BusWorker } from '../../src/doors/bus/worker.js';
import type { BrowConfigInput } from '../../src/core/config.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { scaled } from '../scale.js';
import { startEngine, type EngineHarness } from './engine-harness.js';

/** Short backoff so reconnect tests take a second, not the SDK's default 1 s → 30 s. */
export const FAST_RECONNECT = { initialDelayMs: 100, maxDelayMs: 400 };

/** A real iii-sdk client: the agent that calls functions and the subscriber that receives triggers. */
export function agentClient(url: string, name = 'agent'): IIIClient {
  return registerWorker(url, {
    workerName: name,
    otel: { enabled: false },
    enableMetricsReporting: false,
    reconnectionConfig: FAST_RECONNECT,
  });
}

export interface BusEnv {
  server: FixtureServer;
  engine: EngineHarness;
  runtime: BrowRuntime;
  worker: BusWorker;
  agent: IIIClient;
  logs: string[];
  /** Invoke a function through the engine, as an agent does. */
  call<T = any>(id: string, payload?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Invoke and expect a failure: the brow code parsed from the message, and the wire error code. */
  fail(
    id: string,
    payload?: Record<string, unknown>,
  ): Promise<{ code: string; wire: string; message: string }>;
  close(): Promise<void>;
}

export async function busEnv(
  opts: { config?: BrowConfigInput; configuration?: boolean } = {},
): Promise<BusEnv> {
  ensureInjectedBuilt();
  const server = await startFixtureServer();
  const engine = await startEngine();
  const runtime = new BrowRuntime(opts.config ?? {});
  const logs: string[] = [];
  const worker = runBusWorker(runtime, {
    engine: engine.url,
    reconnection: FAST_RECONNECT,
    configuration: opts.configuration ?? false,
    log: (m) => logs.push(m),
  });
  const agent = agentClient(engine.url);
  await engine.waitFor(
    () => engine.functionIds().includes('browser::styles::write'),
    'the browser functions',
  );
  const call = <T = any>(id: string, payload: Record<string, unknown> = {}, timeoutMs = 60_000) =>
    agent.trigger<unknown, T>({ function_id: id, payload, timeoutMs });
  const fail = async (id: string, payload: Record<string, unknown> = {}) => {
    try {
      await call(id, payload);
    } catch (e) {
      const err = e as { code?: string; message: string };
      return { code: parseBusError(err.message)?.code ?? '', wire: err.code ?? '', message: err.message };
    }
    throw new Error(`${id} unexpectedly succeeded`);
  };
  const env: BusEnv = {
    server,
    engine,
    runtime,
    worker,
    agent,
    logs,
    call,
    fail,
    async close() {
      await agent.shutdown();
      await worker.close();
      await runtime.close();
      await env.engine.close(); // a test may have replaced the engine (restart)
      await server.close();
    },
  };
  return env;
}

/** Wait until a condition holds (polling every 20 ms), for at most scaled(timeoutMs). */
export async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const t0 = Date.now();
  const limit = scaled(timeoutMs);
  while (!cond()) {
    if (Date.now() - t0 > limit) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
