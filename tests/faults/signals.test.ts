/**
 * `brow serve` told to stop twice (npm forwards the signal its process group got; people press
 * Ctrl-C twice) still closes its Chromium: none of the Chromium processes it ran is left.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnder } from '../chromium-process.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures?.close());

const alive = (pid: number): boolean => {
  try {
    // a zombie still answers kill(0): read its state
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function serveWithAPage(): Promise<{ proc: ReturnType<typeof spawn>; chromium: number[] }> {
  const proc = spawn(process.execPath, ['bin/brow.js', 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROW_TOKEN: '' },
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no console line in: ${out}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Web console: (http:\/\/[\d.:]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  const res = await fetch(`${base}/v1/tools/browser_open_page`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: fixtures.url('live/form.html') }),
  });
  expect(res.status).toBe(200);
  const chromium = chromiumUnder(proc.pid!);
  expect(chromium.length).toBeGreaterThan(0);
  return { proc, chromium };
}

describe('stop signals', () => {
  it('a repeated signal while stopping is ignored: the stop runs once and finishes (onStopSignals)', async () => {
    // a process whose stop takes a while, as a close of Chromium does
    const script = `
      const { onStopSignals } = await import(${JSON.stringify(new URL('../../dist/runtime/stop-signals.js', import.meta.url).href)});
      onStopSignals((signal) => {
        console.log('stop ' + signal);
        setTimeout(() => { console.log('stopped'); process.exit(0); }, 1500);
      });
      console.log('ready');
      setInterval(() => undefined, 1000);
    `;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const seen = async (text: string) => {
      for (let i = 0; i < 300 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const exited = new Promise<[number | null, string | null]>((r) =>
      proc.once('exit', (code, sig) => r([code, sig])),
    );
    await seen('ready');
    proc.kill('SIGTERM');
    await seen('stop SIGTERM');
    // npm forwarding the group's signal, and a second Ctrl-C: neither may cut the stop short
    proc.kill('SIGTERM');
    proc.kill('SIGINT');
    expect(await exited).toEqual([0, null]);
    expect(out.match(/stop /g)).toHaveLength(1);
    expect(out).toContain('stopped');
  }, 30_000);

  it('brow serve stopped twice closes its Chromium: none of its processes is left', async () => {
    const { proc, chromium } = await serveWithAPage();
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 50));
    proc.kill('SIGTERM');
    await exited;
    // Chromium's processes end with their browser: give them a moment
    for (let i = 0; i < 100 && chromium.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(chromium.filter(alive)).toEqual([]);
  }, 60_000);
});
