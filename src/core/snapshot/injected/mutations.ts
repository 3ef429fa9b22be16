/** A mutation counter: DOM changes (document and every shadow root met) and input/change events. */
import { SafeWeakSet } from './collections.js';
import {
  NativeMutationObserver,
  now,
  observerObserve,
  observerTakeRecords,
  targetAddListener,
} from './natives.js';

let seq = 0;
let lastAt = 0;
const observed = new SafeWeakSet<Node>();
const OPTIONS: MutationObserverInit = {
  subtree: true,
  childList: true,
  attributes: true,
  characterData: true,
};

function bump(): void {
  seq++;
  lastAt = now();
}

const observer = new NativeMutationObserver(bump);

/** Observe a document or shadow root (once); events that do not cross shadow boundaries are caught there. */
export function observeRoot(root: Document | ShadowRoot): void {
  if (observed.has(root)) return;
  observed.add(root);
  observerObserve(observer, root, OPTIONS);
  // `change` is not composed: listen on each root. `input` is, but a listener here is harmless.
  targetAddListener(root, 'input', bump, true);
  targetAddListener(root, 'change', bump, true);
}

/** The counter now; observer records not yet delivered count as a mutation. */
export function mutationSeq(): number {
  if (observerTakeRecords(observer).length) bump();
  return seq;
}

/** The counter and the time of the last change. */
export function mutationState(): { seq: number; lastAt: number } {
  mutationSeq();
  return { seq, lastAt };
}
