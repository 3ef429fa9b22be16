/**
 * Element ids: stable per element for the life of the document, never reused.
 *
 * The first walk of a document gives every element an id, so this is on the cold path of the first
 * answer after a navigation. Ids count up from 1, so the way back from an id is a plain list
 * indexed by it, holding the element itself: one store per element, where a map of weak references
 * cost a map entry and a weak cell each (and every garbage collection after visits the weak cells).
 * The list keeps a removed element alive until a sweep drops it; sweeps run as ids grow. A swept
 * element is then held weakly (swept), so a ref to it still works if the page puts it back.
 */
import { SafeMap, SafeWeakMap } from './collections.js';
import { NativeWeakRef, mathFloor, weakRefDeref } from './natives.js';

const idByElement = new SafeWeakMap<Element, number>();
/** Index = id. Swept entries are undefined. */
const elementById: (Element | undefined)[] = [undefined];
/** The ids whose entries are held, as of the last sweep, then every id issued since. */
let held: number[] = [];
let lastId = 0;
/** Entries held right after the last sweep; the next sweep comes when as many ids again (+10,000) are issued. */
let heldAtSweep = 0;
let idAtSweep = 0;
/** Elements swept out of the list, held weakly: the page may still hold one and put it back. */
const swept = new SafeMap<number, WeakRef<Element>>();

/** Drop the elements no longer in their document (they resolve to nothing anyway, see elementOf). */
function sweep(): void {
  const gone: number[] = [];
  swept.forEach((ref, id) => {
    if (weakRefDeref(ref) === undefined) gone[gone.length] = id;
  });
  for (let i = 0; i < gone.length; i++) swept.delete(gone[i]!);
  const keep: number[] = [];
  for (let i = 0; i < held.length; i++) {
    const id = held[i]!;
    const el = elementById[id];
    if (el === undefined) continue;
    if (el.isConnected) keep[keep.length] = id;
    else {
      elementById[id] = undefined;
      swept.set(id, new NativeWeakRef(el));
    }
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
    if (elementById[id] === undefined) restore(id, el);
    return id;
  }
  const next = ++lastId;
  idByElement.set(el, next);
  elementById[next] = el;
  held[held.length] = next;
  if (next - idAtSweep > heldAtSweep + 10_000) sweep();
  return next;
}

/** Hold a swept element strongly again (it is back in a document). */
function restore(id: number, el: Element): void {
  elementById[id] = el;
  held[held.length] = id;
  swept.delete(id);
}

/** The element's id if it has one (never assigns). */
export function peekId(el: Element): number | undefined {
  return idByElement.get(el);
}

/** The live, connected element with this id, or null. */
export function elementOf(id: number): Element | null {
  if (!(typeof id === 'number' && id >= 1 && id <= lastId)) return null;
  const el = elementById[id];
  if (el !== undefined) return el.isConnected ? el : null;
  const ref = swept.get(id);
  const back = ref ? weakRefDeref(ref) : undefined;
  if (!back || !back.isConnected) return null;
  restore(id, back);
  return back;
}

/**
 * Why an id no longer names a live element: never issued ('unknown') or gone ('detached': out of
 * the document, or collected after it left).
 */
export function staleReasonOf(id: number): 'detached' | 'unknown' | null {
  if (typeof id !== 'number' || !(id >= 1 && id <= lastId) || id !== mathFloor(id)) return 'unknown';
  return elementOf(id) ? null : 'detached';
}
