/** Chromium's temporary files: the TMPDIR each launch gets inside brow's directory, and what it leaves behind. */
import { mkdirSync, readlinkSync, rmSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

/** Remove a directory brow made, best effort. */
export const removeDir = (dir: string) => {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // best effort, as puppeteer's own cleanup; a later brow's sweep removes what is left
  }
};

/**
 * Chromium's own temporary files (base::GetTempDir, which reads TMPDIR): the singleton socket's
 * directory (`org.chromium.Chromium.XXXXXX`, which the profile's SingletonSocket links to) and, with
 * --disable-dev-shm-usage, its shared-memory files. Chromium removes the socket's directory only when
 * it shuts down cleanly; a Chromium killed (a close that timed out, brow exiting first) leaves it.
 * So each launch gets its own TMPDIR inside brow's temporary directory, and removing that removes
 * them. Not when the socket's path would pass the 107 bytes a Unix socket path may have (a long
 * TMPDIR): then Chromium keeps the usual one and brow removes the socket's directory (singletonDir).
 */
export function chromiumTemp(dir: string): string | null {
  const tmp = join(dir, 't');
  return Buffer.byteLength(join(tmp, 'org.chromium.Chromium.XXXXXX', 'SingletonSocket')) <= 107 ? tmp : null;
}

/** The environment Chromium runs in: brow's, with TMPDIR in `dir` (chromiumTemp), made here. */
export function chromiumEnv(dir: string): NodeJS.ProcessEnv {
  const tmp = chromiumTemp(dir);
  if (!tmp) return process.env;
  mkdirSync(tmp, { recursive: true });
  return { ...process.env, TMPDIR: tmp };
}

/**
 * The singleton socket's directory a profile's SingletonSocket links to, when Chromium made it
 * outside brow's temporary directory (see chromiumTemp). Read while Chromium runs: a Chromium
 * killed while it shuts down may have removed the link but not yet the directory.
 */
export function singletonDir(profile: string, own: string): string | null {
  let target: string;
  try {
    target = readlinkSync(join(profile, 'SingletonSocket'));
  } catch {
    return null; // no link (yet, or any more)
  }
  const dir = dirname(target);
  return basename(dir).startsWith('org.chromium.Chromium.') && !dir.startsWith(own + sep) ? dir : null;
}
