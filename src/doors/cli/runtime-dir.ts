/** Where a profile's daemon listens and logs: one unix socket per profile in the user's runtime dir. */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './usage-error.js';

/** `BROW_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/brow`, else `<tmp>/brow-<uid>`; created private (0700). */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir =
    env.BROW_RUNTIME_DIR ||
    (env.XDG_RUNTIME_DIR
      ? join(env.XDG_RUNTIME_DIR, 'brow')
      : join(tmpdir(), `brow-${process.getuid?.() ?? 'user'}`));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** A profile name is part of a file name: letters, digits, dot, dash, underscore. */
export function checkProfile(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new UsageError(`"${name}" is not a usable session name.`, {
      hint: 'Use letters, digits, ".", "-" or "_" (at most 64), e.g. --session work.',
    });
  }
  return name;
}

export interface ProfilePaths {
  socket: string;
  log: string;
}

export function profilePaths(profile: string, env: NodeJS.ProcessEnv = process.env): ProfilePaths {
  const dir = runtimeDir(env);
  const socket = join(dir, `${checkProfile(profile)}.sock`);
  // a unix socket path has room for about 107 bytes
  if (Buffer.byteLength(socket) > 100) {
    throw new UsageError(`The daemon socket path ${socket} is too long for a unix socket.`, {
      hint: 'Use a shorter --session name, or set BROW_RUNTIME_DIR to a short folder such as /tmp/brow.',
    });
  }
  return { socket, log: join(dir, `${profile}.log`) };
}

/** "30m", "2s", "1500ms", "1h", or a bare number of seconds → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!m) {
    throw new UsageError(`"${text}" is not a duration.`, { hint: 'Write it as 1500ms, 2s, 30m or 1h.' });
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(m[1]) * unit);
  if (ms < 1) throw new UsageError(`The duration "${text}" is too short.`, { hint: 'Give at least 1ms.' });
  return ms;
}
