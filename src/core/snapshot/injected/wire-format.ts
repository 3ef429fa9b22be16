/**
 * The wire form of a walk, shared by the page (wire.ts encodes) and Node (../wire.ts decodes):
 * constants and types only, nothing that needs a browser.
 */
import type { WalkResult } from './types.js';

/** How the error of a patched walk that differs from a whole one begins (the test suite's verify mode). */
export const VERIFY_FAILED = 'brow: a patched walk differs from a whole walk';

/** Which optional fields follow a node's fixed fields, in this order. */
export const WIRE = {
  IN_VIEW: 1,
  FRAME: 2,
  TEXT: 4,
  VALUE: 8,
  LEVEL: 16,
  OPAQUE: 32,
  STATES: 64,
  ACTIONS: 128,
  ATTRS: 256,
  INSET: 512,
  /** Range bounds follow: min and max, each a number or null when unknown. */
  RANGE: 1024,
  DESCRIPTION: 2048,
} as const;

/** Separates the states (or actions) of a node inside their one shared string. */
export const LIST_SEP = '\u0001';

/**
 * A walk in wire form. Per node in `data`: flags, id, depth, role, name, tag, x, y, width,
 * height (strings as indexes into `strs`); then, when their flag is set: text, value, level,
 * opaque, states, actions, attribute count and name/value pairs, frame inset x and y, range
 * min and max (null when unknown), description.
 */
export interface WireWalk extends Omit<WalkResult, 'nodes'> {
  strs: string[];
  data: (number | null)[];
  count: number;
  /** The page's name for this walk (whole walks only): the `since` of the next one. */
  walkId?: string;
  /**
   * Set when this walk travels as a change of walk `since`: `data` holds only the nodes after the
   * first `prefix` and before the last `suffix` of this walk's `total`, which are those of `since`.
   */
  delta?: { since: string; prefix: number; suffix: number; total: number };
}
