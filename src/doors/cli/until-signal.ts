/** Keep a server command running until SIGINT/SIGTERM, then close it (and with it Chromium) and exit. */
export async function runUntilSignal(close: () => Promise<void>): Promise<never> {
  const stop = () => void close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<never>(() => undefined);
}
