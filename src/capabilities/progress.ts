/** Progress of a long call: a first line at once, then one every few seconds until stopped. */
import { unlessAborted } from '../core/deadline.js';
import { BrowserError } from '../core/errors.js';
import type { CapabilityContext } from './define.js';

/** How often a long call reports while it waits: well inside a client's 60 s request timeout. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * Report `message(elapsed ms)` now and every `everyMs` until the returned function is called;
 * `totalMs` is the most the call waits (undefined: not known). Nothing happens when the caller asked for no progress.
 */
export function heartbeat(
  ctx: CapabilityContext,
  totalMs: number | undefined,
  message: (elapsedMs: number) => string,
  everyMs = PROGRESS_EVERY_MS,
): () => void {
  const progress = ctx.progress;
  if (!progress) return () => undefined;
  const t0 = Date.now();
  const tell = () => {
    const elapsed = Date.now() - t0;
    try {
      if (totalMs === undefined) progress(elapsed, undefined, message(elapsed));
      else progress(Math.min(elapsed, totalMs), totalMs, message(elapsed));
    } catch {
      // a door that cannot carry progress any more (its caller left) is no reason to fail the call
    }
  };
  tell();
  const timer = setInterval(tell, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Seconds for a status line: "12 s". */
export const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/**
 * The promise, or a rejection as soon as the signal aborts (with its reason when that is a
 * BrowserError, e.g. invoke's deadline; else a timeout naming the cancellation).
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const fail = (s: AbortSignal): Error =>
    s.reason instanceof BrowserError
      ? s.reason
      : new BrowserError('timeout', 'The call was cancelled: its caller cancelled it or went away.');
  if (signal.aborted) {
    // the work goes on with no one waiting for it: its rejection must not go unhandled (that ends
    // a `brow node` worker: a cancel that came before the wait began)
    p.catch(() => undefined);
    return Promise.reject(fail(signal));
  }
  return unlessAborted(p, signal, fail);
}
