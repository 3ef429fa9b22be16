/**
 * iii-sdk is an optional peer dependency: a default install of brow goes without it (it brings some
 * 50 packages), and only `brow worker` loads it, through here. Nothing else may import worker.ts.
 */
import { UsageError } from '../cli/usage-error.js';

export const DEFAULT_ENGINE = 'ws://127.0.0.1:49134';

/** The iii-sdk brow is built and tested with: package.json's peerDependencies names the same. */
export const III_SDK_VERSION = '0.22.1';

/** The bus worker module; a clear invalid_request naming the install command when iii-sdk is missing. */
export async function loadBusWorker(): Promise<typeof import('./worker.js')> {
  try {
    return await import('./worker.js');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !/Cannot find package 'iii-sdk'/.test(err.message)) throw e;
    throw new UsageError(
      'brow worker needs the iii SDK (the optional peer dependency iii-sdk), which is not installed.',
      {
        hint: `Install it beside brow: npm i iii-sdk@${III_SDK_VERSION} (npm i -g iii-sdk@${III_SDK_VERSION} for a global brow; npx -p brow -p iii-sdk@${III_SDK_VERSION} brow worker with npx).`,
      },
    );
  }
}
