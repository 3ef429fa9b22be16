/**
 * Temporary Chromium profiles a killed brow left behind are removed by a later one, and only
 * those: a profile whose brow lives, or whose Chromium's lock names a live process or another
 * host, stays (src/core/browser/temp-profiles.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLeftProfiles } from '../../src/core/browser/temp-profiles.js';

const root = mkdtempSync(join(tmpdir(), 'temp-profiles-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has ended. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)']).stdout.toString().trim());

function profile(name: string, lock?: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'Default'), { recursive: true });
  if (lock) symlinkSync(lock, join(dir, 'SingletonLock'));
  return dir;
}

describe('removeLeftProfiles', () => {
  it('removes a dead brow profile and keeps the ones that may be in use', async () => {
    const dead = deadPid();
    const gone = profile(`brow-chromium-${dead}-aaaaaa`);
    const staleLock = profile(`brow-chromium-${dead}-bbbbbb`, `${hostname()}-${deadPid()}`);
    const mine = profile(`brow-chromium-${process.pid}-cccccc`);
    // the brow is gone but its Chromium (the lock's holder) still runs: this test process stands in
    const liveLock = profile(`brow-chromium-${dead}-dddddd`, `${hostname()}-${process.pid}`);
    // a lock of another machine sharing this directory: nothing here can tell, so it stays
    const otherHost = profile(`brow-chromium-${dead}-eeeeee`, `not-${hostname()}-1`);
    const notOurs = profile(`puppeteer_dev_chrome_profile-${dead}`);

    const removed = await removeLeftProfiles(root);

    expect(removed.sort()).toEqual([gone, staleLock].sort());
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(staleLock)).toBe(false);
    for (const kept of [mine, liveLock, otherHost, notOurs]) expect(existsSync(kept), kept).toBe(true);
  });

  it('a directory it cannot read is no error', async () => {
    await expect(removeLeftProfiles(join(root, 'missing'))).resolves.toEqual([]);
  });
});

describe('launchChromium', () => {
  it('names a temp directory it cannot make as backend_unavailable, with a hint', async () => {
    const { launchChromium } = await import('../../src/core/browser/launch.js');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = join(root, 'no-such-dir', 'deeper');
    try {
      const err = await launchChromium({}).then(
        () => null,
        (e: unknown) => e as { code?: string; hint?: string },
      );
      expect(err?.code).toBe('backend_unavailable');
      expect(err?.hint).toBeTruthy();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
