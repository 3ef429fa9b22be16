/**
 * How a long-running brow process (serve, mcp, the daemon, a worker, a cluster node) takes its stop
 * signals. `stop(signal)` runs once, on the first. The handlers stay installed after it, and a
 * repeat is ignored: a second signal must never meet Node's default action, which ends the process
 * at once and leaves Chromium (its own process group) running; nor may it exit early, because once
 * puppeteer's browser.close() has begun its exit hook no longer kills Chromium. Second signals are
 * common: `npm run` forwards the one its process group got, and people press Ctrl-C twice. The
 * stop itself is bounded (each door's close), so the process still ends.
 */
export function onStopSignals(
  stop: (signal: NodeJS.Signals) => void,
  signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal);
  };
  for (const s of signals) process.on(s, handle);
  keepServingOnStrayRejections();
}

/** The line a long-running process writes for a rejection nothing handled (tests look for it). */
export const STRAY_REJECTION = 'brow: a promise rejected with nothing to handle it; still serving:';

/** One handler for the process, however many doors install it. */
function onStrayRejection(reason: unknown): void {
  const what = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
  process.stderr.write(`${STRAY_REJECTION} ${what}\n`);
}

/**
 * Node ends a process on a rejection nothing handles. In a long-running brow that would close every
 * session of every user for one call's stray promise (a `brow node` worker did so when a cancel came
 * before its wait began), so these processes log it to stderr and go on serving. It is still a bug:
 * tests fail on the line, and in-process tests on vitest's own unhandled-rejection report.
 */
export function keepServingOnStrayRejections(): void {
  if (!process.listeners('unhandledRejection').includes(onStrayRejection))
    process.on('unhandledRejection', onStrayRejection);
}
