/**
 * Temporary Chromium profiles, named for the brow process that made them
 * (`<tmp>/brow-chromium-<pid>-XXXXXX`). A brow that ends normally removes its own; one killed
 * outright (SIGKILL, an OOM killer) cannot, and its Chromium, which ends with it (see
 * LIFELINE_FLAGS in launch.ts), leaves about 2 MB behind. The next brow that launches a Chromium
 * removes those of processes that are gone.
 *
 * A profile is left alone while its brow's pid is alive, or while its Chromium's SingletonLock
 * (a link to `<host>-<pid>`) names another host or a live process: a /tmp shared between machines
 * or pid namespaces never loses a profile in use.
 */
import { mkdtempSync, readlinkSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'brow-chromium-';
const NAME = /^brow-chromium-(\d+)-/;

/** A new temporary profile directory of this process. */
export function makeTempProfile(): string {
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
}

const alive = (pid: number): boolean => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true; // unknown: keep
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
};

/** May Chromium still be using this profile? Its lock names the host and pid that hold it. */
function lockHeld(dir: string): boolean {
  let target: string;
  try {
    target = readlinkSync(join(dir, 'SingletonLock'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT'; // no lock: nobody holds it
  }
  const cut = target.lastIndexOf('-');
  if (cut < 0 || target.slice(0, cut) !== hostname()) return true;
  return alive(Number(target.slice(cut + 1)));
}

/**
 * Remove the temporary profiles in `dir` whose brow and Chromium are gone. Resolves with the
 * directories removed; never rejects.
 */
export async function removeLeftProfiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    const path = join(dir, name);
    if (lockHeld(path)) continue;
    await rm(path, { recursive: true, force: true, maxRetries: 2 }).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}

let sweep: Promise<string[]> | null = null;

/** removeLeftProfiles in the temporary directory, once per process (later calls get the first one's result). */
export function sweepLeftProfiles(): Promise<string[]> {
  sweep ??= removeLeftProfiles(tmpdir());
  return sweep;
}
