/**
 * One element on the outline walk: what the walk knows of it (a Visit), whether it gets a line of
 * its own and why, and the fields of that line. The walk itself (descent, text, budget) is walk.ts.
 */
import { namePrefix, nameSuffix, recursionTitle } from './accname.js';
import type { Attrs } from './attrs.js';
import { labelsHiddenControl } from './labels.js';
import { computedStyle, setPrototypeOf, table } from './natives.js';
import type { TextCtx } from './outline-text.js';
import { anyPressListener, hasPressListener } from './patches.js';
import {
  CLICK_CHECKED,
  QUIET,
  RANGE_ROLE,
  TEXT_LEVEL,
  explicitRole,
  headingLevel,
  implicitRole,
  roleFlags,
} from './roles.js';
import type { StyleCache } from './style-cache.js';
import { CELL, FORM_CONTROL, INLINE, LEAF, NO_SCROLL } from './tags.js';
import { hasText } from './text.js';
import type { WalkNode } from './types.js';
import { CONTENTS, INVISIBLE } from './visibility.js';
import {
  actionsOf,
  describedText,
  dragSignal,
  hasClickSignal,
  hasPointerSignal,
  isDragCursor,
  isEditableRoot,
  rangeOf,
  statesOf,
  valueOf,
} from './widget.js';

/** Content we cannot read, shown as an opaque line. */
const OPAQUE = table<string>({
  canvas: 'canvas',
  embed: 'embed',
  object: 'object',
  video: 'video',
  audio: 'audio',
});

/**
 * A visible element being visited. One per element, so its fields replace the parameters and
 * locals the walk's steps would pass each other. Its prototype chain stops short of
 * Object.prototype, as OutlineNode's does, so no setter a page defined there runs.
 */
export class Visit {
  /** Hidden with its subtree but for descendants made visible again (visibility: hidden). */
  readonly invisible: boolean;
  /** display: contents (no box of its own). */
  readonly contents: boolean;
  /** The role its role attribute gives, if any. */
  readonly explicit: string | null;
  /** Its role before a quiet one shown for another reason becomes generic (see shownRole). */
  readonly rawRole: string;
  readonly rf: number;
  /** The opaque line's text for content we cannot read (canvas, video…). */
  readonly opaque: string | undefined;
  emit = false;
  clickable = false;
  scrollable = false;
  editable = false;
  /** Its computed cursor, once read (most elements never need it). */
  cursor: string | undefined = undefined;
  /** The parent's cursor, when `cursor` was read (an own cursor differs from it). */
  parentCur: string | undefined = undefined;
  /** A mouse-drag signal found while deciding to emit (see dragSignal). */
  drag = false;
  /** The aria-labelledby name computed while deciding to emit ('' when not computed). */
  labelled = '';
  /** Shown for its title alone. */
  titled = false;
  /** What it gives an ancestor's name from content: '' when not asked, null for its content. */
  given: string | null = '';
  /** Set once it is emitted: its shown role, that role's flags, whether it is disabled. */
  role = '';
  roleF = 0;
  disabled = false;

  constructor(
    readonly el: Element,
    readonly tag: string,
    readonly tf: number,
    readonly a: Attrs,
    vis: number,
    /** The text context it sits in (that of its nearest emitted ancestor). */
    readonly ctx: TextCtx,
    readonly parent: Element | null,
    /** The parent's cursor if the walk read it. */
    readonly parentCursor: string | undefined,
    /** Its text alternative is wanted for an ancestor's name. */
    readonly collect: boolean,
  ) {
    this.invisible = vis === INVISIBLE;
    this.contents = vis === CONTENTS;
    this.explicit = explicitRole(el, a);
    this.rawRole = this.explicit ?? implicitRole(el, tag, a);
    this.rf = roleFlags(this.rawRole);
    this.opaque = OPAQUE[tag];
  }
}
setPrototypeOf(Visit.prototype, null);

/** Decide whether the element gets a line of its own, and for what (a role, a click, a name…). */
export function decide(v: Visit, styles: StyleCache): void {
  if (v.invisible) return;
  const explicit = v.explicit;
  if (
    !(v.rf & QUIET) ||
    (explicit !== null && explicit !== 'generic' && explicit !== 'none' && explicit !== 'presentation')
  ) {
    v.emit = true;
    // Content made clickable by script (a list item, a row, an image) still gets `click`.
    if (v.rf & CLICK_CHECKED) {
      if (hasClickSignal(v.el, v.a)) v.clickable = true;
      else if (!v.contents) v.clickable = readCursor(v, styles) === 'pointer' && v.parentCur !== 'pointer';
    }
  } else if (v.opaque !== undefined) {
    v.emit = true;
  } else if (v.tag !== 'html' && v.tag !== 'body') {
    decideQuiet(v, styles);
  }
}

/** A quiet element (a div, a span) is shown for what it does or says. */
function decideQuiet(v: Visit, styles: StyleCache): void {
  const { el, tag, a } = v;
  if (a.editable !== null && isEditableRoot(el, a)) v.editable = v.emit = true;
  else if (hasClickSignal(el, a) || (tag === 'label' && labelsHiddenControl(el))) v.clickable = v.emit = true;
  else if (tag !== 'label' && !v.contents) {
    const cursor = readCursor(v, styles);
    if (cursor === 'pointer' && v.parentCur !== 'pointer') v.clickable = v.emit = true;
    // its own grab/move cursor, or an item of a container listening for presses (a sortable)
    else if (isDragCursor(cursor) && v.parentCur !== cursor) v.drag = v.emit = true;
    else if (v.parent !== null && hasPressListener(v.parent)) v.drag = v.emit = true;
  }
  if (!v.emit && a.label !== null && hasText(a.label)) v.emit = true;
  // named by aria-labelledby (hidden or not, the element pointed at gives its text)
  if (!v.emit && a.labelledby !== null) {
    v.labelled = namePrefix(el, tag, a, 'generic');
    if (v.labelled) v.emit = true;
  }
  if (
    !v.emit &&
    !v.contents &&
    !(v.tf & (NO_SCROLL | INLINE)) &&
    el.firstElementChild &&
    styles.scrollable(el, tag, a)
  ) {
    v.scrollable = v.emit = true;
  }
  // a generic element with a tooltip (title): not its name, as in Chromium, but its description
  if (!v.emit && !v.ctx.covered && v.rawRole === 'generic' && a.title !== null && hasText(a.title))
    v.titled = v.emit = true;
}

/** Read the element's cursor, and its parent's to tell an own cursor from an inherited one. */
function readCursor(v: Visit, styles: StyleCache): string {
  v.parentCur = parentCursor(v.parent, v.parentCursor);
  return (v.cursor = styles.cursor(v.el, v.tag, v.a, v.parentCur));
}

/** The computed cursor of the parent, computed only when needed. */
export function parentCursor(parent: Element | null, known: string | undefined): string {
  if (known !== undefined) return known;
  return parent ? computedStyle(parent).cursor : 'auto';
}

/**
 * Inline text-level semantics (strong, insertion, abbr…) are shown where their text is not
 * already an ancestor's name, and their text keeps flowing in their parent's.
 */
export function isTextLevel(v: Visit): boolean {
  return (
    ((v.rf & TEXT_LEVEL) !== 0 || v.titled) &&
    (v.tf & INLINE) !== 0 &&
    !v.ctx.covered &&
    !v.invisible &&
    !v.clickable &&
    !v.editable &&
    !v.scrollable
  );
}

/**
 * The role an emitted element is shown with. A quiet element shown for another reason (a name,
 * focus, a click) is generic, except a row group or text-level element, which keeps its own role.
 */
export function shownRole(v: Visit): string {
  const raw = v.rawRole;
  return raw === 'none' ||
    raw === 'presentation' ||
    (v.rf & QUIET && !v.explicit && !(v.rf & TEXT_LEVEL) && raw !== 'rowgroup')
    ? 'generic'
    : raw;
}

/** What the element gives an ancestor's name: its own answer, else its content, else its title. */
export function contentAnswer(v: Visit, content: string): string {
  return v.given ?? (hasText(content) ? content : recursionTitle(v.el, v.a, v.rawRole));
}

/** The fields of an emitted element's line past its role and name: states, actions, value… */
export function fillNode(v: Visit, node: WalkNode, styles: StyleCache, focused: Element | null): void {
  const { el, tag, tf, a, role, roleF, disabled, clickable } = v;
  const ownCursor = ownCursorOf(v, styles);
  // clickable as a state: by a pointer signal, not by a tabindex alone (that is `focusable`)
  const clickState =
    clickable &&
    role === 'generic' &&
    (a.tabindex === null || ownCursor === 'pointer' || hasPointerSignal(el, a));
  node.states = statesOf(el, tag, role, a, focused, disabled, roleF, clickState);
  node.actions = actionsOf(el, tag, role, a, clickable, disabled, v.scrollable, false, roleF, v.drag);
  if (a.keep) node.attrs = a.keep;
  if (role === 'heading') node.level = headingLevel(tag, a);
  const value = valueOf(el, tag, role, a, roleF);
  if (value !== undefined) node.value = value;
  // ranges: range roles, and native input/progress/meter (leaves)
  const range = roleF & RANGE_ROLE || tf & LEAF ? rangeOf(el, tag, role, a, roleF) : null;
  if (range !== null) {
    if (range[0] !== undefined) node.valueMin = range[0];
    if (range[1] !== undefined) node.valueMax = range[1];
  }
  if (a.description !== null || a.describedby !== null) {
    const description = describedText(el, a);
    if (description) node.description = description;
  }
  if (clickable && role === 'generic') node.clickable = true;
  if (tag === 'iframe' || tag === 'frame') {
    node.frame = true;
    const cs = getComputedStyle(el);
    node.frameInset = [el.clientLeft + parseFloat(cs.paddingLeft), el.clientTop + parseFloat(cs.paddingTop)];
  }
  if (v.opaque !== undefined) node.opaque = v.opaque;
  if (tf & LEAF && !node.name) node.name = nameSuffix(el, a, role);
}

/**
 * The own cursor ('' for none) of an emitted element, read for a focusable, explicitly roled or
 * script-clickable one (a drag handle button, a thumb, a box moved by its own mousedown listener);
 * with it, the drag signal.
 */
function ownCursorOf(v: Visit, styles: StyleCache): string {
  const { tf, a } = v;
  if (
    v.cursor === undefined &&
    !v.contents &&
    (a.tabindex !== null || v.explicit !== null || v.clickable) &&
    !(tf & (LEAF | FORM_CONTROL | CELL)) &&
    v.tag !== 'a'
  )
    readCursor(v, styles);
  const ownCursor = v.cursor !== undefined && v.cursor !== v.parentCur ? v.cursor : '';
  // (the call only when a signal is possible: most nodes of a big page have none)
  if (!v.drag && (ownCursor !== '' || a.roledescription !== null || anyPressListener()))
    v.drag = dragSignal(v.el, v.tag, v.role, a, tf, ownCursor);
  return ownCursor;
}
