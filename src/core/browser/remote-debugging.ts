/**
 * Chromium reached by its remote-debugging endpoint (hosts.ts holds them): read a CDP URL, wait for
 * an endpoint, spawn an app with remote debugging on a free port, find one running, and end a
 * process tree brow started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRoot } from './chromium-args.js';
import { BrowserError } from '../errors.js';
import { settledWithin, within } from '../deadline.js';

/** Normalise http://host:port[/], ws://…; returns the http base for /json endpoints when there is one. */
export function parseCdpUrl(cdpUrl: string): { http: string | null; ws: string | null } {
  let u: URL;
  try {
    u = new URL(cdpUrl);
  } catch {
    throw new BrowserError('invalid_request', `"${cdpUrl}" is not a CDP URL.`, {
      hint: 'Use http://127.0.0.1:9222 (Chrome started with --remote-debugging-port=9222) or a ws:// endpoint.',
    });
  }
  if (u.protocol === 'http:' || u.protocol === 'https:')
    return { http: cdpUrl.replace(/\/+$/, ''), ws: null };
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return { http: null, ws: cdpUrl };
  throw new BrowserError('invalid_request', `"${cdpUrl}" is not an http(s):// or ws(s):// URL.`);
}

/** GET <base>/json/version every 150 ms until it answers; returns its webSocketDebuggerUrl. */
export async function waitForCdp(
  base: string,
  timeoutMs: number,
  alive: () => string | null = () => null,
): Promise<string> {
  const end = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const dead = alive();
    if (dead) throw new BrowserError('connection_failed', dead);
    try {
      const res = await fetch(`${base}/json/version`, {
        signal: AbortSignal.timeout(Math.max(200, Math.min(2000, end - Date.now()))),
      });
      if (res.ok) {
        const body = (await res.json()) as { webSocketDebuggerUrl?: string };
        if (body.webSocketDebuggerUrl) return body.webSocketDebuggerUrl;
        last = 'no webSocketDebuggerUrl in /json/version';
      } else last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() >= end) {
      throw new BrowserError('connection_failed', `Timed out waiting for CDP endpoint ${base} (${last})`, {
        hint: 'Check that the browser runs with --remote-debugging-port and that the URL is right.',
      });
    }
    await sleep(150);
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface SpawnedApp {
  child: ChildProcess;
  port: number;
  /** The last lines the app wrote to stderr (for error messages). */
  stderr(): string;
}

/** Spawn an executable with remote debugging on a free loopback port, in its own process group. */
export async function spawnApp(path: string, args: string[]): Promise<SpawnedApp> {
  const port = await freePort();
  const extra = [`--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'];
  if (isRoot() && !args.includes('--no-sandbox')) extra.push('--no-sandbox');
  const child = spawn(path, [...extra, ...args.filter((a) => !a.startsWith('--remote-debugging-port'))], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-2000);
  });
  child.stderr?.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (e) =>
      reject(new BrowserError('connection_failed', `Failed to attach to ${path}: ${e.message}`)),
    );
  });
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, port, stderr: () => tail.trim().split('\n').slice(-5).join('\n') };
}

/** Has this process exited? */
export const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** End a process group we started: SIGTERM, then SIGKILL after 3 s. */
export async function killTree(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (!pid || exited(child)) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  const done = await within(
    gone.then(() => true),
    3000,
    false,
  );
  if (!done) {
    signal('SIGKILL');
    await settledWithin(gone, 2000);
  }
}

/**
 * A running process of this executable that already listens for CDP (Linux: /proc), e.g. one
 * a previous brow spawned and left running. Matched by argv[0] or the resolved executable.
 */
export async function findReusableCdp(path: string): Promise<{ pid: number; base: string } | null> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const want = real(path);
  for (const pid of pids) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const port = argv.map((a) => /^--remote-debugging-port=(\d+)$/.exec(a)?.[1]).find(Boolean);
    if (
      !port ||
      port === '0' ||
      argv.includes('--type=renderer') ||
      argv.some((a) => a.startsWith('--type='))
    )
      continue;
    if (argv[0] !== path && real(argv[0] ?? '') !== want && real(`/proc/${pid}/exe`) !== want) continue;
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForCdp(base, 500);
      return { pid: Number(pid), base };
    } catch {
      // not answering: not reusable
    }
  }
  return null;
}
