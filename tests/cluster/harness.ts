/**
 * A cluster on this machine for tests: a real nats-server on a free 127.0.0.1 port, and workers as
 * real `brow node` child processes (so a test can SIGKILL or SIGTERM one). Everything started here
 * is killed by stop(), Chromium included (found by the worker's own data dir).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** nats-server's path; a clear failure naming what to install when it is missing. */
export function natsServerPath(): string {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  const found = dirs.map((d) => join(d, 'nats-server')).find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'nats-server is not installed: the cluster tests need it. Install it (Debian/Ubuntu: apt-get install nats-server; ' +
        'npm test runs scripts/setup.mjs, which does so as root), or put nats-server on PATH.',
    );
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Nats {
  url: string;
  port: number;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** A nats-server on a free port (or the given one, for a restart); extra args (e.g. -c FILE) pass through. */
export async function startNats(args: string[] = [], port?: number): Promise<Nats> {
  const p = port ?? (await freePort());
  const proc = spawn(natsServerPath(), ['-a', '127.0.0.1', '-p', String(p), ...args], { stdio: 'pipe' });
  let log = '';
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await until('nats-server to listen', () => /Server is ready/.test(log) || proc.exitCode !== null, 15_000);
  if (proc.exitCode !== null) throw new Error(`nats-server exited: ${log}`);
  return {
    url: `nats://127.0.0.1:${p}`,
    port: p,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

export interface Worker {
  name: string;
  proc: ChildProcess;
  dataDir: string;
  log(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** SIGKILL the worker and every process it started (Chromium too). */
  kill(): Promise<void>;
}

/** A process's descendants (Chromium is the worker's child, in a process group of its own). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // the command may hold spaces and parentheses: the ppid follows the last ")"
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** `brow node` as a child process; resolves once it serves. */
export async function startWorker(natsUrl: string, name: string, extra: string[] = []): Promise<Worker> {
  const dataDir = mkdtempSync(join(tmpdir(), `brow-cluster-${name}-`));
  // its own process group, so kill() reaches what it started
  const proc = spawn(
    process.execPath,
    [join(ROOT, 'bin/brow.js'), 'node', '--nats', natsUrl, '--name', name, '--data-dir', dataDir, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, BROW_NO_BUNDLE: '1' } },
  );
  let log = '';
  proc.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  let killing = false;
  const exited = new Promise<number | null>((r) =>
    proc.once('exit', (code, signal) => {
      // a worker that dies on its own is a finding: its output is the only account of why
      if (!killing && (code !== 0 || signal))
        console.error(
          `worker ${name} exited by itself (code ${code}, signal ${signal}):\n${log.slice(-4000)}`,
        );
      r(code);
    }),
  );
  await until(`worker ${name} to serve`, () => /serving up to/.test(log) || proc.exitCode !== null);
  if (proc.exitCode !== null) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`worker ${name} exited (code ${proc.exitCode}): ${log}`);
  }
  const kill = async () => {
    // Chromium and its helpers, found before their parent dies (then they would belong to init)
    killing = true;
    const family = proc.pid ? descendants(proc.pid) : [];
    if (proc.exitCode === null && proc.signalCode === null) {
      try {
        process.kill(-proc.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    }
    for (const pid of family) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { name, proc, dataDir, log: () => log, exited, kill };
}
