/** The worker survives an engine restart, and a subscriber that never answers does not slow snapshots. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine } from './engine-harness.js';
import { busEnv, until, type BusEnv } from './setup.js';

let env: BusEnv;
beforeAll(async () => {
  env = await busEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('engine restart', () => {
  it('reconnects with backoff, re-registers everything, and keeps its sessions', async () => {
    const got: unknown[] = [];
    env.agent.registerFunction('sub::nav', async (p: unknown) => {
      got.push(p);
      return null;
    });
    env.agent.registerTrigger({ type: 'browser::navigated', function_id: 'sub::nav', config: {} });
    const sid = (await env.call('browser::sessions::start', { url: env.server.url('bus/form.html') }))
      .session_id;
    const before = (await env.call('browser::snapshot', { session_id: sid })).tree;
    const oldWorkerId = env.engine.workers().find((w) => w.name === 'browser')!.id;
    const port = env.engine.port;

    await env.engine.close();
    // while the engine is down a call cannot be delivered; it is not lost by the worker either
    await expect(env.call('browser::doctor', {}, 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await new Promise((r) => setTimeout(r, 300));

    env.engine = await startEngine({ port });
    await env.engine.waitFor(
      () => env.engine.functionIds().includes('browser::snapshot'),
      'the functions again',
    );
    // the SDK replays: reattach with the old worker id, trigger types, functions, then the worker metadata
    const from = env.engine.frames.filter((f) => f.dir === 'in' && f.msg.type !== 'invokefunction');
    expect(
      from.find((f) => f.msg.type === 'reattach' && f.msg.previous_worker_id === oldWorkerId),
    ).toBeDefined();
    await env.engine.waitFor(
      () => env.engine.workers().some((w) => w.name === 'browser'),
      'the worker metadata',
    );
    expect(env.engine.triggerTypes().map((t) => t.id)).toContain('browser::console-event');
    // the agent replays its binding; the engine hands it to the browser worker again
    await env.engine.waitFor(
      () => env.engine.triggers().some((t) => t.function_id === 'sub::nav' && t.status === 'ok'),
      'the replayed binding',
    );

    const after = await env.call('browser::snapshot', { session_id: sid });
    expect(after.tree.replace(/\[ref=e\d+\]/g, '')).toBe(before.replace(/\[ref=e\d+\]/g, ''));
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/second.html') });
    await until(() => got.some((p: any) => p.url.endsWith('second.html')), 'a trigger after the restart');
  });
});

describe('a subscriber that never answers', () => {
  it('does not slow snapshots of a page that logs a lot', async () => {
    const sid = (await env.call('browser::sessions::start', { url: env.server.url('bus/noisy.html') }))
      .session_id;
    const timeSnapshots = async (n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await env.call('browser::snapshot', { session_id: sid });
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      return { median: ms[Math.floor(n / 2)]!, max: ms[n - 1]! };
    };
    await timeSnapshots(3); // warm up
    const quiet = await timeSnapshots(15);

    let delivered = 0;
    env.agent.registerFunction('sub::hang', () => {
      delivered += 1;
      return new Promise(() => undefined); // never answers
    });
    const t = env.agent.registerTrigger({
      type: 'browser::console-event',
      function_id: 'sub::hang',
      config: { session_id: sid },
    });
    await env.engine.waitFor(
      () => env.engine.triggers().some((x) => x.function_id === 'sub::hang' && x.status === 'ok'),
      'the hanging binding',
    );
    await until(() => delivered > 100, 'console events reaching the hanging subscriber');
    const atStart = delivered;
    const loaded = await timeSnapshots(15);
    console.log(
      `[bus] snapshot latency on noisy.html (15 calls through the engine double): ` +
        `no subscriber median ${quiet.median.toFixed(1)} ms, max ${quiet.max.toFixed(1)} ms; ` +
        `hanging console-event subscriber median ${loaded.median.toFixed(1)} ms, max ${loaded.max.toFixed(1)} ms; ` +
        `${delivered} console events delivered to it (${delivered - atStart} during the timed calls)`,
    );
    expect(loaded.median).toBeGreaterThan(0);
    expect(delivered).toBeGreaterThan(atStart);
    t.unregister();
    await env.call('browser::sessions::stop', { session_id: sid });
  });
});
