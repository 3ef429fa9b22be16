/**
 * `brow worker` as its own process against the engine double: it registers, serves functions, and
 * stops cleanly on SIGTERM. The hanging-subscriber measurement runs here too, with the worker and
 * the subscriber in separate processes as they are in a deployment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../doors/helpers.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { scaled } from '../scale.js';
import { startEngine, type EngineHarness } from './engine-harness.js';
import { agentClient, until } from './setup.js';

const ROOT = new URL('../../', import.meta.url);
let engine: EngineHarness;
let fixtures: FixtureServer;
const children: ChildProcess[] = [];

function start(args: string[], env: Record<string, string> = {}): { proc: ChildProcess; out: () => string } {
  let out = '';
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, OTEL_ENABLED: '', III_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  children.push(proc);
  return { proc, out: () => out };
}
const exited = (p: ChildProcess) =>
  p.exitCode !== null
    ? Promise.resolve(p.exitCode)
    : new Promise<number | null>((r) => p.once('exit', (c) => r(c)));

beforeAll(async () => {
  // the worker runs from dist/: built from the sources as they are (skipped when it already is)
  buildOnce();
  engine = await startEngine();
  fixtures = await startFixtureServer();
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await engine?.close();
  await fixtures?.close();
});

// each test starts brow worker processes (and a Chromium): their budget follows the machine's load
describe('brow worker', { timeout: scaled(60_000) }, () => {
  it('takes its engine from III_URL, and from --engine', async () => {
    const viaEnv = start(['bin/brow.js', 'worker', '--name', 'browser-env'], { III_URL: engine.url });
    await engine.waitFor(
      () => engine.workers().some((w) => w.name === 'browser-env'),
      'the worker from III_URL',
      20_000,
    );
    viaEnv.proc.kill('SIGTERM');
    expect(await exited(viaEnv.proc)).toBe(0);
    expect(viaEnv.out()).toMatch(/browser::\* functions for the engine at ws:\/\/127\.0\.0\.1/);
  });

  it('serves functions from its own process, and a hanging subscriber does not slow snapshots', async () => {
    const worker = start(['bin/brow.js', 'worker', '--engine', engine.url]);
    await engine.waitFor(
      () => engine.functionIds().includes('browser::snapshot'),
      'the worker functions',
      20_000,
    );
    const agent = agentClient(engine.url, 'cli-agent');
    try {
      const call = (id: string, payload: Record<string, unknown>) =>
        agent.trigger<unknown, any>({ function_id: id, payload, timeoutMs: 60_000 });
      const sid = (await call('browser::sessions::start', { url: fixtures.url('bus/noisy.html') }))
        .session_id as string;
      const time = async (n: number) => {
        const ms: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const s = await call('browser::snapshot', { session_id: sid });
          ms.push(performance.now() - t0);
          expect(s.tree).toMatch(/listitem "Item 199"|Item 199/);
        }
        ms.sort((a, b) => a - b);
        return { median: ms[Math.floor(n / 2)]!, p90: ms[Math.floor(n * 0.9)]! };
      };
      await time(3);
      const quiet = await time(20);

      const sub = start(['tests/bus/hanging-subscriber.mjs', engine.url, sid]);
      const delivered = () => Number(/delivered (\d+)\n(?![\s\S]*delivered)/.exec(sub.out())?.[1] ?? 0);
      await until(() => delivered() > 200, 'events reaching the hanging subscriber', 20_000);
      const before = delivered();
      const loaded = await time(20);
      // the subscriber's next report (every 200 ms) counts the events that reached it meanwhile
      const reports = () => sub.out().match(/delivered \d+\n/g)?.length ?? 0;
      const seen = reports();
      await until(() => reports() > seen, 'the subscriber to report again', 20_000);
      console.log(
        `[bus] snapshot latency on noisy.html (2000 console entries/s), worker and subscriber in their own processes, 20 calls: ` +
          `no subscriber median ${quiet.median.toFixed(1)} ms, p90 ${quiet.p90.toFixed(1)} ms; ` +
          `hanging console-event subscriber median ${loaded.median.toFixed(1)} ms, p90 ${loaded.p90.toFixed(1)} ms ` +
          `(${delivered() - before} events delivered to it meanwhile, capped at ${process.env.BROW_BUS_EVENT_RATE || 500}/s per binding)`,
      );
      sub.proc.kill('SIGTERM');
      await call('browser::sessions::stop', { session_id: sid });
    } finally {
      await agent.shutdown();
    }
    worker.proc.kill('SIGTERM');
    expect(await exited(worker.proc)).toBe(0);
  });
});
