/**
 * Element ids: stable per element for the life of the document, never reused.
 *
 * The first walk of a document gives every element an id, so this is on the cold path of the first
 * answer after a navigation. Ids count up from 1, so the way back from an id is a plain list
 * indexed by it, holding the element itself: one store per element, where a map of weak references
 * cost a map entry and a weak cell each (and every garbage collection after visits the weak cells).
 * The list keeps a removed element alive until a sweep drops it; sweeps run as ids grow, and an
 * element that comes back into the document gets its entry again at the next walk that meets it.
 */
import { SafeWeakMap } from './collections.js';
import { mathFloor } from './natives.js';

const idByElement = new SafeWeakMap<Element, number>();
/** Index = id. Swept entries are undefined. */
const elementById: (Element | undefined)[] = [undefined];
/** The ids whose entries are held, as of the last sweep, then every id issued since. */
let held: number[] = [];
let lastId = 0;
/** Entries held right after the last sweep; the next sweep comes when as many ids again (+10,000) are issued. */
let heldAtSweep = 0;
let idAtSweep = 0;

/** Drop the elements no longer in their document (they resolve to nothing anyway, see elementOf). */
function sweep(): void {
  const keep: number[] = [];
  for (let i = 0; i < held.length; i++) {
    const id = held[i]!;
    const el = elementById[id];
    if (el === undefined) continue;
    if (el.isConnected) keep[keep.length] = id;
    else elementById[id] = undefined;
  }
  held = keep;
  heldAtSweep = keep.length;
  idAtSweep = lastId;
}

/** The element's id, assigning the next one if it has none. */
export function idOf(el: Element): number {
  const id = idByElement.get(el);
  if (id !== undefined) {
    // swept while out of the document, and back in it now
    if (elementById[id] === undefined) {
      elementById[id] = el;
      held[held.length] = id;
    }
    return id;
  }
  const next = ++lastId;
  idByElement.set(el, next);
  elementById[next] = el;
  held[held.length] = next;
  if (next - idAtSweep > heldAtSweep + 10_000) sweep();
  return next;
}

/** The element's id if it has one (never assigns). */
export function peekId(el: Element): number | undefined {
  return idByElement.get(el);
}

/** The live, connected element with this id, or null. */
export function elementOf(id: number): Element | null {
  const el = typeof id === 'number' && id >= 1 && id <= lastId ? elementById[id] : undefined;
  return el && el.isConnected ? el : null;
}

/**
 * Why an id no longer names a live element: never issued ('unknown') or gone ('detached': out of
 * the document, or swept after it left).
 */
export function staleReasonOf(id: number): 'detached' | 'unknown' | null {
  if (typeof id !== 'number' || !(id >= 1 && id <= lastId) || id !== mathFloor(id)) return 'unknown';
  return elementOf(id) ? null : 'detached';
}
