/**
 * The two patches of page builtins, installed at document start: attachShadow (to know closed
 * shadow roots) and addEventListener (to know elements with click-like listeners). Both keep
 * answering the native source from Function.prototype.toString.
 */
import { noteOutlineInput, observeRoot } from './mutations.js';
import { SafeMap, SafeSet, SafeWeakMap } from './collections.js';
import { apply, defineProperty, table } from './natives.js';
import { recordShadowRoot } from './shadow.js';

type AnyFn = (...args: unknown[]) => unknown;

const nativeOf = new SafeWeakMap<object, AnyFn>();
const nativeToString = Function.prototype.toString;
let masked = false;

/** Wrap Function.prototype.toString once so patched functions (and the wrapper) print as native. */
function maskToString(): void {
  if (masked) return;
  masked = true;
  const { toString } = {
    toString(this: unknown): string {
      const target = (typeof this === 'function' && nativeOf.get(this)) || this;
      return apply(nativeToString, target, []) as string;
    },
  };
  nativeOf.set(toString, nativeToString as AnyFn);
  defineProperty(Function.prototype, 'toString', {
    value: toString,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/** Replace proto[key] by `patched`, keeping the property's attributes and a native toString. */
function replace(proto: object, key: string, patched: AnyFn): void {
  const original = (proto as Record<string, AnyFn>)[key];
  if (typeof original !== 'function') return;
  maskToString();
  nativeOf.set(patched, original);
  defineProperty(proto, key, { value: patched, writable: true, configurable: true, enumerable: true });
}

const originalAttachShadow = Element.prototype.attachShadow as AnyFn;

function patchAttachShadow(): void {
  const { attachShadow } = {
    // One declared parameter, like the native (length 1).
    attachShadow(this: Element, _init: ShadowRootInit): ShadowRoot {
      // eslint-disable-next-line prefer-rest-params
      const root = apply(originalAttachShadow, this, arguments) as ShadowRoot;
      try {
        recordShadowRoot(this, root);
        observeRoot(root);
      } catch {
        // never break the page
      }
      return root;
    },
  };
  replace(Element.prototype, 'attachShadow', attachShadow as AnyFn);
}

const CLICK_TYPES = table<true>({ click: true, mousedown: true, pointerdown: true, mouseup: true });
/** Listener types a mouse-driven drag starts from (jQuery UI, SortableJS, hand-written drags). */
const PRESS_TYPES = table<true>({ mousedown: true, pointerdown: true, touchstart: true });
/** Distinct listener types per element; a click listener counts only on elements with few types. */
const listenerTypes = new SafeWeakMap<Element, SafeSet<string>>();
const clickListened = new SafeWeakMap<Element, true>();
const pressListened = new SafeWeakMap<Element, true>();
let anyListener = false;
/** How many elements (ever) got a press listener: none, and drag containers need no lookups. */
let pressElements = 0;
/** Listener types through which a page reacts to the pointer passing over (menus, hover intent). */
const HOVER_TYPES = table<true>({
  mouseover: true,
  mouseenter: true,
  mousemove: true,
  pointerover: true,
  pointerenter: true,
  pointermove: true,
});
/** How many hover-type listeners were added anywhere in the document (window and document too). */
let hoverListeners = 0;
/** The patches went in before the page's scripts ran, so the listener records are complete. */
let patchedEarly = false;
/** More distinct types than this and the element is a delegation root (React's root container). */
const DELEGATION_TYPES = 12;

const originalAddEventListener = EventTarget.prototype.addEventListener as AnyFn;

function patchAddEventListener(): void {
  const { addEventListener } = {
    // Two declared parameters, like the native (length 2).
    addEventListener(this: EventTarget, type: string, _listener: unknown): void {
      try {
        if (typeof type === 'string' && HOVER_TYPES[type] === true) hoverListeners++;
        const el = this as Element;
        if (el && el.nodeType === 1 && typeof type === 'string') {
          let types = listenerTypes.get(el);
          if (!types) listenerTypes.set(el, (types = new SafeSet<string>()));
          types.add(type);
          if (CLICK_TYPES[type] === true && !clickListened.get(el)) {
            clickListened.set(el, true);
            anyListener = true;
            noteOutlineInput(el);
          }
          if (PRESS_TYPES[type] === true && !pressListened.get(el)) {
            pressListened.set(el, true);
            pressElements++;
            noteOutlineInput(el);
          }
        }
      } catch {
        // never break the page
      }
      // eslint-disable-next-line prefer-rest-params
      return apply(originalAddEventListener, this, arguments) as void;
    },
  };
  replace(EventTarget.prototype, 'addEventListener', addEventListener as AnyFn);
}

/** Whether a click/mousedown/pointerdown/mouseup listener was added to this element (not a delegation root). */
export function hasClickListener(el: Element): boolean {
  if (!anyListener || !clickListened.get(el)) return false;
  const types = listenerTypes.get(el);
  return !types || types.size <= DELEGATION_TYPES;
}

/** Whether any element of the document ever got a mousedown/pointerdown/touchstart listener. */
export function anyPressListener(): boolean {
  return pressElements > 0;
}

/**
 * Whether a mousedown/pointerdown/touchstart listener was added to this element, which is not
 * body/html and not a delegation root: where a mouse-driven drag (a sortable list, a draggable
 * box, a slider track) starts.
 */
export function hasPressListener(el: Element): boolean {
  if (pressElements === 0 || !pressListened.get(el)) return false;
  const tag = el.localName;
  if (tag === 'body' || tag === 'html') return false;
  const types = listenerTypes.get(el);
  return !types || types.size <= DELEGATION_TYPES;
}

/**
 * Whether the parent, grandparent or great-grandparent of an element listens for presses (see
 * hasPressListener): the element is an item of a mouse-driven drag container. Three WeakMap
 * lookups at most, none when no element of the document ever got such a listener.
 */
export function inPressContainer(el: Element): boolean {
  if (pressElements === 0) return false;
  let p = el.parentElement;
  for (let i = 0; p && i < 3; i++, p = p.parentElement) if (hasPressListener(p)) return true;
  return false;
}

/**
 * Whether the pointer passing over may change the page through script: a hover-type listener was
 * added anywhere, an inline on-hover attribute is present, or brow came in after the page's own
 * scripts (its records are then incomplete, so the answer is yes). CSS :hover needs no script and
 * no waiting: the next frame paints it.
 */
export function mayReactToHover(): boolean {
  if (!patchedEarly || hoverListeners > 0) return true;
  return (
    document.querySelector(
      '[onmouseover],[onmouseenter],[onmousemove],[onpointerover],[onpointerenter],[onpointermove]',
    ) !== null
  );
}

/** Timers the page set while typed input went in (id → when due), and whether that is now. */
const timersDue = new SafeMap<unknown, number>();
let recordingTimers = false;
/** When a noted timer's callback last ran (performance.now), or -Infinity. */
let timerRanAt = -Infinity;
const perfNow = performance.now.bind(performance);
/** Longest timer counted as a reaction to typing (a debounce), ms. */
const MAX_DEBOUNCE_MS = 5000;

/**
 * setTimeout/clearTimeout that note, only while brow types (see recordTimers), the short timers a
 * page sets and clears: a debounce (an autocomplete asking the server 300 ms after the last key)
 * shows as a timer still due after the action settled. Installed at document start, so a library
 * that keeps its own reference (lodash's debounce does at load) is seen too.
 */
function patchTimers(): void {
  const originalSetTimeout = setTimeout as unknown as AnyFn;
  const originalClearTimeout = clearTimeout as unknown as AnyFn;
  const timers = {
    // declared parameters as the natives have (setTimeout.length 1, clearTimeout.length 0)
    setTimeout(this: unknown, _handler: unknown): unknown {
      // eslint-disable-next-line prefer-rest-params
      const ms = Number(arguments[1]) || 0;
      // eslint-disable-next-line prefer-rest-params
      const handler: unknown = arguments[0];
      if (!recordingTimers || ms > MAX_DEBOUNCE_MS || typeof handler !== 'function') {
        // eslint-disable-next-line prefer-rest-params
        return apply(originalSetTimeout, this, arguments);
      }
      // noted until its callback runs (or it is cleared), however late a busy page runs it
      const noted: { id?: unknown } = {};
      const args: unknown[] = [];
      // eslint-disable-next-line prefer-rest-params
      for (let i = 0; i < arguments.length; i++) args[i] = arguments[i];
      args[0] = function (this: unknown) {
        timersDue.delete(noted.id);
        timerRanAt = perfNow();
        // eslint-disable-next-line prefer-rest-params
        return apply(handler as AnyFn, this, arguments);
      };
      const id = apply(originalSetTimeout, this, args);
      noted.id = id;
      timersDue.set(id, perfNow() + ms);
      return id;
    },
    clearTimeout(this: unknown): unknown {
      // eslint-disable-next-line prefer-rest-params
      if (timersDue.size > 0) timersDue.delete(arguments[0]);
      // eslint-disable-next-line prefer-rest-params
      return apply(originalClearTimeout, this, arguments);
    },
  };
  replace(globalThis, 'setTimeout', timers.setTimeout as AnyFn);
  replace(globalThis, 'clearTimeout', timers.clearTimeout as AnyFn);
}

/** Animation-frame callbacks the page asked for while recording that have not run yet (id → true). */
const framesDue = new SafeMap<unknown, true>();

/**
 * requestAnimationFrame/cancelAnimationFrame that note, while recording (see recordTimers), the
 * frame callbacks a page asks for: a render put off to the next frame (or a chain of them, one
 * asking for the next) shows as a frame still due, so the settle waits for it (quiet.ts).
 */
function patchFrames(): void {
  const originalRequest = requestAnimationFrame as unknown as AnyFn;
  const originalCancel = cancelAnimationFrame as unknown as AnyFn;
  const frames = {
    // one declared parameter each, as the natives have
    requestAnimationFrame(this: unknown, _callback: unknown): unknown {
      // eslint-disable-next-line prefer-rest-params
      const callback: unknown = arguments[0];
      // eslint-disable-next-line prefer-rest-params
      if (!recordingTimers || typeof callback !== 'function') return apply(originalRequest, this, arguments);
      const noted: { id?: unknown } = {};
      const id = apply(originalRequest, this, [
        function (this: unknown) {
          framesDue.delete(noted.id);
          // eslint-disable-next-line prefer-rest-params
          return apply(callback as AnyFn, this, arguments);
        },
      ]);
      noted.id = id;
      framesDue.set(id, true);
      return id;
    },
    cancelAnimationFrame(this: unknown, _handle: unknown): unknown {
      // eslint-disable-next-line prefer-rest-params
      if (framesDue.size > 0) framesDue.delete(arguments[0]);
      // eslint-disable-next-line prefer-rest-params
      return apply(originalCancel, this, arguments);
    },
  };
  replace(globalThis, 'requestAnimationFrame', frames.requestAnimationFrame as AnyFn);
  replace(globalThis, 'cancelAnimationFrame', frames.cancelAnimationFrame as AnyFn);
}

/** Start (forgetting earlier ones) or stop noting the timers and frame callbacks the page sets. */
export function recordTimers(on: boolean): void {
  if (on) {
    timersDue.forEach((_due, id) => timersDue.delete(id));
    framesDue.forEach((_due, id) => framesDue.delete(id));
  }
  if (!on && recordingTimers) stoppedAt = perfNow();
  if (on) {
    stoppedAt = Infinity;
    startedAt = perfNow();
  }
  recordingTimers = on;
}

/** When noting last started (the action began), performance.now. */
let startedAt = -Infinity;

/** When the action being noted began (see recordTimers), or Infinity when nothing is noted. */
export function notingSince(): number {
  return recordingTimers ? startedAt : Infinity;
}

/** When noting timers last stopped (the last key went in), or Infinity while noting. */
let stoppedAt = Infinity;

/**
 * When a noted timer last fired: a debounce that fired may have started a request that brow hears
 * of only a little later, so the settle gives it the whole quiet window (see settleQuiet).
 */
export function lastTimerRanAt(): number {
  return timerRanAt;
}

/** Whether a frame callback noted while recording has yet to run. */
export function frameDue(): boolean {
  return framesDue.size > 0;
}

/**
 * Whether a timer noted while recording is still due (a debounce that has not fired): its
 * callback has not run, even if its time has passed on a busy page (a few seconds at most); or one
 * fired after the keys went in, less than FIRED_ANSWER_MS ago (what it started is still coming).
 */
export function timerDue(): boolean {
  const now = perfNow();
  // a debounce that fired after the last key may have started a request brow hears of only a
  // little later (on a loaded machine, later than the settle's quiet window): still its answer
  if (timerRanAt > stoppedAt && now - timerRanAt < FIRED_ANSWER_MS) return true;
  let due = false;
  timersDue.forEach((at) => {
    if (at > now - LATE_TIMER_MS) due = true;
  });
  return due;
}

/** How long after a noted timer fired (after the keys) its answer is still taken as coming. */
const FIRED_ANSWER_MS = 500;

/** A noted timer whose callback is this late is taken as never coming (a string handler, a frozen page). */
const LATE_TIMER_MS = 3000;

/** Install the patches (once per document). */
export function installPatches(): void {
  const early = document.readyState === 'loading';
  patchAttachShadow();
  patchAddEventListener();
  patchTimers();
  patchFrames();
  patchedEarly = early;
}
