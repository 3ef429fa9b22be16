/** How an Outcome leaves the CLI: its text (or the exact JSON with --json) and an exit code from the error table. */
import { ERROR_TABLE } from '../../runtime/error-table.js';
import type { Outcome } from '../../runtime/outcome.js';

/**
 * A call that worked but whose person never confirmed (`brow handoff` answered `confirmed: false`:
 * the timeout, a closed page) exits with the timeout's code, so a script can tell it from success.
 */
export const NOT_CONFIRMED_EXIT = ERROR_TABLE.timeout.exit;

/** The process exit code for an outcome: 0, or the error table's code for its error. */
export function exitCode(o: Outcome): number {
  if (o.ok) return o.data.confirmed === false ? NOT_CONFIRMED_EXIT : 0;
  const row = (ERROR_TABLE as Record<string, { exit: number } | undefined>)[o.data.error_code];
  return row?.exit ?? 1;
}

export interface Streams {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr is a terminal: a status line may be rewritten in place. */
  errIsTty?: boolean;
}

export const stdio: Streams = {
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
  get errIsTty() {
    return process.stderr.isTTY === true;
  },
};

/** Print an outcome; returns its exit code. --json prints it as the tool API sends it, on stdout either way. */
export function printOutcome(o: Outcome, json: boolean, io: Streams = stdio): number {
  if (json) {
    io.out(`${JSON.stringify(o)}\n`);
    return exitCode(o);
  }
  if (!o.ok) {
    io.err(`${o.content}\n`);
    return exitCode(o);
  }
  io.out(o.content.endsWith('\n') ? o.content : `${o.content}\n`);
  const n = o.images?.length ?? 0;
  if (n > 0) io.err(`(${n} image${n > 1 ? 's' : ''} in the answer: --json carries them as base64)\n`);
  return exitCode(o);
}
