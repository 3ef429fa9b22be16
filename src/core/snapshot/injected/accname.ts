/** Accessible names per accname 1.2 and HTML-AAM, matching Chromium (CSS generated content is not included). */
import { readAttrs, type Attrs } from './attrs.js';
import { docGetElementById, fragGetElementById, nodeGetRootNode } from './natives.js';
import { labelsOf } from './labels.js';
import { computeRole, NAME_FROM_CONTENT, roleFlags } from './roles.js';
import { INLINE, NO_CONTENT, tagFlags } from './tags.js';
import { composedChildrenOf } from './shadow.js';
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

function labelledByText(el: Element, ids: string, st: NameState): string {
  const list = tokens(ids);
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const ref = byId(el, list[i]!);
    if (!ref || ref === st.target) continue;
    const sub: NameState = {
      target: st.target,
      labelledBy: true,
      includeHidden: st.includeHidden || hiddenForName(ref),
      depth: st.depth,
    };
    const t = textAlternative(ref, sub, true);
    if (t) out = out ? out + ' ' + t : t;
  }
  return out;
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
    case 'listbox':
      if (tag === 'select') return selectedLabels(el as HTMLSelectElement);
      if (tag === 'input') return (el as HTMLInputElement).value;
      return null;
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
      if (type === 'image') return a.alt || input.value || a.title || 'Submit';
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
      return childText(el, 'caption', st);
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
      if (tagFlags(tag) & INLINE) out += t;
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
  if (!st.labelledBy && a.labelledby) {
    const t = labelledByText(el, a.labelledby, st);
    if (hasText(t)) return t;
  }
  const v = embeddedValue(el, role, a);
  if (v !== null) return v;
  if (a.label && hasText(a.label)) return a.label;
  if (role !== 'none' && role !== 'presentation') {
    const t = nativeText(el, tag, a, st, true);
    if (hasText(t)) return t;
  }
  return tagFlags(tag) & NO_CONTENT ? (a.title ?? '') : null;
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
  const prefix = recursionPrefix(el, tag, a, computeRole(el, tag, a), st);
  if (prefix !== null) return prefix;
  const t = contentText(el, st);
  return hasText(t) ? t : (a.title ?? '');
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
  if (a.labelledby) {
    const t = collapse(labelledByText(el, a.labelledby, st), CAP);
    if (t) return t;
  }
  if (a.label && hasText(a.label)) return collapse(a.label, CAP);
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
  if (a.title && hasText(a.title) && (role !== 'generic' || (el as HTMLElement).tabIndex >= 0))
    return collapse(a.title, CAP);
  if (a.placeholder && (role === 'textbox' || role === 'searchbox' || role === 'combobox')) {
    return collapse(a.placeholder, CAP);
  }
  return '';
}

/** The accessible name of an element given its attributes and role; collapsed, at most 200 chars. */
export function computeName(el: Element, tag: string, a: Attrs, role: string): string {
  const prefix = namePrefix(el, tag, a, role);
  if (prefix) return prefix;
  if (namedFromContent(tag, role)) {
    const st: NameState = { target: el, labelledBy: false, includeHidden: false, depth: 0 };
    const t = collapse(contentText(el, st), CAP);
    if (t) return t;
  }
  return nameSuffix(el, a, role);
}
