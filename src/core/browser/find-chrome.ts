/** Find a Chromium to launch: never downloads one. */
import { accessSync, constants } from 'node:fs';
import { execFileSync } from 'node:child_process';

export interface ChromeCandidate {
  path: string;
  source: string;
}

const WELL_KNOWN = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/microsoft-edge',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Candidates in order: configured, BROW_CHROME, CHROME_PATH, PUPPETEER_EXECUTABLE_PATH, well-known paths. */
export function chromeCandidates(configured = '', env: NodeJS.ProcessEnv = process.env): ChromeCandidate[] {
  const out: ChromeCandidate[] = [];
  if (configured) out.push({ path: configured, source: 'config executable' });
  for (const key of ['BROW_CHROME', 'CHROME_PATH', 'PUPPETEER_EXECUTABLE_PATH']) {
    const v = env[key];
    if (v) out.push({ path: v, source: key });
  }
  for (const p of WELL_KNOWN) out.push({ path: p, source: 'well-known path' });
  return out;
}

/**
 * The Chromium that would launch, or null. A path the user named (config, BROW_CHROME, …) that is
 * not executable is not silently replaced by another browser: `missing` names it.
 */
export function findChrome(
  configured = '',
  env: NodeJS.ProcessEnv = process.env,
):
  | (ChromeCandidate & { missing?: undefined })
  | { path: null; source: null; missing: ChromeCandidate }
  | null {
  for (const c of chromeCandidates(configured, env)) {
    if (executable(c.path)) return c;
    if (c.source !== 'well-known path') return { path: null, source: null, missing: c };
  }
  return null;
}

/** `chromium --version` without launching a browser window (a few ms; no profile is touched). */
export function chromeVersion(path: string): string | null {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    return null;
  }
}
