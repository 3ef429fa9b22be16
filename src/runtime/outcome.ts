/** The one result shape every door starts from: seed 001's `{ok, content, data}`. */
import type { ErrorCode } from '../core/errors.js';
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
