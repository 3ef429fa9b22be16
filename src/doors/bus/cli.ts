/** `brow worker`: the bus door as a process, until SIGINT/SIGTERM. */
import { parseArgs } from 'node:util';
import type { BrowRuntime } from '../../runtime/runtime.js';
import { runUntilSignal } from '../cli/until-signal.js';
import { DEFAULT_ENGINE, loadBusWorker } from './load.js';

export const WORKER_USAGE = 'worker [--engine ws://127.0.0.1:49134] [--name browser]';
export const WORKER_DESCRIPTION = `seed-002 bus worker: browser::* functions and triggers on an iii engine (--engine, else III_URL, else ${DEFAULT_ENGINE})`;

export async function workerCommand(
  runtime: BrowRuntime,
  argv: string[],
  out: (s: string) => void,
): Promise<number> {
  let values: { engine?: string | undefined; name?: string | undefined };
  try {
    values = parseArgs({
      args: argv,
      options: { engine: { type: 'string' }, name: { type: 'string' } },
    }).values;
  } catch (e) {
    await runtime.close();
    throw new Error(`brow worker: ${(e as Error).message} (usage: brow ${WORKER_USAGE})`);
  }
  const { runBusWorker } = await loadBusWorker().catch(async (e: unknown) => {
    await runtime.close();
    throw e;
  });
  // BROW_BUS_EVENT_RATE: trigger events per second per binding (default 500; bursts twice that)
  const rate = Number(process.env.BROW_BUS_EVENT_RATE);
  const worker = runBusWorker(runtime, {
    ...(values.engine ? { engine: values.engine } : {}),
    ...(values.name ? { workerName: values.name } : {}),
    ...(rate > 0 ? { flow: { ratePerSecond: rate, burst: 2 * rate } } : {}),
  });
  out(`brow worker: ${worker.functions.length} browser::* functions for the engine at ${worker.engine}\n`);
  return runUntilSignal(async () => {
    await worker.close();
    await runtime.close();
  });
}
