/** The worker survives an engine restart: it reconnects, re-registers, and keeps its sessions. */
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
    // the worker has seen the engine go: its socket closed, it backs off and retries (the SDK's
    // connection state, a field its types do not declare)
    const state = () => (env.worker.client as unknown as { connectionState?: string }).connectionState;
    await until(
      () => ['disconnected', 'connecting', 'reconnecting'].includes(state() ?? ''),
      'the worker to see the engine go',
    );

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
