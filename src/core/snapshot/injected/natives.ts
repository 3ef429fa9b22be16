/**
 * Pristine builtins, captured when the script is evaluated (at document start, before any page
 * script runs; when evaluated late, whatever the page changed before is what we get). Later
 * tampering with Array/Map/Set/String/Function/Reflect/Element prototypes by the page cannot change
 * what the walker does: we call captured functions and never use the page's prototypes (no push,
 * join, iterators or spread of arrays at walk time). DOM property getters (firstChild, localName,
 * value…) are read directly: pages almost never redefine them and wrapping each read would cost
 * too much; a throwing one costs only its element's subtree (an opaque line).
 */

export const apply = Reflect.apply;
export const defineProperty = Object.defineProperty;
const getOwnDescriptor = Object.getOwnPropertyDescriptor;
export const symbolFor = Symbol.for;
export const freeze = Object.freeze;
export const mathRound = Math.round;
export const mathFloor = Math.floor;
export const parseIntNative = parseInt;
const objectCreate = Object.create;
const objectAssign = Object.assign;
export const setPrototypeOf = Object.setPrototypeOf;
export const jsonStringify = JSON.stringify;

/** A lookup table without a prototype (so `table['constructor']` is undefined). */
export function table<V>(entries: Record<string, V>): Record<string, V> {
  return objectAssign(objectCreate(null) as Record<string, V>, entries);
}
const mathRandom = Math.random;

type AnyFn = (...args: any[]) => any;

const call = Function.prototype.call;
const bind = Function.prototype.bind;

/**
 * `fn.call(self, ...args)` that no later patch of Function.prototype.call can divert, with no
 * argument array per call (the primordials trick: `call` bound to `fn`).
 */
function uncurry<F extends AnyFn>(fn: F): (self: unknown, ...args: Parameters<F>) => ReturnType<F> {
  return apply(bind, call, [fn]) as (self: unknown, ...args: Parameters<F>) => ReturnType<F>;
}

/** Created per element: the native constructor and a captured deref. */
export const NativeWeakRef = WeakRef;
export const weakRefDeref = uncurry(WeakRef.prototype.deref) as <T extends WeakKey>(
  ref: WeakRef<T>,
) => T | undefined;

// Collections: captured constructors and methods (see collections.ts).
export const NativeMap = Map;
export const NativeWeakMap = WeakMap;
export const NativeSet = Set;
export const NativeWeakSet = WeakSet;
export const mapGet = uncurry(Map.prototype.get);
export const mapSet = uncurry(Map.prototype.set);
export const mapHas = uncurry(Map.prototype.has);
export const mapDelete = uncurry(Map.prototype.delete);
export const mapForEach = uncurry(Map.prototype.forEach);
export const mapSize = uncurry(getOwnDescriptor(Map.prototype, 'size')!.get!) as (
  map: Map<unknown, unknown>,
) => number;
export const weakMapGet = uncurry(WeakMap.prototype.get);
export const weakMapSet = uncurry(WeakMap.prototype.set);
export const weakMapHas = uncurry(WeakMap.prototype.has);
export const setHas = uncurry(Set.prototype.has);
export const setAdd = uncurry(Set.prototype.add);
export const setSize = uncurry(getOwnDescriptor(Set.prototype, 'size')!.get!) as (
  set: Set<unknown>,
) => number;
export const weakSetHas = uncurry(WeakSet.prototype.has);
export const weakSetAdd = uncurry(WeakSet.prototype.add);

// Strings.
export const strToLower = uncurry(String.prototype.toLowerCase);
export const strSlice = uncurry(String.prototype.slice);
export const strSplit = uncurry(String.prototype.split) as (s: string, sep: RegExp | string) => string[];
export const regexTest = uncurry(RegExp.prototype.test) as (re: RegExp, s: string) => boolean;
export const strCharCode = uncurry(String.prototype.charCodeAt);
export const strIndexOf = uncurry(String.prototype.indexOf);

// DOM methods the walker calls.
const EP = Element.prototype;
export const elGetAttribute = uncurry(EP.getAttribute);
export const elHasAttributes = uncurry(EP.hasAttributes);
export const elGetAttributeNames = uncurry(EP.getAttributeNames);
export const elClosest = uncurry(EP.closest);
export const elRect = uncurry(EP.getBoundingClientRect);
export const elMatches = uncurry(EP.matches);
export const elQuery = uncurry(EP.querySelector);
export const elQueryAll = uncurry(EP.querySelectorAll);
export const nodeContains = uncurry(Node.prototype.contains);
export const elCheckVisibility: (el: Element, opts?: CheckVisibilityOptions) => boolean =
  typeof EP.checkVisibility === 'function' ? uncurry(EP.checkVisibility) : () => true;
export const nodeGetRootNode = uncurry(Node.prototype.getRootNode);
export const docElementFromPoint = uncurry(Document.prototype.elementFromPoint);
export const shadowElementFromPoint = uncurry(ShadowRoot.prototype.elementFromPoint);
export const docGetElementById = uncurry(Document.prototype.getElementById);
export const fragGetElementById = uncurry(DocumentFragment.prototype.getElementById);
export const docQueryAll = uncurry(Document.prototype.querySelectorAll);
export const fragQueryAll = uncurry(DocumentFragment.prototype.querySelectorAll);
export const docCreateRange = uncurry(Document.prototype.createRange);
export const rangeSetStartBefore = uncurry(Range.prototype.setStartBefore);
export const rangeSetEndAfter = uncurry(Range.prototype.setEndAfter);
export const rangeRect = uncurry(Range.prototype.getBoundingClientRect);
export const slotAssignedNodes = uncurry(HTMLSlotElement.prototype.assignedNodes);
export const targetAddListener = uncurry(EventTarget.prototype.addEventListener);
export const observerObserve = uncurry(MutationObserver.prototype.observe);
export const observerTakeRecords = uncurry(MutationObserver.prototype.takeRecords);
export const NativeMutationObserver = MutationObserver;
const winGetComputedStyle = window.getComputedStyle;
export const computedStyle = (el: Element, pseudo?: string): CSSStyleDeclaration =>
  apply(winGetComputedStyle, window, [el, pseudo]) as CSSStyleDeclaration;
const perfNow = Performance.prototype.now;
const perf = performance;
export const now = (): number => apply(perfNow, perf, []) as number;
const winSetTimeout = window.setTimeout;
/** setTimeout as the page had it before brow's timer patch (so brow's own waits are never noted). */
export const later = (fn: () => void, ms: number): void => void apply(winSetTimeout, window, [fn, ms]);
const winRaf = window.requestAnimationFrame;
export const nextFrame = (fn: () => void): void => void apply(winRaf, window, [fn]);
const randomUUID = Crypto.prototype.randomUUID as (() => string) | undefined;
const cryptoObj = globalThis.crypto;
/** A random key; randomUUID needs a secure context, so fall back to Math.random elsewhere. */
export function randomKey(): string {
  try {
    if (randomUUID) return apply(randomUUID, cryptoObj, []) as string;
  } catch {
    // insecure context (http://non-localhost): fall through
  }
  let s = '';
  for (let i = 0; i < 4; i++) s += mathRound(mathRandom() * 0xffffffff).toString(16);
  return s;
}
