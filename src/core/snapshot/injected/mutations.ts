/**
 * A mutation counter: DOM changes (document and every shadow root met) and input/change events.
 * Beside it, the outline stamp: what else can change an outline without a DOM mutation (scrolling,
 * a resize, focus, the pointer passing over, an animation ending, an image loading, a popover
 * toggling, a click listener added, a control's value set by script). Equal stamps mean a walk now
 * would give the same outline, boxes included, so the last walk can answer.
 */
import { SafeWeakSet } from './collections.js';
import {
  NativeMutationObserver,
  NativeWeakRef,
  docQueryAll,
  fragQueryAll,
  now,
  observerObserve,
  observerTakeRecords,
  strCharCode,
  targetAddListener,
  weakRefDeref,
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

/** Bumped by what moves or restyles the outline without a DOM mutation (see the header). */
let layoutSeq = 0;
function bumpLayout(): void {
  layoutSeq++;
}
/** Outline facts brow derives from something other than the DOM (a click listener added) changed. */
export const noteOutlineInput = bumpLayout;

/** Every root observed, to read its controls' values (a script setting `.value` mutates nothing). */
const roots: WeakRef<Document | ShadowRoot>[] = [];
// Events that do not cross shadow boundaries (or are not composed): listened on each root.
const ROOT_EVENTS = ['scroll', 'load', 'toggle', 'transitionend', 'animationend'];
// Composed events: once, on the document.
const DOCUMENT_EVENTS = ['focusin', 'focusout', 'pointerover', 'pointerout'];
let windowListened = false;

/** Observe a document or shadow root (once); events that do not cross shadow boundaries are caught there. */
export function observeRoot(root: Document | ShadowRoot): void {
  if (observed.has(root)) return;
  observed.add(root);
  observerObserve(observer, root, OPTIONS);
  // `change` is not composed: listen on each root. `input` is, but a listener here is harmless.
  targetAddListener(root, 'input', bump, true);
  targetAddListener(root, 'change', bump, true);
  for (let i = 0; i < ROOT_EVENTS.length; i++) targetAddListener(root, ROOT_EVENTS[i]!, bumpLayout, true);
  roots[roots.length] = new NativeWeakRef(root);
  if (!windowListened && root.nodeType === 9) {
    windowListened = true;
    for (let i = 0; i < DOCUMENT_EVENTS.length; i++)
      targetAddListener(root, DOCUMENT_EVENTS[i]!, bumpLayout, true);
    targetAddListener(window, 'resize', bumpLayout, true);
    const fonts = (root as Document).fonts as FontFaceSet | undefined;
    if (fonts) targetAddListener(fonts, 'loadingdone', bumpLayout);
  }
}

const CONTROLS = 'input,textarea,select';

/** A hash of every control's value, checked and selection state, in every observed root. */
function controlsHash(): number {
  let h = 5381;
  const mix = (s: string): void => {
    for (let i = 0; i < s.length; i++) h = ((h << 5) + h + strCharCode(s, i)) | 0;
    h = ((h << 5) + h + 31) | 0;
  };
  let live = 0; // roots collected since are dropped from the list as it is read
  for (let r = 0; r < roots.length; r++) {
    const root = weakRefDeref(roots[r]!);
    if (!root) continue;
    roots[live++] = roots[r]!;
    const list = root.nodeType === 9 ? docQueryAll(root, CONTROLS) : fragQueryAll(root, CONTROLS);
    for (let i = 0; i < list.length; i++) {
      const el = list[i] as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      try {
        mix(el.value);
        if (el.localName === 'input') {
          const input = el as HTMLInputElement;
          mix(input.checked ? 'c' : input.indeterminate ? 'i' : '-');
        } else if (el.localName === 'select') {
          const sel = el as HTMLSelectElement;
          mix(`${sel.selectedIndex}/${sel.selectedOptions.length}`);
        }
      } catch {
        mix('!');
      }
    }
  }
  roots.length = live;
  return h;
}

/**
 * Overflow containers met by the last walks (panes, lists): their scroll offsets join the stamp.
 * A scroll event is only sent at the next animation frame, so a stamp read right after a script
 * scrolled a pane would otherwise miss it.
 */
const scrollers: WeakRef<Element>[] = [];
const scrollerSeen = new SafeWeakSet<Element>();

/** Note an element that clips (overflow other than visible): its scroll offsets join the stamp. */
export function noteScroller(el: Element): void {
  if (scrollerSeen.has(el)) return;
  scrollerSeen.add(el);
  scrollers[scrollers.length] = new NativeWeakRef(el);
}

function scrollHash(): number {
  let h = ((window.scrollX * 31) | 0) ^ (window.scrollY | 0);
  let live = 0;
  for (let i = 0; i < scrollers.length; i++) {
    const el = weakRefDeref(scrollers[i]!);
    if (!el) continue;
    scrollers[live++] = scrollers[i]!;
    h = ((h << 5) + h + ((el.scrollTop * 7919) | 0) + (el.scrollLeft | 0)) | 0;
  }
  scrollers.length = live;
  return h;
}

/** The outline stamp: equal stamps, equal outlines (DOM, layout inputs, scroll offsets and control values). */
export function outlineStamp(): string {
  return `${mutationSeq()}.${layoutSeq}.${controlsHash()}.${scrollHash()}`;
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
