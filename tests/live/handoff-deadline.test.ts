/**
 * A handoff waits for a person longer than any other call: its own timeout_ms, not max_timeout_ms,
 * bounds it (invoke's deadline allows for it), so a 5-minute handoff is not cut at 135 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { nextEvent } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  // invoke's deadline is max_timeout_ms + 15 s: 16 s here
  h = await harness({ max_timeout_ms: 1000 });
});
afterAll(async () => {
  await h?.close();
});

describe('handoff and invoke’s deadline', () => {
  it('outlives max_timeout_ms + 15 s when its own timeout is longer', async () => {
    // max_timeout_ms 1000 bounds the open too: wait for the commit only (a loaded machine can take
    // longer than 1 s to fire "load", and the handoff does not need it)
    const pageId = await h.open('live/form.html', { wait_until: 'commit' });
    const requested = nextEvent(h.rt, 'handoff-requested', (e) => e.page_id === pageId);
    const call = h.call('browser_handoff', {
      page_id: pageId,
      instructions: 'Take your time',
      timeout_ms: 60_000,
    });
    const id = String((await requested).handoff_id);
    await new Promise((r) => setTimeout(r, 17_000));
    await h.ok('browser_confirm_handoff', { handoff_id: id });
    const out = await call;
    expect(out.ok, out.content).toBe(true);
    expect(out.data).toMatchObject({ confirmed: true, via: 'confirm_call' });
  }, 60_000);
});
