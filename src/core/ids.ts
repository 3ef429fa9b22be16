/** Globally unique ids: they carry this process's worker id so they never collide across workers. */
import { randomBytes } from 'node:crypto';

export const WORKER_ID = randomBytes(3).toString('hex');
let counter = 0;

/** A new id like `s-1a2b3c-7`: prefix, worker id, a per-process counter. */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${WORKER_ID}-${counter}`;
}
