/**
 * Re-walking only what changed. After an action on a big page the effect needs the outline again
 * (lines only, no boxes), and walking 45,000 nodes costs 50–130 ms for a status text that changed.
 * Here the whole walk held last is patched instead: each change noted since (mutations.ts) is
 * mapped to the nearest element that the held walk emitted and whose lines depend on nothing
 * outside its subtree, that subtree is walked again, and its lines replace the old ones.
 *
 * Lines of an element can depend on the outside, and each such case walks everything again:
 * - an ancestor that takes its name from content, a label, a caption, a contenteditable root or
 *   a role with presentational children (its name or its text covers the subtree);
 * - an id in or above the subtree that another element points at (aria-labelledby, label for…);
 * - style sheets with :has() or @container, or hover and focus rules that change more than paint, when the
 *   pointer or the focus moved; sibling combinators and structural pseudo-classes widen each
 *   change to its parent; an unreadable sheet counts as all of these. The sheets of shadow roots
 *   are read with the document's;
 * - a sheet added, removed or given rules or adopted since the held walk (no mutation tells);
 * - a change inside a shadow root;
 * - an ancestor that may have started or stopped scrolling (its `scroll` action);
 * - changes above any emitted element (body, head, style sheets), too many changes, a resize.
 * With `verify` the whole walk runs too and a difference throws: the test suite runs that way.
 */
import { namedFromContent } from './accname.js';
import { readAttrs } from './attrs.js';
import { SafeMap } from './collections.js';
import { peekId } from './ids.js';
import { DIRTY_INPUT, controlStates, sheetsNow, takeDirty, type Sheets } from './mutations.js';
import {
  computedStyle,
  docQueryAll,
  elClosest,
  elGetAttribute,
  elQueryAll,
  nodeContains,
  regexTest,
  strIndexOf,
  strSplit,
} from './natives.js';
import { CHILDREN_PRESENTATIONAL, explicitRole, implicitRole, roleFlags } from './roles.js';
import { composedParent } from './shadow.js';
import { CAPTION, tagFlags } from './tags.js';
import type { WalkNode } from './types.js';
import { Walker, deepActiveElement } from './walk.js';

/** The whole walk the next one can patch, and what it saw besides the DOM. */
interface Base {
  nodes: WalkNode[];
  maxNodes: number;
  truncated: boolean;
  focused: Element | null;
  controls: SafeMap<Element, string>;
  /** The style sheets as they were (sheetsNow().key). */
  sheets: string;
}
let base: Base | null = null;
/** A start that is the element losing or gaining focus. */
const FOCUS = -1;

/** Hold a whole walk as the base for the next lines-only walk; the change log starts anew. */
export function holdBase(
  nodes: WalkNode[],
  maxNodes: number,
  truncated: boolean,
  focused: Element | null,
  patched: boolean,
): void {
  takeDirty();
  if (!patched) pointedCache = null;
  base = {
    nodes,
    maxNodes,
    truncated,
    focused,
    controls: lastControls ?? controlStates(),
    sheets: sheetsNow().key,
  };
  lastControls = null;
}
/** The control states patchedWalk read, for the holdBase that follows it. */
let lastControls: SafeMap<Element, string> | null = null;

/** What the style sheets can do beyond an element's own subtree. */
interface CssFacts {
  /** :has(), @container or an unreadable sheet: nothing can be patched. */
  unknown: boolean;
  /** Sibling combinators or structural pseudo-classes: a change reaches its parent's children. */
  siblings: boolean;
  /** :hover or :active rules that change more than paint. */
  hover: boolean;
  /** :focus, :focus-within or :focus-visible rules that change more than paint. */
  focus: boolean;
  /** :valid / :invalid rules: typing can restyle the form around a field. */
  validity: boolean;
}

/** Properties a state rule may set without changing any line (paint only). */
const PAINT =
  /^(color|background(-.*)?|border(-(top|right|bottom|left))?-color|outline(-.*)?|box-shadow|text-decoration(-.*)?|text-shadow|opacity|filter|transform|translate|rotate|scale|transition(-.*)?|fill|stroke|caret-color|accent-color|--.*)$/;
const SIBLING = /[+~]|:(nth-|first-|last-|only-|empty)/;

function changesLines(style: CSSStyleDeclaration | undefined): boolean {
  if (!style) return false;
  for (let i = 0; i < style.length; i++) if (!regexTest(PAINT, style[i]!)) return true;
  return false;
}

function scanRules(rules: CSSRuleList, depth: number, out: CssFacts): void {
  for (let i = 0; i < rules.length && !out.unknown; i++) {
    const r = rules[i] as CSSStyleRule & { cssRules?: CSSRuleList; containerQuery?: string };
    // a container query restyles by an element's size, which a change anywhere can move
    if (typeof r.containerQuery === 'string') out.unknown = true;
    const sel = r.selectorText;
    if (typeof sel === 'string') {
      if (strIndexOf(sel, ':has(') >= 0 || strIndexOf(sel, '&') >= 0) out.unknown = true;
      if (regexTest(SIBLING, sel)) out.siblings = true;
      if (strIndexOf(sel, ':hover') >= 0 || strIndexOf(sel, ':active') >= 0)
        out.hover ||= changesLines(r.style);
      if (strIndexOf(sel, ':focus') >= 0) out.focus ||= changesLines(r.style);
      if (strIndexOf(sel, 'valid') >= 0) out.validity = true;
    }
    if (r.cssRules && depth < 8) scanRules(r.cssRules, depth + 1, out);
  }
}

let cssCache: { key: string; facts: CssFacts } | null = null;

/**
 * The style sheets' facts, read again when the sheets or their rule counts changed (an edit of a
 * rule in place through the CSSOM goes unseen; the walk's 30 s reuse limit bounds that elsewhere).
 */
function cssFacts(sheets: Sheets): CssFacts {
  if (!sheets.unreadable && cssCache && cssCache.key === sheets.key) return cssCache.facts;
  const out: CssFacts = {
    unknown: sheets.unreadable,
    siblings: false,
    hover: false,
    focus: false,
    validity: false,
  };
  for (let l = 0; l < sheets.lists.length && !out.unknown; l++) {
    const list = sheets.lists[l]!;
    for (let i = 0; i < list.length && !out.unknown; i++) scanRules(list[i]!.cssRules, 0, out);
  }
  cssCache = { key: sheets.key, facts: out };
  return out;
}

const SPACES = /\s+/;

function has<T>(list: T[], x: T): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === x) return true;
  return false;
}

/** Attributes that point at other elements by id. */
const POINTERS =
  '[aria-labelledby],[aria-describedby],[aria-owns],[aria-activedescendant],[aria-controls],label[for],[list]';
const POINTER_ATTRS = [
  'aria-labelledby',
  'aria-describedby',
  'aria-owns',
  'aria-activedescendant',
  'aria-controls',
  'for',
  'list',
];

/**
 * Each id some element points at, with the elements pointing: read from the document after a
 * whole walk, then kept, adding what each patched subtree holds (a pointer removed stays listed:
 * that only makes a later patch give up). An attribute change that links elements is logged as
 * such and makes the next walk whole, which reads the document again.
 */
let pointedCache: SafeMap<string, Element[]> | null = null;

function pointedIds(): SafeMap<string, Element[]> {
  if (!pointedCache) {
    pointedCache = new SafeMap<string, Element[]>();
    addPointers(docQueryAll(document, POINTERS), pointedCache);
  }
  return pointedCache;
}

function addPointers(list: ArrayLike<Element>, out: SafeMap<string, Element[]>): void {
  for (let i = 0; i < list.length; i++) {
    const from = list[i]!;
    for (let k = 0; k < POINTER_ATTRS.length; k++) {
      const v = elGetAttribute(from, POINTER_ATTRS[k]!);
      if (!v) continue;
      const ids = strSplit(v, SPACES);
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j]!;
        if (!id) continue;
        const seen = out.get(id);
        if (!seen) out.set(id, [from]);
        else if (!has(seen, from)) seen[seen.length] = from;
      }
    }
  }
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Tags whose lines come from their parent's walk context (options, SVG parts, table cells). */
const NOT_A_ROOT =
  /^(option|optgroup|datalist|tr|td|th|thead|tbody|tfoot|caption|col|colgroup|summary|legend|area|slot)$/;
/** Tags that cover or rename what is below them (their parent, a control elsewhere), or hide loose text. */
const COVERING = /^(label|legend|caption|figcaption|details)$/;

const scrolls = (overflow: string): boolean =>
  overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';

/** Overflow auto or scroll on either axis. */
function scrollContainer(el: Element): boolean {
  const cs = computedStyle(el);
  return scrolls(cs.overflowX) || scrolls(cs.overflowY);
}

/** The scroll action as the walk would give it now (overflow auto/scroll with something to scroll). */
function scrollsNow(el: Element): boolean {
  const cs = computedStyle(el);
  return (
    (scrolls(cs.overflowY) && el.scrollHeight > el.clientHeight) ||
    (scrolls(cs.overflowX) && el.scrollWidth > el.clientWidth)
  );
}

/**
 * Where the held walk emitted an element (-1: it did not): a scan per question while there are
 * few (most patches ask a handful), an index once there are many.
 */
class HeldIndex {
  private scans = 0;
  private index: SafeMap<number, number> | null = null;
  constructor(private readonly nodes: WalkNode[]) {}
  of(el: Element): number {
    const id = peekId(el);
    if (id === undefined) return -1;
    const nodes = this.nodes;
    if (this.index) return this.index.get(id) ?? -1;
    if (++this.scans > 16) {
      const index = (this.index = new SafeMap<number, number>());
      for (let i = 0; i < nodes.length; i++) if (nodes[i]!.id) index.set(nodes[i]!.id, i);
      return index.get(id) ?? -1;
    }
    for (let i = 0; i < nodes.length; i++) if (nodes[i]!.id === id) return i;
    return -1;
  }
}

/** Why the last lines-only walk was whole, or '' when it was patched (for tests and profiling). */
let lastWholeReason = 'no walk yet';
export const wholeReason = (): string => lastWholeReason;
export const walkCounts = { patched: 0, whole: 0 };

function whole(reason: string): null {
  lastWholeReason = reason;
  return null;
}

/**
 * The held walk patched with what changed since, or null when it cannot be (then the caller walks
 * the whole document). Always consumes the change log.
 */
export function patchedWalk(maxNodes: number): WalkNode[] | null {
  const log = takeDirty();
  const b = base;
  base = null;
  if (!b) return whole('no held walk');
  if (b.maxNodes !== maxNodes || b.truncated) return whole('held walk truncated or of another cap');
  if (log.anywhere) return whole('too many changes, or a resize');
  if (log.links) return whole('an id, for, aria-labelledby… or a dialog changed');
  const sheets = sheetsNow();
  if (sheets.key !== b.sheets) return whole('a style sheet was added, removed, adopted or given rules');
  const css = cssFacts(sheets);
  if (css.unknown) return whole(':has(), @container or an unreadable sheet');
  if (log.hovered && css.hover) return whole('hover rules that change lines');
  const starts: Node[] = [];
  const kinds: number[] = [];
  for (let i = 0; i < log.nodes.length; i++) {
    starts[i] = log.nodes[i]!;
    kinds[i] = log.kinds[i]!;
  }
  const focused = deepActiveElement();
  if (focused !== b.focused) {
    if (css.focus) return whole('focus rules that change lines');
    // only an element's own line says it is focused
    if (b.focused) {
      starts[starts.length] = b.focused;
      kinds[kinds.length] = FOCUS;
    }
    if (focused) {
      starts[starts.length] = focused;
      kinds[kinds.length] = FOCUS;
    }
  }
  // a control a script changed without an event
  const controls = controlStates();
  lastControls = controls;
  controls.forEach((state, el) => {
    if (b.controls.get(el) !== state) {
      starts[starts.length] = el;
      kinds[kinds.length] = DIRTY_INPUT;
    }
  });
  if (starts.length === 0) return b.nodes;

  const nodes = b.nodes;
  const indexOf = new HeldIndex(nodes);
  const pointed = pointedIds();
  const roots = new SafeMap<number, Element>();
  for (let i = 0; i < starts.length; i++) {
    const n = starts[i]!;
    if (!n.isConnected) continue; // its removal is a change of its old parent, logged too
    if (kinds[i] === FOCUS && indexOf.of(n as Element) < 0) continue;
    let el: Element | null = n.nodeType === 1 ? (n as Element) : n.parentElement;
    if (el && kinds[i] === DIRTY_INPUT && css.validity) el = elClosest(el, 'form') ?? el;
    if (el && css.siblings) el = el.parentElement;
    if (!el) return whole('a change above the document element');
    const root = rootFor(el, indexOf, nodes, pointed);
    if (!root) return null;
    roots.set(indexOf.of(root), root);
  }
  // outermost first; a root inside another one's range is walked with it
  const order: number[] = [];
  roots.forEach((_el, index) => {
    // insertion in place (few roots; no Array.prototype.sort a page may have replaced)
    let k = order.length;
    while (k > 0 && order[k - 1]! > index) {
      order[k] = order[k - 1]!;
      k--;
    }
    order[k] = index;
  });
  const out: WalkNode[] = [];
  let from = 0;
  for (let k = 0; k < order.length; k++) {
    const at = order[k]!;
    if (at < from) continue;
    const depth = nodes[at]!.depth;
    let end = at + 1;
    while (end < nodes.length && nodes[end]!.depth > depth) end++;
    const root = roots.get(at)!;
    addPointers(elQueryAll(root, POINTERS) as ArrayLike<Element>, pointed);
    const w = new Walker(maxNodes, false);
    w.walkFrom(root, composedParent(root));
    if (w.truncated) return whole('a re-walked subtree hit the node cap');
    const sub = w.nodes;
    if (sub.length === 0 || sub[0]!.id !== nodes[at]!.id || sub[0]!.depth !== 0)
      return whole('a re-walked element is no longer shown');
    for (let i = from; i < at; i++) out[out.length] = nodes[i]!;
    for (let i = 0; i < sub.length; i++) {
      const node = sub[i]!;
      node.depth += depth;
      out[out.length] = node;
    }
    from = end;
  }
  for (let i = from; i < nodes.length; i++) out[out.length] = nodes[i]!;
  if (out.length > maxNodes) return whole('the patched walk is over the node cap');
  lastWholeReason = '';
  return out;
}

/** The id attribute (not the property: a form's `id` can be a control named "id"). */
const idAttr = (el: Element): string => elGetAttribute(el, 'id') ?? '';

/** Someone outside `root` points at this id. */
function pointedFromOutside(id: string, root: Element, pointed: SafeMap<string, Element[]>): boolean {
  const from = id ? pointed.get(id) : undefined;
  if (!from) return false;
  for (let i = 0; i < from.length; i++) if (!nodeContains(root, from[i]!)) return true;
  return false;
}

/**
 * The element to walk again for a change at `el`: its nearest ancestor-or-self the held walk
 * emitted, when nothing outside that element's subtree depends on what is inside (see the header).
 */
function rootFor(
  el: Element,
  indexOf: HeldIndex,
  nodes: WalkNode[],
  pointed: SafeMap<string, Element[]>,
): Element | null {
  let root: Element | null = null;
  for (let a: Element | null = el; a && !root; a = composedParent(a)) {
    if (a.getRootNode() !== document) return whole('a change inside a shadow root');
    if (a.namespaceURI !== HTML_NS || regexTest(NOT_A_ROOT, a.localName)) continue;
    if (indexOf.of(a) >= 0) root = a;
  }
  if (!root) return whole('a change outside every element the outline shows');
  // what the root's subtree names elsewhere: ids pointed at from outside, labels of outside controls
  if (pointedFromOutside(idAttr(root), root, pointed)) return whole('a changed element is pointed at by id');
  const inner = elQueryAll(root, '[id],label') as ArrayLike<Element>;
  for (let i = 0; i < inner.length; i++) {
    const e = inner[i]!;
    if (pointedFromOutside(idAttr(e), root, pointed))
      return whole('a changed subtree holds an element pointed at by id');
    if (e.localName === 'label') {
      const target = (e as HTMLLabelElement).control;
      if (target && !nodeContains(root, target))
        return whole('a changed subtree labels a control outside it');
    }
  }
  // above the root: nothing may cover or rename it, or start or stop scrolling
  for (let a = composedParent(root); a; a = composedParent(a)) {
    const tag = a.localName;
    if (regexTest(COVERING, tag)) return whole(`a change inside <${tag}>`);
    if (pointedFromOutside(idAttr(a), root, pointed))
      return whole('a change inside an element pointed at by id');
    const attrs = readAttrs(a);
    const role = explicitRole(a, attrs) ?? implicitRole(a, tag, attrs);
    const rf = roleFlags(role);
    if (namedFromContent(tag, role, rf, tagFlags(tag)))
      return whole(`a change inside a ${role} named from content`);
    if (rf & CHILDREN_PRESENTATIONAL) return whole(`a change inside a ${role}`);
    if (tagFlags(tag) & CAPTION || attrs.editable !== null)
      return whole('a change inside a caption or editable root');
    if (tag === 'html' || tag === 'body' || !scrollContainer(a)) continue;
    const index = indexOf.of(a);
    const scrolled = index >= 0 && has(nodes[index]!.actions, 'scroll');
    if (scrolled !== scrollsNow(a)) return whole('an ancestor started or stopped scrolling');
  }
  return root;
}
