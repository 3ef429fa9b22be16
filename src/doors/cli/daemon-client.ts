/** Talking to a profile's daemon: start it on first use (detached), send one request, read one answer. */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Outcome } from '../../runtime/outcome.js';
import { BUILD, probe, type DaemonRequest, type DaemonStatus } from './daemon.js';
import { profilePaths } from './runtime-dir.js';
import { UsageError } from './usage-error.js';

/** bin/brow.js, from src/doors/cli or dist/doors/cli alike. */
export const BIN = fileURLToPath(new URL('../../../bin/brow.js', import.meta.url));

export const DEFAULT_IDLE_MS = 30 * 60_000;

export interface DaemonTarget {
  profile: string;
  /** Used when this call starts the daemon. */
  idleMs?: number;
  configFile?: string | undefined;
}

/** Told when a call has to start the daemon (and so Chromium): `starting()` returns what to call when it is up. */
export interface StartNotice {
  starting(): (ok: boolean) => void;
}

/** Thrown when no daemon can be reached or started; the CLI answers connection_failed. */
export class DaemonUnreachable extends Error {
  override readonly name = 'DaemonUnreachable';
}

/** What a long call reports while it runs (a daemon `progress` line). */
export interface DaemonProgress {
  done: number;
  total?: number;
  message?: string;
}

/** Send one request and read its answer line back (after any `progress` lines, given to onProgress). */
export function request<T = Record<string, unknown>>(
  socket: string,
  req: DaemonRequest,
  onProgress?: (p: DaemonProgress) => void,
): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const c = createConnection(socket);
    let buf = '';
    let answer = '';
    c.setEncoding('utf8');
    c.once('connect', () => c.write(`${JSON.stringify(req)}\n`));
    c.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (answer || !line) continue;
        if (line.startsWith('{"progress":')) {
          try {
            onProgress?.((JSON.parse(line) as { progress: DaemonProgress }).progress);
          } catch {
            // a progress line is only a courtesy
          }
        } else answer = line;
      }
    });
    c.once('error', (e) => reject(new DaemonUnreachable(`The daemon at ${socket} failed: ${e.message}`)));
    c.once('close', () => {
      const line = answer || buf.split('\n')[0] || '';
      if (!line) return reject(new DaemonUnreachable(`The daemon at ${socket} closed without answering.`));
      try {
        resolvePromise(JSON.parse(line) as T);
      } catch {
        reject(new DaemonUnreachable(`The daemon at ${socket} answered something that is not JSON.`));
      }
    });
  });
}

function tail(file: string, lines = 8): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** The daemon's socket, starting the daemon when none answers. */
export async function ensureDaemon(t: DaemonTarget, notice?: StartNotice): Promise<string> {
  const { socket, log } = profilePaths(t.profile);
  if (await probe(socket)) return socket;
  notice?.starting();
  return startDaemon(t, socket, log);
}

async function startDaemon(t: DaemonTarget, socket: string, log: string): Promise<string> {
  const idle = `${t.idleMs ?? DEFAULT_IDLE_MS}ms`;
  const args = [BIN, 'daemon', '--profile', t.profile, '--idle-timeout', idle];
  if (t.configFile) args.push('--config', resolve(t.configFile));
  const out = openSync(log, 'a', 0o600);
  const started = { exited: null as number | null };
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', out, out],
      env: process.env,
    });
    child.once('exit', (code) => (started.exited = code ?? 1));
    child.unref();
  } finally {
    closeSync(out);
  }
  const deadline = Date.now() + 60_000; // a loaded machine can take long to start node
  while (Date.now() < deadline) {
    if (await probe(socket, 500)) return socket;
    // exit 0 = another daemon won the race: keep probing for it
    if (started.exited !== null && started.exited !== 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new DaemonUnreachable(
    `The brow daemon for session "${t.profile}" did not start.${started.exited !== null ? ` It exited with ${started.exited}.` : ''}\n${tail(log)}`,
  );
}

/** Invoke a capability in the profile's daemon; warnings say when the daemon differs from what this command asked for. */
export async function invokeViaDaemon(
  t: DaemonTarget,
  name: string,
  input: unknown,
  notice?: StartNotice,
  onProgress?: (p: DaemonProgress) => void,
  /** The CLI command typed, when this process did not check the input: the daemon checks it as the CLI would. */
  cli?: string,
): Promise<{ outcome: Outcome; warnings: string[] }> {
  // the first call's answer comes once the daemon and its Chromium are up: the notice ends then
  let ready: ((ok: boolean) => void) | undefined;
  type Reply = {
    outcome?: Outcome;
    /** The input failed the CLI's check in the daemon (`cli` asked for it): nothing ran. */
    usage?: { message: string; hint: string };
    error?: string;
    daemon?: { config_file: string | null; build: string };
  };
  let reply: Reply;
  try {
    const socket = await ensureDaemon(t, notice && { starting: () => (ready = notice.starting()) });
    reply = await request<Reply>(
      socket,
      { op: 'invoke', name, input, ...(onProgress ? { progress: true } : {}), ...(cli ? { cli } : {}) },
      onProgress,
    );
  } catch (e) {
    ready?.(false);
    throw e;
  }
  ready?.(!!reply.outcome || !!reply.usage);
  if (reply.usage) throw new UsageError(reply.usage.message, { hint: reply.usage.hint });
  if (!reply.outcome) throw new DaemonUnreachable(`The daemon failed: ${reply.error ?? 'no answer'}`);
  const warnings: string[] = [];
  const restart = `\`brow daemon stop --session ${t.profile}\` restarts it`;
  if (reply.daemon && reply.daemon.build !== BUILD) {
    warnings.push(`brow: the daemon for session "${t.profile}" runs an older build of brow; ${restart}.`);
  }
  if (reply.daemon && t.configFile && resolve(t.configFile) !== reply.daemon.config_file) {
    warnings.push(
      `brow: the daemon for session "${t.profile}" runs with ${reply.daemon.config_file ?? 'no config file'}, not ${resolve(t.configFile)}; ${restart} with it.`,
    );
  }
  return { outcome: reply.outcome, warnings };
}

/** Status of a running daemon, or null when none answers (never starts one). */
export async function daemonStatus(profile: string): Promise<DaemonStatus | null> {
  const { socket } = profilePaths(profile);
  if (!(await probe(socket))) return null;
  const reply = await request<{ status?: DaemonStatus }>(socket, { op: 'status' }).catch(() => null);
  return reply?.status ?? null;
}

/** Stop a running daemon and wait until its process is gone; false when none was running. */
export async function stopDaemon(profile: string, waitMs = 15_000): Promise<boolean> {
  const status = await daemonStatus(profile);
  if (!status) return false;
  await request(status.socket, { op: 'stop' }).catch(() => undefined);
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    try {
      process.kill(status.pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
