/**
 * `brow serve` told to stop twice (npm forwards the signal its process group got; people press
 * Ctrl-C twice) still closes its Chromium: none of the Chromium processes it ran is left.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnder } from '../chromium-process.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { eventually } from '../scale.js';
import { STRAY_REJECTION } from '../../src/runtime/stop-signals.js';

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

async function serveWithAPage(
  opts: { detached?: boolean; env?: Record<string, string> } = {},
): Promise<{ proc: ReturnType<typeof spawn>; chromium: number[] }> {
  const proc = spawn(process.execPath, ['bin/brow.js', 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROW_TOKEN: '', ...opts.env },
    detached: opts.detached ?? false,
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
      await eventually(() => out.includes(text), 6000, 20);
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

  it('a long-running process meets a rejection nothing handles: it logs it and goes on serving', async () => {
    // Node's default ends the process, and with it every session: one stray promise must not
    const script = `
      const { onStopSignals } = await import(${JSON.stringify(new URL('../../dist/runtime/stop-signals.js', import.meta.url).href)});
      onStopSignals(() => process.exit(0));
      Promise.reject(new Error('left behind'));
      setTimeout(() => console.log('still serving'), 50);
      setInterval(() => undefined, 1000);
    `;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<[number | null, string | null]>((r) =>
      proc.once('exit', (code, sig) => r([code, sig])),
    );
    expect(await eventually(() => out.includes('still serving') || proc.exitCode !== null, 10_000)).toBe(
      true,
    );
    expect(proc.exitCode).toBe(null);
    expect(err).toContain(STRAY_REJECTION);
    expect(err).toContain('left behind');
    proc.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  }, 30_000);

  it('brow serve stopped twice closes its Chromium: none of its processes is left', async () => {
    const { proc, chromium } = await serveWithAPage();
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 50));
    proc.kill('SIGTERM');
    await exited;
    // Chromium's processes end with their browser: give them a moment (longer on a loaded machine)
    await eventually(() => !chromium.some(alive), 10_000, 100);
    expect(chromium.filter(alive)).toEqual([]);
  }, 60_000);

  it('Ctrl-C at a terminal (SIGINT to the foreground process group): exit 0, no Chromium, no temporary files', async () => {
    // a fresh TMPDIR: everything in it afterwards is brow's or its Chromium's
    const tmp = mkdtempSync(join(tmpdir(), 'brow-ctrl-c-'));
    try {
      // its own process group, as a shell gives a foreground job
      const { proc, chromium } = await serveWithAPage({
        detached: true,
        env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      });
      let stderr = '';
      proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<[number | null, string | null]>((r) =>
        proc.once('exit', (code, sig) => r([code, sig])),
      );
      // what the terminal does on Ctrl-C: every process of the foreground group gets SIGINT at once
      // (puppeteer starts Chromium in a group of its own, so brow alone must end it)
      process.kill(-proc.pid!, 'SIGINT');
      expect(await exited, stderr).toEqual([0, null]);
      // Chromium's processes end with their browser: give them a moment (scaled to the machine)
      await eventually(() => !chromium.some(alive), 10_000, 100);
      expect(chromium.filter(alive)).toEqual([]);
      expect(readdirSync(tmp, { recursive: true }).map(String)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * A brow killed outright (SIGKILL: an OOM killer, a client that gives up on it) runs no handler.
 * Its Chromium still ends: it reads the end of its debugging pipe, whose other end the dead
 * process held.
 */
describe('killed outright', () => {
  /** The temporary profiles of these Chromium processes: nobody is left to remove them. */
  const profilesOf = (pids: number[]) =>
    new Set(
      pids.flatMap((pid) => {
        try {
          const arg = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
            .split('\0')
            .find((a) => a.startsWith('--user-data-dir='));
          return arg ? [arg.slice('--user-data-dir='.length)] : [];
        } catch {
          return [];
        }
      }),
    );
  /**
   * SIGKILL `proc`; the Chromium processes still alive 15 s later, and the temporary profile they
   * used (read before the kill: nobody is left to remove it but a later brow).
   */
  const killOutright = async (proc: ReturnType<typeof spawn>, chromium: number[]) => {
    const profiles = [...profilesOf(chromium)];
    expect(profiles.length).toBe(1);
    const profile = profiles[0]!;
    // named for the brow that made it, which is how a later brow knows whose it was
    expect(basename(profile)).toMatch(new RegExp(`^brow-chromium-${proc.pid}-`));
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    await eventually(() => !chromium.some(alive), 15_000, 100);
    return { left: chromium.filter(alive), profile };
  };
  /** Remove a profile the test made a brow leave behind (once its Chromium is gone). */
  const removeProfile = (dir: string) => {
    if (dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
  };

  it('brow serve with a page open: its Chromium ends with it; the next brow removes its profile', async () => {
    // a TMPDIR of its own: any brow launching in the same TMPDIR (another test file's, running
    // beside this one) removes the dead brow's profile, rightly, before this test can see it left
    const tmp = mkdtempSync(join(tmpdir(), 'brow-killed-'));
    const env = { TMPDIR: tmp, TMP: tmp, TEMP: tmp };
    const { proc, chromium } = await serveWithAPage({ env });
    const { left, profile } = await killOutright(proc, chromium);
    expect(left).toEqual([]);
    expect(existsSync(profile), 'the killed brow could not remove its profile').toBe(true);
    try {
      // the next brow to launch a Chromium removes the profiles of brows that are gone
      const next = await serveWithAPage({ env });
      const nextProfile = [...profilesOf(next.chromium)][0]!;
      await eventually(() => !existsSync(profile), 10_000, 100);
      expect(existsSync(profile), `${profile} is still there`).toBe(false);
      // its own profile, in use, stays until it stops; a stop removes it
      expect(existsSync(nextProfile)).toBe(true);
      const exited = new Promise((r) => next.proc.once('exit', r));
      next.proc.kill('SIGTERM');
      await exited;
      expect(existsSync(nextProfile), 'a brow that stops removes its own profile').toBe(false);
    } finally {
      removeProfile(profile);
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 90_000);

  /** `brow mcp` over raw stdio JSON-RPC, as an MCP client speaks it. */
  function mcp() {
    const proc = spawn(process.execPath, ['bin/brow.js', 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    let id = 0;
    const request = async (method: string, params: unknown): Promise<any> => {
      const n = ++id;
      proc.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
      const answer = () => out.split('\n').find((l) => l.includes(`"id":${n},`) || l.includes(`"id":${n}}`));
      if (!(await eventually(() => answer() !== undefined, 30_000)))
        throw new Error(`no answer to ${method}: ${out}`);
      return JSON.parse(answer()!);
    };
    return { proc, request };
  }

  it('brow mcp before any call: the Chromium it started early ends with it', async () => {
    const { proc } = mcp();
    let chromium: number[] = [];
    await eventually(() => (chromium = chromiumUnder(proc.pid!)).length > 0, 10_000);
    expect(chromium.length, 'brow mcp starts Chromium while it loads').toBeGreaterThan(0);
    const { left, profile } = await killOutright(proc, chromium);
    removeProfile(profile);
    expect(left).toEqual([]);
  }, 60_000);

  it('brow mcp with a page open: its Chromium ends with it', async () => {
    const { proc, request } = mcp();
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'signals-test', version: '0' },
    });
    proc.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const opened = await request('tools/call', {
      name: 'browser_open_page',
      arguments: { url: fixtures.url('live/form.html') },
    });
    expect(opened.result?.isError, JSON.stringify(opened)).not.toBe(true);
    const chromium = chromiumUnder(proc.pid!);
    expect(chromium.length).toBeGreaterThan(0);
    const { left, profile } = await killOutright(proc, chromium);
    removeProfile(profile);
    expect(left).toEqual([]);
  }, 60_000);
});
