/**
 * A mutation counter: DOM changes (document and every shadow root met) and input/change events.
 * Beside it, the outline stamp: what else can change an outline without a DOM mutation (scrolling,
 * a resize, focus, the pointer passing over, an animation ending, an image loading, a popover
 * toggling, a click listener added, a control's value set by script). Equal stamps mean a walk now
 * would give the same outline, boxes included, so the last walk can answer.
 */
import { SafeMap, SafeWeakSet } from './collections.js';
import {
  NativeMutationObserver,
  NativeWeakRef,
  docQueryAll,
  elQuery,
  fragQueryAll,
  now,
  observerObserve,
  observerTakeRecords,
  strCharCode,
  table,
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

/**
 * Where the page changed since the last whole walk was held (see incremental.ts): the nodes
 * mutation records and events name, each with what happened to it. Past DIRTY_CAP entries, or a
 * change with no place (a resize, a font loading), only "anything may have changed" is kept.
 */
export const DIRTY_ATTR = 0;
export const DIRTY_TEXT = 1;
export const DIRTY_CHILDREN = 2;
/** An event on an element: a transition or animation ended, an image loaded, a listener added. */
export const DIRTY_EVENT = 3;
/** input or change: a control's value, checked or selected state. */
export const DIRTY_INPUT = 4;
const DIRTY_CAP = 256;
export interface DirtyLog {
  nodes: Node[];
  kinds: number[];
  /** Changed beyond what the list can say. */
  anywhere: boolean;
  /** The pointer moved over or out of an element (hover styles). */
  hovered: boolean;
  /** An attribute that links elements (id, for, aria-labelledby…) or a dialog's `open` changed. */
  links: boolean;
}
let dirty: DirtyLog = { nodes: [], kinds: [], anywhere: false, hovered: false, links: false };

/** Attributes whose change reaches elements outside the changed one's subtree. */
const LINKING = table<true>({
  id: true,
  for: true,
  'aria-labelledby': true,
  'aria-describedby': true,
  'aria-owns': true,
  'aria-activedescendant': true,
  form: true,
  list: true,
  open: true,
});

function noteDirty(node: Node | null, kind: number): void {
  if (!node || (node.nodeType !== 1 && node.nodeType !== 3)) {
    dirty.anywhere = true;
    return;
  }
  const n = dirty.nodes.length;
  if (n >= DIRTY_CAP) {
    dirty.anywhere = true;
    return;
  }
  dirty.nodes[n] = node;
  dirty.kinds[n] = kind;
}

/** A style sheet's element (its rules apply to the whole document, wherever it sits). */
function isSheet(n: Node | null): boolean {
  if (!n || n.nodeType !== 1) return false;
  const tag = (n as Element).localName;
  return tag === 'style' || tag === 'link';
}

/** A style sheet's element among these nodes or inside them. */
function anySheet(list: NodeList): boolean {
  for (let i = 0; i < list.length; i++) {
    const n = list[i]!;
    if (isSheet(n) || (n.nodeType === 1 && elQuery(n as Element, 'style,link') !== null)) return true;
  }
  return false;
}

function noteRecords(records: MutationRecord[]): void {
  for (let i = 0; i < records.length && !dirty.anywhere; i++) {
    const r = records[i]!;
    const type = r.type;
    const target = r.target;
    if (isSheet(target) || isSheet(target.parentNode)) dirty.anywhere = true;
    else if (type === 'attributes') {
      if (r.attributeName !== null && LINKING[r.attributeName] === true) dirty.links = true;
      noteDirty(target, DIRTY_ATTR);
    } else if (type === 'characterData') noteDirty(target, DIRTY_TEXT);
    else if (anySheet(r.addedNodes) || anySheet(r.removedNodes)) dirty.anywhere = true;
    else noteDirty(target, DIRTY_CHILDREN);
  }
}

/** What changed since the last call, starting a new log. */
export function takeDirty(): DirtyLog {
  mutationSeq();
  const out = dirty;
  dirty = { nodes: [], kinds: [], anywhere: false, hovered: false, links: false };
  return out;
}

function onRecords(records: MutationRecord[]): void {
  noteRecords(records);
  bump();
}

const observer = new NativeMutationObserver(onRecords);

/** Bumped by what moves or restyles the outline without a DOM mutation (see the header). */
let layoutSeq = 0;
function bumpLayout(): void {
  layoutSeq++;
}
/** A change that could be anywhere (a resize, a font loading). */
function bumpAnywhere(): void {
  layoutSeq++;
  dirty.anywhere = true;
}
/** Outline facts brow derives from something other than the DOM (a click listener added to `el`) changed. */
export function noteOutlineInput(el: Element): void {
  layoutSeq++;
  noteDirty(el, DIRTY_EVENT);
}
function onInput(e: Event): void {
  bump();
  noteDirty(e.target as Node, DIRTY_INPUT);
}
/** A transition or animation ended, an image loaded, a popover or details toggled. */
function onElementEvent(e: Event): void {
  layoutSeq++;
  noteDirty(e.target as Node, DIRTY_EVENT);
}
function onHover(): void {
  layoutSeq++;
  dirty.hovered = true;
}

/** Every root observed, to read its controls' values (a script setting `.value` mutates nothing). */
const roots: WeakRef<Document | ShadowRoot>[] = [];

/**
 * The style sheet lists of every shadow root observed (its <style> and <link> sheets, then its
 * adopted ones). A root inside something never walked (display:none) is not observed yet; the walk
 * that first shows it walks it whole.
 */
export function shadowSheetLists(): ArrayLike<CSSStyleSheet>[] {
  const out: ArrayLike<CSSStyleSheet>[] = [];
  for (let r = 0; r < roots.length; r++) {
    const root = weakRefDeref(roots[r]!);
    if (!root || root.nodeType !== 11) continue;
    out[out.length] = root.styleSheets as unknown as ArrayLike<CSSStyleSheet>;
    const adopted = (root as ShadowRoot).adoptedStyleSheets;
    if (adopted) out[out.length] = adopted;
  }
  return out;
}
// Events that do not cross shadow boundaries (or are not composed): listened on each root.
// (Scrolling moves boxes only: a walk that does not measure need not know where.)
const ROOT_EVENTS = ['load', 'toggle', 'transitionend', 'animationend'];
// Composed events: once, on the document. (Focus: incremental.ts compares the focused element.)
const HOVER_EVENTS = ['pointerover', 'pointerout'];
let windowListened = false;

/** Observe a document or shadow root (once); events that do not cross shadow boundaries are caught there. */
export function observeRoot(root: Document | ShadowRoot): void {
  if (observed.has(root)) return;
  observed.add(root);
  observerObserve(observer, root, OPTIONS);
  // `change` is not composed: listen on each root. `input` is, but a listener here is harmless.
  targetAddListener(root, 'input', onInput, true);
  targetAddListener(root, 'change', onInput, true);
  targetAddListener(root, 'scroll', bumpLayout, true);
  for (let i = 0; i < ROOT_EVENTS.length; i++) targetAddListener(root, ROOT_EVENTS[i]!, onElementEvent, true);
  roots[roots.length] = new NativeWeakRef(root);
  if (!windowListened && root.nodeType === 9) {
    windowListened = true;
    targetAddListener(root, 'focusin', bumpLayout, true);
    targetAddListener(root, 'focusout', bumpLayout, true);
    for (let i = 0; i < HOVER_EVENTS.length; i++) targetAddListener(root, HOVER_EVENTS[i]!, onHover, true);
    targetAddListener(window, 'resize', bumpAnywhere, true);
    targetAddListener(window, 'hashchange', bumpAnywhere, true);
    const fonts = (root as Document).fonts as FontFaceSet | undefined;
    if (fonts) targetAddListener(fonts, 'loadingdone', bumpAnywhere);
  }
}

const CONTROLS = 'input,textarea,select';

/** Each control in every observed root, with its value, checked and selection state as one string. */
function forEachControl(fn: (el: Element, state: string) => void): void {
  let live = 0; // roots collected since are dropped from the list as it is read
  for (let r = 0; r < roots.length; r++) {
    const root = weakRefDeref(roots[r]!);
    if (!root) continue;
    roots[live++] = roots[r]!;
    const list = root.nodeType === 9 ? docQueryAll(root, CONTROLS) : fragQueryAll(root, CONTROLS);
    for (let i = 0; i < list.length; i++) {
      const el = list[i] as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      let state: string;
      try {
        state = el.value;
        if (el.localName === 'input') {
          const input = el as HTMLInputElement;
          state += input.checked ? '\u0001c' : input.indeterminate ? '\u0001i' : '\u0001-';
        } else if (el.localName === 'select') {
          const sel = el as HTMLSelectElement;
          state += `\u0001${sel.selectedIndex}/${sel.selectedOptions.length}`;
        }
      } catch {
        state = '\u0001!';
      }
      fn(el, state);
    }
  }
  roots.length = live;
}

/** A hash of every control's value, checked and selection state, in every observed root. */
/** `h` carried on over the characters of `s` (djb2). */
function hashInto(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = ((h << 5) + h + strCharCode(s, i)) | 0;
  return h;
}

function controlsHash(): number {
  let h = 5381;
  forEachControl((_el, s) => {
    const x = hashInto(h, s);
    h = ((x << 5) + x + 31) | 0;
  });
  return h;
}

/** Every control's state (see forEachControl), for telling which ones a script changed. */
export function controlStates(): SafeMap<Element, string> {
  const out = new SafeMap<Element, string>();
  forEachControl((el, s) => out.set(el, s));
  return out;
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

/** Every style sheet list that styles the outline, with a key that changes when one of them does. */
export interface Sheets {
  lists: ArrayLike<CSSStyleSheet>[];
  /** The lists' lengths, each sheet's rule count and whether it is disabled (CSSOM changes mutate no node). */
  key: string;
  unreadable: boolean;
}

export function sheetsNow(): Sheets {
  const lists: ArrayLike<CSSStyleSheet>[] = [document.styleSheets as unknown as CSSStyleSheet[]];
  if (document.adoptedStyleSheets) lists[1] = document.adoptedStyleSheets;
  const shadow = shadowSheetLists();
  for (let i = 0; i < shadow.length; i++) lists[lists.length] = shadow[i]!;
  let key = '';
  let unreadable = false;
  for (let l = 0; l < lists.length; l++) {
    const sheets = lists[l]!;
    key += '|';
    for (let i = 0; i < sheets.length; i++) {
      try {
        const sheet = sheets[i]!;
        key += (sheet.disabled ? 'off' : '') + sheet.cssRules.length + ',';
      } catch {
        unreadable = true; // a cross-origin sheet
        key += '?,';
      }
    }
  }
  return { lists, key, unreadable };
}

/**
 * The outline stamp: equal stamps, equal outlines (DOM, layout inputs, scroll offsets, control
 * values, and the style sheets: adopting a sheet or inserting a rule mutates no node).
 */
export function outlineStamp(): string {
  return `${mutationSeq()}.${layoutSeq}.${controlsHash()}.${scrollHash()}.${hashInto(5381, sheetsNow().key)}`;
}

/** The counter now; observer records not yet delivered count as a mutation. */
export function mutationSeq(): number {
  const records = observerTakeRecords(observer);
  if (records.length) onRecords(records);
  return seq;
}

/** The counter and the time of the last change. */
export function mutationState(): { seq: number; lastAt: number } {
  mutationSeq();
  return { seq, lastAt };
}
