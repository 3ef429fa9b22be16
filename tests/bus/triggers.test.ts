/** browser::* triggers: delivery to bindings with and without a session filter, payloads, refused configs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busEnv, until, type BusEnv } from './setup.js';
import { scaled } from '../scale.js';

let env: BusEnv;
type Got = { fn: string; payload: any };
const got: Got[] = [];
const of = (fn: string) => got.filter((g) => g.fn === fn).map((g) => g.payload);

beforeAll(async () => {
  env = await busEnv();
  for (const fn of [
    'sub::all-console',
    'sub::one-console',
    'sub::started',
    'sub::stopped',
    'sub::navigated',
    'sub::network',
    'sub::late',
  ]) {
    env.agent.registerFunction(fn, async (payload: unknown) => {
      got.push({ fn, payload });
      return null;
    });
  }
});
afterAll(async () => {
  await env?.close();
});

const bind = (type: string, function_id: string, config: Record<string, unknown> = {}) =>
  env.agent.registerTrigger({ type, function_id, config });
const bound = (function_id: string) =>
  env.engine.waitFor(
    () => env.engine.triggers().some((t) => t.function_id === function_id && t.status === 'ok'),
    `the binding of ${function_id}`,
  );

describe('triggers', () => {
  let a: string;
  let b: string;

  it('delivers session-started, navigated and console events; a session_id binding sees only its session', async () => {
    bind('browser::session-started', 'sub::started');
    bind('browser::navigated', 'sub::navigated');
    bind('browser::console-event', 'sub::all-console');
    await Promise.all(['sub::started', 'sub::navigated', 'sub::all-console'].map(bound));
    a = (await env.call('browser::sessions::start', {})).session_id;
    b = (await env.call('browser::sessions::start', {})).session_id;
    bind('browser::console-event', 'sub::one-console', { session_id: a });
    await bound('sub::one-console');

    const page = env.server.url('bus/console.html');
    await env.call('browser::navigate', { session_id: a, url: page });
    await env.call('browser::navigate', { session_id: b, url: page });
    await until(
      () => of('sub::all-console').filter((p) => p.entry.text === 'boom: an error').length === 2,
      'console events of both sessions',
    );
    await until(
      () => of('sub::one-console').some((p) => p.entry.text === 'boom: an error'),
      'console events of session a',
    );

    const started = of('sub::started').filter((p) => p.session_id === a || p.session_id === b);
    expect(started).toHaveLength(2);
    expect(started[0]).toEqual({
      session_id: a,
      url: 'about:blank',
      headless: true,
      timestamp: expect.any(Number),
      seq: expect.any(Number),
    });
    expect(of('sub::navigated')).toContainEqual(
      expect.objectContaining({ session_id: b, url: page, timestamp: expect.any(Number) }),
    );

    const one = of('sub::one-console');
    expect(one.length).toBeGreaterThanOrEqual(3);
    expect(one.every((p) => p.session_id === a)).toBe(true);
    const boom = one.find((p) => p.entry.text === 'boom: an error');
    expect(boom).toEqual({
      session_id: a,
      seq: expect.any(Number),
      entry: {
        seq: expect.any(Number),
        timestamp: expect.any(Number),
        level: 'error',
        text: 'boom: an error',
        source: expect.stringContaining('console.html'),
      },
    });
    const all = of('sub::all-console');
    expect(new Set(all.map((p) => p.session_id))).toEqual(new Set([a, b]));
    // once per event per binding: no entry of a session arrives twice
    for (const s of [a, b]) {
      const seqs = all.filter((p) => p.session_id === s).map((p) => p.entry.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    // event seqs are monotonic per session
    const eventSeqs = all.filter((p) => p.session_id === a).map((p) => p.seq);
    expect([...eventSeqs].sort((x, y) => x - y)).toEqual(eventSeqs);
  });

  it('delivers network events', async () => {
    bind('browser::network-event', 'sub::network', { session_id: a });
    await bound('sub::network');
    await env.call('browser::navigate', { session_id: a, url: env.server.url('bus/console.html?again') });
    await until(
      () => of('sub::network').some((p) => p.entry.url.endsWith('/missing-resource.json')),
      'the failed request',
    );
    expect(of('sub::network').find((p) => p.entry.url.endsWith('/missing-resource.json'))).toEqual({
      session_id: a,
      seq: expect.any(Number),
      entry: expect.objectContaining({ method: 'GET', status: 404, failed: true, seq: expect.any(Number) }),
    });
  });

  it('delivers session-stopped with its reason: stopped, or idle for an expired ttl', async () => {
    bind('browser::session-stopped', 'sub::stopped');
    await bound('sub::stopped');
    await env.call('browser::sessions::stop', { session_id: b });
    // the ttl must outlast opening the session's page, which a loaded machine slows
    const ttl = scaled(3000);
    const t = (await env.call('browser::sessions::start', { ttl_ms: ttl })).session_id;
    await until(() => of('sub::stopped').some((p) => p.session_id === t), 'the ttl stop', ttl + 5000);
    expect(of('sub::stopped').find((p) => p.session_id === b)).toEqual({
      session_id: b,
      reason: 'stopped',
      timestamp: expect.any(Number),
      seq: expect.any(Number),
    });
    expect(of('sub::stopped').find((p) => p.session_id === t).reason).toBe('idle');
  });

  it('refuses a binding config with an unknown key at registration', async () => {
    bind('browser::console-event', 'sub::late', { session: a });
    const result = () =>
      env.engine.frames.find(
        (f) =>
          f.dir === 'out' && f.msg.type === 'triggerregistrationresult' && f.msg.function_id === 'sub::late',
      );
    await until(() => result() !== undefined, 'the registration result');
    expect(result()!.worker).toBe('agent');
    expect(result()!.msg.error.code).toBe('trigger_registration_failed');
    expect(result()!.msg.error.message).toMatch(/unknown key\(s\) "session".*the only key is session_id/);
    expect(env.engine.triggers().some((t) => t.function_id === 'sub::late')).toBe(false);
    const bad = bind('browser::navigated', 'sub::late', { session_id: 42 });
    await until(
      () =>
        env.engine.frames.filter(
          (f) =>
            f.msg.type === 'triggerregistrationresult' &&
            f.msg.function_id === 'sub::late' &&
            f.dir === 'out',
        ).length === 2,
      'the second result',
    );
    bad.unregister();
  });

  it('stops delivering after unregister', async () => {
    const t = bind('browser::navigated', 'sub::late', { session_id: a });
    await bound('sub::late');
    await env.call('browser::navigate', { session_id: a, url: env.server.url('bus/second.html') });
    await until(() => of('sub::late').length === 1, 'one navigation');
    t.unregister();
    await until(
      () =>
        env.engine.frames.some(
          (f) =>
            f.dir === 'out' &&
            f.worker === 'browser' &&
            f.msg.type === 'unregistertrigger' &&
            f.msg.function_id === 'sub::late',
        ),
      'the unbinding sent to the browser worker',
    );
    await until(() => !env.worker.boundFunctions().includes('sub::late'), 'the browser worker to unbind');
    await env.call('browser::navigate', { session_id: a, url: env.server.url('bus/form.html') });
    await env.call('browser::snapshot', { session_id: a });
    // behaviour under test: nothing more arrives for the unbound trigger
    await new Promise((r) => setTimeout(r, scaled(200)));
    expect(of('sub::late')).toHaveLength(1);
  });
});
