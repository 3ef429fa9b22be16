/**
 * One vision-model call at a time per core (seed 001: "one visual-model call at a time"): a local
 * model serves one image at a time anyway, and two at once would only make both slow. Calls wait
 * their turn in order; a call whose caller goes away leaves the queue.
 */
import type { BrowCore } from '../core.js';
import { BrowserError } from '../errors.js';
import { slot } from '../state-bag.js';

export class VisionQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Calls waiting or running. */
  pending = 0;

  /** Run fn once every call queued before it has finished. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    this.pending++;
    try {
      await waitOrAbort(before, signal);
      return await fn();
    } finally {
      this.pending--;
      // the next call may start only when this one's turn and its predecessors' are over
      void before.then(release);
    }
  }
}

function waitOrAbort(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error
    ? signal.reason
    : new BrowserError('timeout', 'The call was cancelled while it waited for the vision model.');

/** One queue per BrowCore, in its StateBag (gone with it); not per page or session. */
const queueSlot = slot('vision-queue', () => new VisionQueue());

/** The core's vision queue. */
export function visionQueue(core: BrowCore): VisionQueue {
  return core.state.get(queueSlot);
}
