/**
 * Cancellation on the bus door: the engine's protocol carries no cancel, so a worker's close is
 * what cancels the calls it serves. A script still running in a page is stopped, and the page is
 * free for the next caller at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/runtime/outcome.js';
import { eventually } from '../scale.js';
import { busEnv, until, type BusEnv } from './setup.js';

let env: BusEnv;
beforeAll(async () => {
  env = await busEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('bus cancellation', () => {
  it("a worker's close cancels a running call: the page's script stops and the page answers at once", async () => {
    const sid = (await env.call('browser::sessions::start', { url: env.server.url('bus/form.html') }))
      .session_id;
    // watch the calls the worker makes on the runtime
    const running: Promise<Outcome>[] = [];
    const invoke = env.runtime.invoke.bind(env.runtime);
    env.runtime.invoke = (name, input, opts) => {
      const p = invoke(name, input, opts);
      if (name === 'browser_execute') running.push(p);
      return p;
    };
    // a script that would hold the page for a minute
    void env
      .call(
        'browser::execute',
        {
          session_id: sid,
          code: 'globalThis.__sleeping = true; await sleep(60000); return 1',
          timeout_ms: 60_000,
        },
        90_000,
      )
      .catch(() => undefined);
    await until(() => running.length === 1, 'the execute call to start');
    // the script is running in the page (it sleeps there; the page itself answers)
    const page = [...env.runtime.core.sessions.get(sid)!.pages.values()][0]!;
    const sleeping = () =>
      page.raw.evaluate(() => (globalThis as { __sleeping?: boolean }).__sleeping === true);
    expect(await eventually(sleeping, 10_000), 'the script to start').toBe(true);
    await env.worker.close();
    const out = await running[0]!;
    expect(out.ok).toBe(false);
    expect(out.data.error_code).toBe('connection_failed');
    expect(out.content).toContain('shutting down');
    // (without the cancel it would end after 60 s with the script's own timeout)
    // the page was freed: a call on it answers, and the script is no longer running there
    const listed = await env.runtime.invoke('browser_list_elements', { page_id: page.id });
    expect(listed.ok).toBe(true);
    env.worker.close = async () => undefined; // closed already
  });
});
