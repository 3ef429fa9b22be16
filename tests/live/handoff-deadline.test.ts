/**
 * A handoff waits for a person longer than any other call: its own timeout_ms, not max_timeout_ms,
 * bounds it (invoke's deadline allows for it), so a 5-minute handoff is not cut at 135 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';
import { nextEvent } from './helpers.js';

/**
 * Small, so invoke's deadline (max_timeout_ms + 15 s) comes soon; it bounds opening the page too,
 * which a loaded machine takes longer over (it failed at 1 s under a load of 10 on 2 cores).
 */
const MAX_TIMEOUT_MS = scaled(1000);
/** invoke's deadline for any other call. */
const INVOKE_DEADLINE_MS = MAX_TIMEOUT_MS + 15_000;

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_timeout_ms: MAX_TIMEOUT_MS });
});
afterAll(async () => {
  await h?.close();
});

describe('handoff and invoke’s deadline', () => {
  it(
    'outlives max_timeout_ms + 15 s when its own timeout is longer',
    async () => {
      // max_timeout_ms bounds the open too: wait for the commit only (a loaded machine can take
      // long to fire "load", and the handoff does not need it)
      const pageId = await h.open('live/form.html', { wait_until: 'commit' });
      const requested = nextEvent(h.rt, 'handoff-requested', (e) => e.page_id === pageId);
      const call = h.call('browser_handoff', {
        page_id: pageId,
        instructions: 'Take your time',
        timeout_ms: INVOKE_DEADLINE_MS + 40_000,
      });
      const id = String((await requested).handoff_id);
      // the behaviour under test: the handoff is still waiting after invoke's deadline for other calls
      await new Promise((r) => setTimeout(r, INVOKE_DEADLINE_MS + 1000));
      await h.ok('browser_confirm_handoff', { handoff_id: id });
      const out = await call;
      expect(out.ok, out.content).toBe(true);
      expect(out.data).toMatchObject({ confirmed: true, via: 'confirm_call' });
    },
    INVOKE_DEADLINE_MS + 45_000,
  );
});
