/**
 * Callers of src/core/deadline.ts outside the core keep their own contracts: untilAborted
 * (capabilities/progress.ts) answers a BrowserError naming the cancellation.
 */
import { describe, expect, it } from 'vitest';
import { untilAborted } from '../../src/capabilities/progress.js';
import { BrowserError } from '../../src/core/errors.js';

describe('untilAborted', () => {
  it('answers the work when the signal stays quiet', async () => {
    const ac = new AbortController();
    await expect(untilAborted(Promise.resolve(7), ac.signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.resolve(8), undefined)).resolves.toBe(8);
  });

  it('fails with timeout as soon as the caller cancels, or with the BrowserError it gave', async () => {
    const ac = new AbortController();
    const hang = new Promise<number>(() => undefined);
    const p = untilAborted(hang, ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'timeout', message: /caller cancelled/ });
    const ac2 = new AbortController();
    const p2 = untilAborted(hang, ac2.signal);
    const reason = new BrowserError('page_closed', 'gone');
    ac2.abort(reason);
    await expect(p2).rejects.toBe(reason);
  });

  it('fails at once on a signal already aborted, even when the work is done', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(untilAborted(Promise.resolve(1), ac.signal)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('leaves no abort listener behind', async () => {
    const ac = new AbortController();
    let added = 0;
    let removed = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    const remove = ac.signal.removeEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...a: Parameters<typeof add>) => (added++, add(...a))) as typeof add;
    ac.signal.removeEventListener = ((...a: Parameters<typeof remove>) => (
      removed++,
      remove(...a)
    )) as typeof remove;
    await untilAborted(Promise.resolve(1), ac.signal);
    expect([added, removed]).toEqual([1, 1]);
  });
});
