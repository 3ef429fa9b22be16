/** Element ids: stable per element for the life of the document, never reused. */
import { SafeFinalizationRegistry, SafeMap, SafeWeakMap, SafeWeakRef } from './natives.js';

const idByElement = new SafeWeakMap<Element, number>();
const elementById = new SafeMap<number, WeakRef<Element>>();
// Forget the entry of a collected element; its id stays issued (≤ lastId) so it reads 'detached'.
const registry = new SafeFinalizationRegistry<number>((id) => elementById.delete(id));
let lastId = 0;

/** The element's id, assigning the next one if it has none. */
export function idOf(el: Element): number {
  let id = idByElement.get(el);
  if (id === undefined) {
    id = ++lastId;
    idByElement.set(el, id);
    elementById.set(id, new SafeWeakRef(el));
    registry.register(el, id);
  }
  return id;
}

/** The live, connected element with this id, or null. */
export function elementOf(id: number): Element | null {
  const el = elementById.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

/** Why an id no longer names a live element: never issued ('unknown') or gone ('detached'). */
export function staleReasonOf(id: number): 'detached' | 'unknown' | null {
  if (typeof id !== 'number' || !(id >= 1 && id <= lastId) || id !== (id | 0)) return 'unknown';
  return elementOf(id) ? null : 'detached';
}
