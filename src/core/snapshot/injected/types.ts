/** Types of the in-page API (`globalThis[Symbol.for('brow.page')]`). The Node side imports these as types only. */

/** One line of the page outline, as built in the page. */
export interface WalkNode {
  /** Local element id: stable for this element for the life of this document, never reused; 0 for text-only nodes. */
  id: number;
  /** Depth in the emitted outline (skipped generic wrappers do not add depth). */
  depth: number;
  /** ARIA role per WAI-ARIA / HTML-AAM, as Chromium exposes it ('generic' for role-less clickables, 'text' for text). */
  role: string;
  /** Accessible name per accname 1.2; whitespace collapsed; at most 200 chars. */
  name: string;
  /** Own text not represented by emitted children, for roles that do not take their name from content. */
  text?: string;
  /**
   * Current value of a control, verbatim and complete. Never the value of a password field ('••••'
   * when non-empty). Range widgets: aria-valuetext, else aria-valuenow, else the native value.
   */
  value?: string;
  /** Lower and upper bound of a range widget (slider, spinbutton, progressbar…), when known. */
  valueMin?: number;
  valueMax?: number;
  /**
   * Accessible description (aria-description / aria-describedby, else a title that is not the
   * name), or an unnamed SVG shape's `fill #rrggbb`.
   */
  description?: string;
  /** Heading level. */
  level?: number;
  /**
   * checked, mixed, disabled, expanded, collapsed, selected, focused, active, required, readonly, pressed,
   * invalid, multiselectable, modal, multiline, focusable, clickable (in this order).
   */
  states: string[];
  /** Allowed actions, in the order click, fill, type, press, select, check, upload, drag, hover, scroll. */
  actions: string[];
  /** Lower-case tag name ('' for text nodes). */
  tag: string;
  /** Whitelisted attributes only; values at most 200 chars. */
  attrs: Record<string, string>;
  /** getBoundingClientRect x, y, w, h in CSS px of this frame's viewport, rounded. */
  box: [number, number, number, number];
  /** Intersects this frame's viewport. */
  inView: boolean;
  /** An <iframe>/<frame> element; its document is walked separately. */
  frame?: true;
  /** For a frame: where its viewport starts inside its box (border plus padding), CSS px. */
  frameInset?: [number, number];
  /** Content that cannot be read ('canvas', 'embed', 'object', 'video', 'audio', 'error: …'). */
  opaque?: string;
  /** A role-less element that is clickable (own cursor:pointer, onclick, tabindex>=0, or a click-like listener). */
  clickable?: true;
}

/** The viewport of the walked frame. */
export interface WalkViewport {
  width: number;
  height: number;
  scrollX: number;
  scrollY: number;
  scrollWidth: number;
  scrollHeight: number;
}

/** The outline of one document at one moment. */
export interface WalkResult {
  /** Random per document; changes on every new document. */
  docKey: string;
  /** mutations().seq at the time of the walk. */
  mutationSeq: number;
  /** outlineStamp() when the walk began: the same stamp later means the same outline. */
  stamp: string;
  url: string;
  title: string;
  viewport: WalkViewport;
  /** Pre-order. */
  nodes: WalkNode[];
  /** maxNodes was reached. */
  truncated: boolean;
}

/** Options of walk(). */
export interface WalkOptions {
  /** Stop after this many nodes (default 100,000). */
  maxNodes?: number;
  /** Walk only this element's subtree (depth restarts at 0). */
  rootId?: number;
  /**
   * false: skip measuring boxes (every box [0,0,0,0], nothing in view). For outlines read only for
   * their lines, e.g. an action's before/after diff: measuring is the walk's biggest cost, and
   * after a DOM change it also forces a layout.
   */
  boxes?: boolean;
  /**
   * walkWire only: the id of the walk of this kind Node holds. When the page holds that walk too,
   * the answer carries only the nodes between what the two walks share at each end (see held-walk.ts).
   */
  since?: string;
  /**
   * A walk that does not measure may patch the last whole walk where the page changed
   * (incremental.ts); with verify it also walks everything and throws when the two differ. Tests
   * set it (BROW_VERIFY_WALKS=1).
   */
  verify?: boolean;
}

/** The element that covers a hit point. */
export interface HitCover {
  id: number;
  role: string;
  name: string;
  tag: string;
}

/** Result of hitTarget(). */
export type HitResult = { ok: true } | { ok: false; cover?: HitCover };

/** Which element took brow's pointer input during an action (press-watch.ts). */
export interface PressReport {
  /** Every needed event type reached the element (or a label of it). */
  delivered: boolean;
  /** The element has left the document (the input may have removed it). */
  gone: boolean;
  /** Trusted pointer events recorded in the frame while armed, on any element. */
  seen: number;
  /** Needed event types that did not reach the element. */
  missing: string[];
  /** Where the first of those went instead. */
  landed?: HitCover;
}

/** The current state of one element, same rules as walk(). */
export interface DescribeResult {
  role: string;
  name: string;
  value?: string;
  valueMin?: number;
  valueMax?: number;
  description?: string;
  checked?: boolean | 'mixed';
  states: string[];
  actions: string[];
  tag: string;
}

/** visibleBox(): an element's box and its part inside the viewport and its overflow ancestors. */
export interface VisibleBox {
  box: { x: number; y: number; width: number; height: number };
  visible: { x: number; y: number; width: number; height: number } | null;
  /** The centre of the box is not clipped. */
  centreVisible: boolean;
}

/** The API object installed once per document. */
export interface BrowPageApi {
  /** A hash of the built script (scripts/build.mjs): the Node side compares it on every call. */
  version: string;
  docKey: string;
  walk(opts?: WalkOptions): WalkResult;
  /** The same walk as one JSON text in the compact wire form (see wire.ts): what the Node side reads. */
  walkWire(opts?: WalkOptions): string;
  /** How many whole-document walks were patched and how many walked everything, and why the last one did. */
  walkStats(): { patched: number; whole: number; reason: string };
  /** The live element, or null if unknown or not connected. */
  element(id: number): Element | null;
  /** null if alive. */
  staleReason(id: number): 'detached' | 'unknown' | null;
  /** Assign an id if the element has none. */
  idOf(el: Element): number;
  /** seq increments on any DOM mutation (also in shadow roots) and on input/change events. */
  mutations(): { seq: number; lastAt: number };
  /** Equal stamps, equal outlines: DOM mutations, layout inputs (scroll, resize, focus, hover…) and control values. */
  outlineStamp(): string;
  /** x, y in this frame's viewport CSS px. */
  hitTarget(id: number, x: number, y: number): HitResult;
  /** A better point for a click than (x, y), the centre: the part of the element that reacts (hit-target.ts). */
  aimPoint(id: number, x: number, y: number): [number, number] | null;
  /** Start recording which elements take brow's trusted pointer events aimed at `id` (press-watch.ts). */
  armPresses(id: number): void;
  /** Whether the recorded events of each needed type reached the element; stops recording. */
  pressReport(id: number, needed: string[]): PressReport;
  /** Whether the pointer passing over may change the page through script (hover listeners). */
  mayReactToHover(): boolean;
  /** Start (true) or stop noting the short timers the page sets (while brow types). */
  recordTimers(on: boolean): void;
  /** Whether a timer noted while recording is still due (a debounce that has not fired, or fired just now after the keys). */
  timerDue(): boolean;
  /** Resolves when the DOM is quiet (true) or maxMs passed (false); see quiet.ts for the early end. */
  settleQuiet(quietMs: number, maxMs: number): Promise<boolean>;
  /** The element's box and its visible part (viewport ∩ overflow clips), or null if gone. */
  visibleBox(id: number): VisibleBox | null;
  describe(id: number): DescribeResult | null;
  /** Elements that are not rendered (the walk skips them) matching a query: browser_find visible_only false. */
  findHidden(q: HiddenQuery): { matches: HiddenMatch[]; total: number };
}

/** The global symbol key the API is installed under. */
export const BROW_PAGE_KEY = 'brow.page';

/** findHidden(): what to match (as browser_find: role exact, name and text substrings, any case). */
export interface HiddenQuery {
  role?: string | undefined;
  name?: string | undefined;
  text?: string | undefined;
  limit: number;
}

/** A hidden element findHidden() matched, with its local id. */
export interface HiddenMatch {
  id: number;
  role: string;
  name: string;
  text: string;
  value?: string;
  description?: string;
  states: string[];
  actions: string[];
}
