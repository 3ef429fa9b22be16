/** Accessible names per accname 1.2 and HTML-AAM, matching Chromium (CSS generated content included). */
import { readAttrs, type Attrs } from './attrs.js';
import {
  computedStyle,
  docGetElementById,
  elGetAttribute,
  elHasAttributes,
  fragGetElementById,
  nodeGetRootNode,
  strSlice,
} from './natives.js';
import { labelsOf } from './labels.js';
import { computeRole, NAME_FROM_CONTENT, TEXT_LEVEL, roleFlags } from './roles.js';
import { INLINE, LEAF, NO_CONTENT, tagFlags } from './tags.js';
import { composedChildrenOf } from './shadow.js';
import { withPseudoIn } from './pseudo-content.js';
import { CAP, collapse, hasText, tokens } from './text.js';
import { hiddenForName } from './visibility.js';

interface NameState {
  /** The element being named; met again inside its own label it contributes nothing. */
  target: Element;
  /** Inside an aria-labelledby traversal (no second hop). */
  labelledBy: boolean;
  /** Inside a hidden node directly referenced by aria-labelledby: hidden content counts. */
  includeHidden: boolean;
  /** Recursion depth, a guard against pathological nesting. */
  depth: number;
}

function byId(scope: Element, id: string): Element | null {
  const root = nodeGetRootNode(scope) as Node;
  if (root.nodeType === 9) return docGetElementById(root, id);
  if (root.nodeType === 11) return fragGetElementById(root, id);
  return null;
}

/** HTML's whitespace (not NBSP: accname trims and collapses only this). */
function isAsciiSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f';
}

/** Whether an aria-label has something besides ASCII whitespace (an NBSP counts, as in Chromium). */
function labelHasText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isAsciiSpace(s[i]!)) return true;
  return false;
}

/** An aria-label as its name: ASCII whitespace collapsed and trimmed, NBSP kept; at most `max` chars. */
function collapseLabel(s: string, max = CAP): string {
  let out = '';
  let space = false;
  for (let i = 0; i < s.length && out.length < max; i++) {
    const ch = s[i]!;
    if (isAsciiSpace(ch)) space = out !== '';
    else {
      if (space) out += ' ';
      space = false;
      out += ch;
    }
  }
  return out.length > max ? strSlice(out, 0, max) : out;
}

/** aria-labelledby, or its common misspelling aria-labeledby (Chromium honours both; the first wins). */
function labelledByOf(el: Element, a: Attrs): string | null {
  if (a.labelledby !== null) return a.labelledby;
  return elHasAttributes(el) ? elGetAttribute(el, 'aria-labeledby') : null;
}

function labelledByText(el: Element, ids: string, st: NameState): string {
  const list = tokens(ids);
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const ref = byId(el, list[i]!);
    if (!ref) continue;
    const sub: NameState = {
      target: st.target,
      labelledBy: true,
      includeHidden: st.includeHidden || hiddenForName(ref),
      depth: st.depth,
    };
    // An element naming itself gives its aria-label, else its native or content text (accname 2B/2C).
    const t = ref === st.target ? selfText(ref, sub) : textAlternative(ref, sub, true);
    if (t) out = out ? out + ' ' + t : t;
  }
  return out;
}

/** The element being named, met in its own aria-labelledby: everything but aria-labelledby. */
function selfText(el: Element, st: NameState): string {
  const a = readAttrs(el);
  const tag = el.localName;
  const role = computeRole(el, tag, a);
  // a control gives its value (Chromium), like any control met inside a name
  const v = embeddedValue(el, role, a);
  if (v !== null && hasText(v)) return v;
  if (a.label && labelHasText(a.label)) return a.label;
  if (role !== 'none' && role !== 'presentation') {
    const t = nativeText(el, tag, a, st, false);
    if (hasText(t)) return t;
  }
  if (!namedFromContent(tag, role)) return '';
  const t = contentText(el, st);
  return withPseudoIn(el, t);
}

/** The labels of the selected options of a <select>, joined. */
export function selectedLabels(s: HTMLSelectElement): string {
  const opts = s.selectedOptions;
  let out = '';
  for (let i = 0; i < opts.length; i++) {
    const l = collapse(opts[i]!.label);
    if (l) out = out ? out + ', ' + l : l;
  }
  return out;
}

/** Value of a control embedded in another element's label (accname step 2E), or null if not a control. */
function embeddedValue(el: Element, role: string, a: Attrs): string | null {
  const tag = el.localName;
  switch (role) {
    case 'textbox':
    case 'searchbox':
      if (tag === 'input' && (el as HTMLInputElement).type === 'password') {
        // never a password, not even inside another control's name
        return (el as HTMLInputElement).value ? '••••' : '';
      }
      return tag === 'input' || tag === 'textarea' ? (el as HTMLInputElement).value : (el.textContent ?? '');
    case 'combobox':
      if (tag === 'select') return selectedLabels(el as HTMLSelectElement);
      if (tag === 'input') return (el as HTMLInputElement).value;
      // an ARIA combobox shows its value as its text
      return el.textContent ?? '';
    case 'listbox': {
      if (tag === 'select') return selectedLabels(el as HTMLSelectElement);
      if (tag === 'input') return (el as HTMLInputElement).value;
      // the selected options of an ARIA listbox
      const opts = el.querySelectorAll('[role=option][aria-selected=true]');
      let out = '';
      for (let i = 0; i < opts.length; i++) {
        const t = collapse(opts[i]!.textContent ?? '');
        if (t) out = out ? out + ' ' + t : t;
      }
      return out;
    }
    case 'slider':
    case 'spinbutton':
    case 'progressbar':
    case 'meter':
    case 'scrollbar':
      return a.valuetext ?? a.valuenow ?? (tag === 'input' ? (el as HTMLInputElement).value : '');
  }
  return null;
}

function labelsText(el: Element, st: NameState): string {
  const labels = labelsOf(el, nodeGetRootNode(el));
  let out = '';
  for (let i = 0; i < labels.length; i++) {
    const t = textAlternative(labels[i]!, st, false);
    if (t) out = out ? out + ' ' + t : t;
  }
  return out;
}

function childText(el: Element, tag: string, st: NameState): string {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName === tag) return tag === 'title' ? (c.textContent ?? '') : textAlternative(c, st, false);
  }
  return '';
}

/** Native text alternative (accname step 2D, per HTML-AAM). */
function nativeText(el: Element, tag: string, a: Attrs, st: NameState, recursing: boolean): string {
  switch (tag) {
    case 'input': {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'submit' || type === 'reset' || type === 'button') {
        const fromLabels = recursing ? '' : labelsText(el, st);
        if (fromLabels) return fromLabels;
        if (input.hasAttribute('value')) return input.value;
        return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
      }
      if (type === 'image') {
        // Chromium: a <label> comes before alt (HTML-AAM leaves the order open)
        const fromLabels = recursing ? '' : labelsText(el, st);
        return fromLabels || a.alt || input.value || a.title || 'Submit';
      }
      if (recursing) return '';
      const fromLabels = labelsText(el, st);
      if (fromLabels || type !== 'file') return fromLabels;
      return a.title ? '' : 'Choose File';
    }
    case 'textarea':
    case 'select':
    case 'button':
    case 'meter':
    case 'progress':
    case 'output':
      return recursing ? '' : labelsText(el, st);
    case 'img':
    case 'area':
      return a.alt ?? '';
    case 'fieldset':
      return childText(el, 'legend', st);
    case 'figure':
      return childText(el, 'figcaption', st);
    case 'table':
      // the obsolete summary attribute still names a table without a caption in Chromium
      return childText(el, 'caption', st) || (elGetAttribute(el, 'summary') ?? '');
    case 'svg':
      return childText(el, 'title', st);
    case 'optgroup':
      return (el as HTMLOptGroupElement).label;
    case 'option':
      return a.label === null && el.hasAttribute('label') ? (el as HTMLOptionElement).label : '';
  }
  return '';
}

/** Text of the children in the composed tree (accname step 2F), uncollapsed. */
function contentText(el: Element, st: NameState): string {
  let out = '';
  const kids = composedChildrenOf(el);
  for (let i = 0; i < kids.length; i++) {
    const n = kids[i]!;
    if (n.nodeType === 3) out += (n as Text).data;
    else if (n.nodeType === 1) {
      const c = n as Element;
      const tag = c.localName;
      if (tag === 'br') {
        out += ' ';
        continue;
      }
      st.depth++;
      const t = textAlternative(c, st, false);
      st.depth--;
      if (inlineInName(c, tagFlags(tag))) out += t;
      else if (t) out += ' ' + t + ' ';
    }
  }
  return out;
}

/**
 * A descendant's text alternative from everything but its content (labelledby, embedded-control
 * value, aria-label, native text), or null when its content (then its title) decides.
 */
function recursionPrefix(el: Element, tag: string, a: Attrs, role: string, st: NameState): string | null {
  if (!st.labelledBy) {
    const lb = labelledByOf(el, a);
    if (lb) {
      const t = labelledByText(el, lb, st);
      if (hasText(t)) return t;
    }
  }
  const v = embeddedValue(el, role, a);
  if (v !== null) return v;
  if (a.label && labelHasText(a.label)) return a.label;
  if (role !== 'none' && role !== 'presentation') {
    const t = nativeText(el, tag, a, st, true);
    if (hasText(t)) return t;
  }
  return tagFlags(tag) & (NO_CONTENT | LEAF) ? recursionTitle(el, a, role) : null;
}

/**
 * A descendant's title, its last name source (accname 2I). Like Chromium, a generic element that
 * cannot take focus gives none.
 */
export function recursionTitle(el: Element, a: Attrs, role: string): string {
  if (a.title === null) return '';
  if ((role === 'generic' || role === 'none' || role === 'presentation') && (el as HTMLElement).tabIndex < 0)
    return '';
  return a.title;
}

/** The text alternative of a descendant or referenced node (accname 1.2 step 2, recursion). */
function textAlternative(el: Element, st: NameState, referenced: boolean): string {
  // No cycles are possible: aria-labelledby is followed one hop only, labels only for the
  // element being named, and that element contributes nothing when met again.
  if (el === st.target || st.depth > 200) return '';
  if (!referenced && !st.includeHidden && hiddenForName(el)) return '';
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript') return '';
  const a = readAttrs(el);
  const role = computeRole(el, tag, a);
  const prefix = recursionPrefix(el, tag, a, role, st);
  if (prefix !== null) return prefix;
  const t = withPseudoIn(el, contentText(el, st));
  if (hasText(t)) return t;
  // a node referenced by aria-labelledby gives its title whatever its role
  return referenced ? (a.title ?? '') : recursionTitle(el, a, role);
}

// Name computations never nest at the top level, so their root states are reused (no allocation
// per element on big pages).
const rootState: NameState = {
  target: null as unknown as Element,
  labelledBy: false,
  includeHidden: false,
  depth: 0,
};
const descendantState: NameState = { ...rootState };

function freshState(st: NameState, target: Element): NameState {
  st.target = target;
  st.labelledBy = false;
  st.includeHidden = false;
  st.depth = 0;
  return st;
}

/**
 * For the walker, which collects content text itself: a descendant's text alternative when it
 * does not come from its content, else null.
 */
export function descendantPrefix(el: Element, tag: string, a: Attrs, role: string): string | null {
  return recursionPrefix(el, tag, a, role, freshState(descendantState, el));
}

/** The name of an element from labelledby, aria-label and native sources (collapsed; '' if none). */
export function namePrefix(el: Element, tag: string, a: Attrs, role: string): string {
  const st = freshState(rootState, el);
  const lb = labelledByOf(el, a);
  if (lb) {
    const t = collapse(labelledByText(el, lb, st), CAP);
    if (t) return t;
  }
  if (a.label && labelHasText(a.label)) return collapseLabel(a.label);
  if (role !== 'none' && role !== 'presentation') return collapse(nativeText(el, tag, a, st, false), CAP);
  return '';
}

/** Whether an element with this role and tag takes its name from its content. */
export function namedFromContent(
  tag: string,
  role: string,
  rf = roleFlags(role),
  tf = tagFlags(tag),
): boolean {
  return (rf & NAME_FROM_CONTENT) !== 0 && (tf & NO_CONTENT) === 0;
}

/**
 * The last name sources: title, then placeholder for text fields. Like Chromium, a generic element
 * that cannot take focus is not named by its title (it stays in attrs.title).
 */
export function nameSuffix(el: Element, a: Attrs, role: string): string {
  if (
    a.title &&
    hasText(a.title) &&
    (role !== 'generic' || (el as HTMLElement).tabIndex >= 0) &&
    // text-level roles cannot be named (ARIA: name prohibited); abbr is named by its title
    (!(roleFlags(role) & TEXT_LEVEL) || role === 'abbr' || role === 'term')
  )
    return collapse(a.title, CAP);
  if (a.placeholder && placeholderNames(el)) return collapse(a.placeholder, CAP);
  return '';
}

/** Whether a placeholder names the element: aria-placeholder anywhere, placeholder where HTML has it. */
function placeholderNames(el: Element): boolean {
  if (elGetAttribute(el, 'aria-placeholder') !== null) return true;
  const tag = el.localName;
  if (tag === 'textarea') return true;
  if (tag !== 'input') return false;
  switch ((el as HTMLInputElement).type) {
    case 'text':
    case 'search':
    case 'url':
    case 'tel':
    case 'email':
    case 'password':
    case 'number':
      return true;
  }
  return false;
}

/** The accessible name of an element given its attributes and role; collapsed, at most 200 chars. */
export function computeName(el: Element, tag: string, a: Attrs, role: string, includeHidden = false): string {
  const prefix = namePrefix(el, tag, a, role);
  if (prefix) return prefix;
  if (namedFromContent(tag, role)) {
    // includeHidden: the element itself is hidden (browser_find of hidden elements), so its hidden content names it
    const st: NameState = { target: el, labelledBy: false, includeHidden, depth: 0 };
    let content = contentText(el, st);
    content = withPseudoIn(el, content);
    const t = collapse(content, CAP);
    if (t) return t;
  }
  return nameSuffix(el, a, role);
}

/** Whether a node's text touches an element's at `before` (its end) or after it (its start). */
function touches(n: Node | null, before: boolean): boolean {
  if (!n) return false;
  if (n.nodeType === 1) return true;
  if (n.nodeType !== 3) return false;
  const d = (n as Text).data;
  if (!d) return false;
  const ch = before ? d[d.length - 1]! : d[0]!;
  return !(ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f');
}

/**
 * Whether an element's text joins its neighbours' in a name from content without a space. Chromium
 * goes by the rendered display (inline-block, flex items and blocks are spaced); the tag's usual
 * display decides unless the element touches a neighbour, where a wrong guess would glue or split
 * words: only there is the computed display read.
 */
export function inlineInName(el: Element, tf: number): boolean {
  if (!touches(el.previousSibling, true) && !touches(el.nextSibling, false)) return (tf & INLINE) !== 0;
  const d = computedStyle(el).display;
  return d === 'inline' || d === 'contents';
}
