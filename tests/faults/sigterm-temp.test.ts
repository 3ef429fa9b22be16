/**
 * A clean stop leaves nothing in the temporary directory (issue 34, bug 2): `brow serve` given
 * SIGTERM after a page opened (so Chromium really ran) removes its temporary profile
 * (`brow-chromium-<pid>-*`) and Chromium's own temporary files (`org.chromium.Chromium.*`: the
 * singleton socket dir, shared-memory files), every time, also under load (four stops at once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { scaled } from '../scale.js';

const RUNS = 20;
const AT_ONCE = 4;

let fixtures: FixtureServer;
const roots: string[] = [];
beforeAll(async () => {
  if (!existsSync('dist/doors/cli/main.js')) throw new Error('run `node scripts/build.mjs` first');
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 5 });
});

/** Resolves with the process's exit code (or signal) once it has exited. */
function exited(proc: ChildProcess): Promise<string> {
  if (proc.exitCode !== null || proc.signalCode !== null)
    return Promise.resolve(String(proc.exitCode ?? proc.signalCode));
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve(String(code ?? signal))));
}

/** The server's base URL, read from its console line (rejects if it exits first). */
function baseUrl(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Web console: (http:\/\/[\d.:]+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited(proc).then((code) =>
      reject(new Error(`brow serve exited (${code}) before it served: ${out}`)),
    );
  });
}

/** What is left in a directory, recursively, as paths relative to it. */
function leftIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

/** One run: serve in a fresh TMPDIR, open a page, SIGTERM, wait for the exit; what is left in TMPDIR. */
async function run(i: number): Promise<{ code: string; left: string[]; tmp: string; stderr: string }> {
  const root = mkdtempSync(join(tmpdir(), `brow-sigterm-${i}-`));
  roots.push(root);
  // a fresh, empty directory: everything in it afterwards is brow's or its Chromium's
  const tmp = join(root, 't');
  mkdirSync(tmp);
  const proc = spawn(process.execPath, ['bin/brow.js', 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROW_TOKEN: '', TMPDIR: tmp, TMP: tmp, TEMP: tmp },
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const base = await baseUrl(proc);
    const res = await fetch(`${base}/v1/tools/browser_open_page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: fixtures.url('live/form.html') }),
    });
    expect(res.status, await res.text()).toBe(200);
  } finally {
    proc.kill('SIGTERM');
  }
  const code = await exited(proc);
  return { code, left: leftIn(tmp), tmp, stderr };
}

describe('SIGTERM leaves no temporary files', () => {
  it(
    `${RUNS} stops, ${AT_ONCE} at a time, each leave TMPDIR empty`,
    async () => {
      const problems: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          for (let i = next++; i < RUNS; i = next++) {
            const r = await run(i);
            if (r.code !== '0') problems.push(`run ${i}: exit ${r.code}: ${r.stderr.slice(-500)}`);
            if (r.left.length > 0) problems.push(`run ${i}: left in ${r.tmp}: ${r.left.join(', ')}`);
          }
        }),
      );
      expect(problems).toEqual([]);
    },
    scaled(120_000),
  ); // 20 launches and stops: minutes on a loaded machine
});
