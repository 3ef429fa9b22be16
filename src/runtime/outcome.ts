/** The one result shape every door starts from: seed 001's `{ok, content, data}`. */
import { BrowserError, type ErrorCode } from '../core/errors.js';
import type { ImageContent } from '../capabilities/define.js';

export interface OkOutcome {
  ok: true;
  /** Text written for a model. */
  content: string;
  data: Record<string, unknown>;
  images?: ImageContent[];
}

export interface ErrorOutcome {
  ok: false;
  /** `Browser operation failed [code]: message hint` */
  content: string;
  data: { error_code: ErrorCode; message: string; hint: string } & Record<string, unknown>;
}

export type Outcome = OkOutcome | ErrorOutcome;

/** The text every door shows for a failure: `Browser operation failed [code]: message hint`. */
export function failureText(code: string, message: string, hint: string): string {
  return `Browser operation failed [${code}]: ${message} ${hint}`;
}

/** A failure outcome made by a door itself (before or around invoke). */
export function failure(
  code: ErrorCode,
  message: string,
  hint: string,
  extra: Record<string, unknown> = {},
): ErrorOutcome {
  return {
    ok: false,
    content: failureText(code, message, hint),
    data: { error_code: code, message, hint, ...extra },
  };
}

/**
 * The reason a door aborts a call's signal with, when the cancelled call should answer with a code
 * of its own (a bus worker closing: `connection_failed`) rather than a plain cancellation.
 */
export function cancelReason(code: ErrorCode, message: string, hint?: string): Error {
  return new BrowserError(code, message, hint ? { hint } : {});
}
