/** Element ids: stable per element for the life of the document, never reused. */
import { SafeMap, SafeWeakMap } from './collections.js';
import { mathFloor, NativeWeakRef, weakRefDeref } from './natives.js';

const idByElement = new SafeWeakMap<Element, number>();
const elementById = new SafeMap<number, WeakRef<Element>>();
let lastId = 0;
/** Entries at the last sweep; the map is swept of collected elements when it doubles. */
let sweptSize = 0;

function sweep(): void {
  const dead: number[] = [];
  elementById.forEach((ref, id) => {
    if (!weakRefDeref(ref)) dead[dead.length] = id;
  });
  for (let i = 0; i < dead.length; i++) elementById.delete(dead[i]!);
  sweptSize = elementById.size;
}

/** The element's id, assigning the next one if it has none. */
export function idOf(el: Element): number {
  let id = idByElement.get(el);
  if (id === undefined) {
    id = ++lastId;
    idByElement.set(el, id);
    elementById.set(id, new NativeWeakRef(el));
    if (elementById.size > 2 * sweptSize + 10_000) sweep();
  }
  return id;
}

/** The element's id if it has one (never assigns). */
export function peekId(el: Element): number | undefined {
  return idByElement.get(el);
}

/** The live, connected element with this id, or null. */
export function elementOf(id: number): Element | null {
  const ref = elementById.get(id);
  const el = ref ? weakRefDeref(ref) : undefined;
  return el && el.isConnected ? el : null;
}

/**
 * Why an id no longer names a live element: never issued ('unknown') or gone ('detached'; an
 * issued id missing from the map belonged to an element that was collected).
 */
export function staleReasonOf(id: number): 'detached' | 'unknown' | null {
  if (typeof id !== 'number' || !(id >= 1 && id <= lastId) || id !== mathFloor(id)) return 'unknown';
  return elementOf(id) ? null : 'detached';
}
