/** Globally unique ids: they carry this process's worker id so they never collide across workers. */
import { randomBytes } from 'node:crypto';

/** This process's worker id: random, or the cluster worker's name (setWorkerId). */
export let WORKER_ID = randomBytes(3).toString('hex');
let counter = 0;

/** A new id like `s-1a2b3c-7`: prefix, worker id, a per-process counter. */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${WORKER_ID}-${counter}`;
}

/** Name this process's worker (a cluster worker does, before its first id): ids then say where they live. */
export function setWorkerId(id: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id))
    throw new Error(`Worker id "${id}" must be 1-64 of A-Z a-z 0-9 _ -.`);
  WORKER_ID = id;
}
