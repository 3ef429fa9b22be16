/**
 * invoke's own deadline, the last guard against a call that never ends (issue 34): a handler that
 * ignores every bound fails with `timeout` once the caller's bound plus config call_grace_ms has
 * passed, its signal is aborted so its work can stop, and the session it named is no longer held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCapability } from '../../src/capabilities/registry.js';
import type { AnyCapability, CapabilityContext } from '../../src/capabilities/define.js';
import { runCapability } from '../../src/runtime/invoke.js';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
let sid: string;

beforeAll(async () => {
  h = await harness();
  // a session first, under the default bounds (a launch on a loaded machine takes seconds)
  sid = ((await h.ok('browser_open_page', { url: 'about:blank' })) as { session_id: string }).session_id;
  h.rt.updateConfig({ max_timeout_ms: 1000, call_grace_ms: 300 });
});
afterAll(async () => {
  await h?.close();
});

/** A capability shaped like browser_list_pages whose handler never answers on its own. */
function hanging(seen: { signal?: AbortSignal; aborted?: unknown }): AnyCapability {
  const base = getCapability('browser_list_pages')!;
  return {
    ...base,
    handle: (_input, ctx: CapabilityContext) =>
      new Promise(() => {
        seen.signal = ctx.signal;
        ctx.signal?.addEventListener('abort', () => (seen.aborted = ctx.signal?.reason), { once: true });
      }),
  };
}

describe("invoke's deadline", () => {
  it('fails a call that never ends with timeout, aborts its work and releases its session', async () => {
    const session = h.rt.core.session(sid, null)!;
    const seen: { signal?: AbortSignal; aborted?: unknown } = {};
    const pending = runCapability(hanging(seen), { session_id: sid }, { core: h.rt.core, owner: null });
    // while it runs, the session is held (it cannot end for idleness under the call)
    await new Promise<void>((r) => setImmediate(r));
    expect(session.callsInFlight).toBe(1);
    const out = await pending;
    expect(out.ok).toBe(false);
    expect(out.data).toMatchObject({ error_code: 'timeout' });
    expect(out.content).toContain('did not finish within 1300 ms');
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.aborted).toMatchObject({ code: 'timeout' });
    expect(session.callsInFlight).toBe(0);
    // the session stays usable
    const listed = await h.ok('browser_list_pages', { session_id: sid });
    expect(listed.pages).toHaveLength(1);
  });

  it("a caller's cancel aborts the handler's signal at once; a handler that ignores it still ends at the deadline", async () => {
    const seen: { signal?: AbortSignal; aborted?: unknown } = {};
    const ac = new AbortController();
    const pending = runCapability(hanging(seen), {}, { core: h.rt.core, owner: null, signal: ac.signal });
    await new Promise<void>((r) => setImmediate(r));
    ac.abort(new Error('caller went away'));
    expect(seen.signal?.aborted).toBe(true);
    expect(String(seen.aborted)).toContain('caller went away');
    // the handler never answers: the call still ends, at invoke's deadline
    const out = await pending;
    expect(out.ok).toBe(false);
  });
});

describe('a cancel that comes before the work began', () => {
  it('browser_wait answers cancelled, leaves no rejection unhandled, and the page goes on working', async () => {
    // before the fix, the wait begun under an aborted signal rejected later with no one to catch it:
    // in `brow node` that ended the worker with all its sessions
    const stray: unknown[] = [];
    const onStray = (e: unknown) => stray.push(e);
    process.on('unhandledRejection', onStray);
    // the bounds of a normal runtime (this file's others are short, for its deadline cases)
    const bounds = { max_timeout_ms: h.rt.config.max_timeout_ms, call_grace_ms: h.rt.config.call_grace_ms };
    h.rt.updateConfig({ max_timeout_ms: 60_000, call_grace_ms: 15_000 });
    try {
      const page = (
        await h.ok('browser_open_page', { session_id: sid, url: h.server.url('/core/form.html') })
      ).page_id;
      for (const delay of [-1, 0, 1, 5]) {
        const ac = new AbortController();
        if (delay < 0) ac.abort();
        else setTimeout(() => ac.abort(), delay);
        const out = await h.rt.invoke(
          'browser_wait',
          { page_id: page, condition: 'text', value: 'Never shown', timeout_ms: 60_000 },
          { signal: ac.signal },
        );
        expect(out.ok, `abort after ${delay} ms`).toBe(false);
        expect(out.content).toMatch(/cancelled/);
      }
      expect((await h.ok('browser_evaluate', { page_id: page, expression: '1 + 1' })).value).toBe(2);
      // the rejections of abandoned work come on later turns of the loop: none may come
      await new Promise((r) => setTimeout(r, scaled(200)));
      expect(stray.map(String)).toEqual([]);
    } finally {
      process.off('unhandledRejection', onStray);
      h.rt.updateConfig(bounds);
    }
  });
});
