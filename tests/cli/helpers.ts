/** Test plumbing for the CLI: run `node bin/brow.js …` with a private runtime dir and a unique daemon profile. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandName } from '../../src/doors/cli/commands.js';
import type { DoorCall } from '../doors/helpers.js';
import { BIN, ROOT } from '../doors/helpers.js';
import { scaled } from '../scale.js';

export { buildOnce } from '../doors/helpers.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  /** BROW_RUNTIME_DIR of this test file: sockets and logs of its daemons. */
  dir: string;
  /** A daemon profile name nobody else uses. */
  session: string;
  env: Record<string, string>;
  /** Run `brow args…` (with --session) to completion. */
  run(
    args: string[],
    opts?: { session?: string | null; env?: Record<string, string>; timeoutMs?: number },
  ): Promise<CliRun>;
  /** Stop this file's daemons and remove the runtime dir. */
  cleanup(): Promise<void>;
}

export function runBrow(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function cliEnv(label: string): CliEnv {
  const dir = mkdtempSync(join(tmpdir(), 'brow-cli-'));
  const session = `${label}-${process.pid}`;
  const env = { BROW_RUNTIME_DIR: dir, BROW_MAX_SESSIONS: '16' };
  const sessions = new Set<string>([session]);
  return {
    dir,
    session,
    env,
    run: (args, opts = {}) => {
      const s = opts.session === undefined ? session : opts.session;
      if (s) sessions.add(s);
      return runBrow([...args, ...(s ? ['--session', s] : [])], { ...env, ...opts.env }, opts.timeoutMs);
    },
    cleanup: async () => {
      for (const s of sessions) await runBrow(['daemon', 'stop', '--session', s], env);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CLI as a door of the contract table: one process per call, `--input-json … --json`. */
export function cliDoor(cli: CliEnv): DoorCall & { last: () => CliRun | null } {
  let last: CliRun | null = null;
  const call = async (name: string, input: Record<string, unknown> = {}) => {
    const r = await cli.run([commandName(name), '--input-json', JSON.stringify(input), '--json']);
    last = r;
    const o = JSON.parse(r.stdout) as {
      ok: boolean;
      content: string;
      data: Record<string, any>;
      images?: [];
    };
    return {
      ok: o.ok,
      error_code: o.ok ? null : o.data.error_code,
      text: o.content,
      data: o.data,
      images: o.images ?? [],
    };
  };
  return Object.assign(call, { last: () => last });
}

/** Pids of a process's children (direct). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll until fn is true or the time is up (scaled by the machine's load: tests/scale.ts). */
export async function until(
  fn: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  stepMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return fn();
}

/** Ids and clock readings differ between two runtimes; the rest of an answer must not. */
export function normalize(v: unknown): unknown {
  if (typeof v === 'string') {
    return v.replace(/\b(p|s|snap)-[0-9a-z]+-\d+\b/g, '<$1-id>').replace(/\b\d+ ms\b/g, '<n> ms');
  }
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (/(_at|_ms|timestamp)$/.test(k) && typeof x === 'number') return [k, 0];
        if (/(target|frame)_id$/.test(k) && typeof x === 'string') return [k, '<cdp-id>'];
        return [k, normalize(x)];
      }),
    );
  }
  return v;
}
