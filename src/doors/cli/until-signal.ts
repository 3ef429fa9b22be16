/** Keep a server command running until SIGINT/SIGTERM, then close it (and with it Chromium) and exit. */
import { onStopSignals } from '../../runtime/stop-signals.js';

export async function runUntilSignal(close: () => Promise<void>): Promise<never> {
  onStopSignals(() => void close().finally(() => process.exit(0)));
  return new Promise<never>(() => undefined);
}
