// Shared bits of the system adapters.
//
// Every adapter has the same shape, so the measuring code never knows which system
// it drives:
//
//   name, label                      short id and display name
//   async start()                    launch (the browser may start lazily on first use)
//   async navigate(url)   → {text}   the system's navigate tool / command
//   async snapshot()      → {text}   the system's full page snapshot, as an agent gets it
//   findRef(text, label)  → ref      the ref/uid of the element whose name is `label`
//   async click(ref)      → {text}   the system's click tool / command
//   async followUp()      → {text}   the cheapest natural way for an agent to see what a
//                                    click changed when the click answer does not say
//   rootPids()            → [pid]    processes whose trees hold the system + its Chromium
//   describe()            → {version, command, notes[]}
//   async stop()                     end everything this adapter started
//
// Failures throw Error; the harness records them and goes on.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = join(BENCH_DIR, '..');
export const NODE_MODULES = join(BENCH_DIR, 'node_modules');
export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

/** Flags every launched Chromium gets here: root needs --no-sandbox; the network is closed. */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function pkgVersion(pkg) {
  try {
    return JSON.parse(readFileSync(join(NODE_MODULES, pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `brow-bench-${prefix}-`));
}

export function chromiumVersion() {
  try {
    return execFileSync(CHROMIUM, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch (e) {
    return `unknown (${e.message.split('\n')[0]})`;
  }
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Find a ref on the first line that contains `"label"` (quoted accessible name, the
 * form of Playwright MCP, Chrome DevTools MCP and agent-browser) and a ref pattern.
 */
export function findRefOnLine(text, label, refRe) {
  const quoted = new RegExp(`"${escapeRe(label)}"`);
  for (const line of text.split('\n')) {
    if (!quoted.test(line)) continue;
    const m = refRe.exec(line);
    if (m) return m[1];
  }
  return null;
}
