/** How a failed capability answers on the bus: an invocation error whose message carries the brow error code. */
import { renderHint } from '../../runtime/door-names.js';
import type { ErrorOutcome } from '../../runtime/outcome.js';

export type ErrorCode = ErrorOutcome['data']['error_code'];

/**
 * Thrown by a bus function handler. The SDK turns any throw into `invocation_failed` with this
 * message, so the code rides in the message: `[error_code] message — hint`.
 */
export class BusError extends Error {
  override readonly name = 'BusError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint = '',
    readonly details: Record<string, unknown> = {},
  ) {
    super(`[${code}] ${message}${hint ? ` — ${hint}` : ''}`);
  }

  /**
   * The error of a failed capability outcome, capability names in its message and hint written as the
   * bus function ids to call (the door-names table, which the worker fills from its function table).
   */
  static from(o: ErrorOutcome, rename: (text: string) => string = (t) => renderHint(t, 'bus')): BusError {
    const { error_code, message, hint, ...details } = o.data;
    return new BusError(error_code, rename(message), rename(hint), details);
  }
}

/** Parse `[code] message — hint` back (for callers and tests). */
export function parseBusError(message: string): { code: string; message: string; hint: string } | null {
  const m = /\[([a-z_]+)\] (.*?)(?: — (.*))?$/s.exec(message);
  return m ? { code: m[1]!, message: m[2]!, hint: m[3] ?? '' } : null;
}
