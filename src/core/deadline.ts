/**
 * Bounded waits, written once: every "this, or give up after N ms" and "this, unless the caller
 * goes away" in the core goes through here, so each clears its timer and detaches its listener
 * however it ends, and a rejection of work left behind is never unhandled.
 */

/**
 * Two turns of the event loop: the first reads what waits on brow's sockets and pipes, the second
 * runs what that handed on in its own setImmediate (puppeteer's pipe transport delivers each CDP
 * message so). A deadline's timer that fires after this process was starved (a long callback, a
 * descheduled process) runs before the answers that arrived meanwhile are read: every deadline
 * here reads them first, so an answer that came in time is not taken for none.
 */
export async function readWhatArrived(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Run `fn` after `ms`, once what arrived by then has been read (readWhatArrived). */
function afterArrivals(ms: number, fn: () => void): NodeJS.Timeout {
  return setTimeout(() => void readWhatArrived().then(fn), ms);
}

/** The work's value, or `fallback` after `ms` (the work goes on; its late failure is swallowed). */
export function within<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = afterArrivals(ms, () => resolve(fallback));
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The work's value, or a rejection with `late()` after `ms`. */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = afterArrivals(ms, () => reject(late()));
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Resolve when the work settles either way, or after `ms`: for waiting on work without its outcome. */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return within(
    work.then(
      () => undefined,
      () => undefined,
    ),
    ms,
    undefined,
  );
}

/**
 * The work's value, or a rejection as soon as the signal aborts: with `reason(signal)` when given,
 * else the signal's reason when it is an Error, else a plain cancellation error.
 */
export function unlessAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  reason: (signal: AbortSignal) => Error = abortReason,
): Promise<T> {
  if (!signal) return work;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(reason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The call was cancelled.');
}

/**
 * Sleep at least `ms` by the wall clock (`Date.now()`, what answers report as waited); ends early
 * (resolving) when the signal aborts. A Node timer may fire a millisecond before its time by that
 * clock (it counts from the event loop's cached time): the rest is slept again.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const until = Date.now() + ms;
    let timer: NodeJS.Timeout;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const tick = () => {
      const left = until - Date.now();
      if (left > 0) timer = setTimeout(tick, left);
      else done();
    };
    timer = setTimeout(tick, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface SharedDeadline {
  /** The work's value, or a rejection once the deadline passes or the signal aborts. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Clear the timer and the listener (call when the steps are done, however they end). */
  clear(): void;
}

/**
 * One deadline over several steps of a piece of work (a script's evaluate, await and read-back):
 * after `ms`, or as soon as the signal aborts, `onStop` runs once (stop the page's script) and
 * every raced step rejects — with `late()`, or with the signal's reason.
 */
export function sharedDeadline(
  ms: number,
  late: () => Error,
  opts: { signal?: AbortSignal | undefined; onStop?: () => void } = {},
): SharedDeadline {
  const { signal, onStop } = opts;
  let timer: NodeJS.Timeout | undefined;
  let cleared = false;
  let onAbort: () => void = () => undefined;
  const ended = new Promise<never>((_, reject) => {
    const stop = (e: Error) => {
      clear();
      onStop?.();
      reject(e);
    };
    timer = afterArrivals(ms, () => {
      if (!cleared) stop(late());
    });
    onAbort = () =>
      stop(signal?.reason instanceof Error ? signal.reason : new Error('The call was cancelled.'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  ended.catch(() => undefined);
  function clear(): void {
    cleared = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return {
    race<T>(work: Promise<T>): Promise<T> {
      work.catch(() => undefined);
      return Promise.race([work, ended]);
    },
    clear,
  };
}
