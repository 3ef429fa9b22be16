/** States, values and allowed actions of an element, from its tag, role and attributes. */
import type { Attrs } from './attrs.js';
import { selectedLabels } from './accname.js';
import { SafeSet } from './collections.js';
import { computedStyle, elGetAttribute, elMatches, freeze, nodeContains } from './natives.js';
import { hasClickListener, inPressContainer } from './patches.js';
import { CHECKABLE, CLICK_ROLE, RANGE_ROLE, TEXT_ROLE, roleFlags } from './roles.js';
import { CELL, FORM_CONTROL, tagFlags } from './tags.js';
import {
  docGetElementById,
  fragGetElementById,
  nodeGetRootNode,
  strIndexOf,
  strToLower,
  table,
} from './natives.js';
import { CAP, collapse, hasText, tokens } from './text.js';

const NO_STATES = freeze([]) as unknown as string[];
const NON_TEXT_INPUTS = new SafeSet(
  tokens('checkbox radio button submit reset image file hidden range color'),
);

/** A text-entry control (input of a text type, textarea, or a contenteditable root). */
export function isTextEntry(el: Element, tag: string, a: Attrs): boolean {
  if (tag === 'input') return !NON_TEXT_INPUTS.has((el as HTMLInputElement).type);
  if (tag === 'textarea') return true;
  return isEditableRoot(el, a);
}

/** The root of a contenteditable region (not a descendant of one). */
export function isEditableRoot(el: Element, a: Attrs): boolean {
  if (a.editable === null || a.editable === 'false') return false;
  const p = el.parentElement as HTMLElement | null;
  return (el as HTMLElement).isContentEditable && !(p && p.isContentEditable);
}

/**
 * Whether the control is disabled (native :disabled, including a disabled fieldset, or
 * aria-disabled). `inDisabledFieldset`, when the caller knows it is false, spares a selector match.
 */
export function isDisabled(
  el: Element,
  tag: string,
  a: Attrs,
  inDisabledFieldset?: boolean,
  tf = tagFlags(tag),
): boolean {
  if (a.disabled) return true;
  if (!(tf & FORM_CONTROL)) return false;
  if (inDisabledFieldset === false && tag !== 'option') return (el as HTMLButtonElement).disabled;
  return elMatches(el, ':disabled');
}

/** checked state: true, false, 'mixed', or undefined when the role is not checkable. */
export function checkedOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  rf = roleFlags(role),
): boolean | 'mixed' | undefined {
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') {
      if (input.indeterminate && input.type === 'checkbox') return 'mixed';
      return input.checked;
    }
  }
  const checkable = (rf & CHECKABLE) !== 0;
  if (!checkable && role !== 'treeitem') return undefined;
  if (a.checked === 'mixed') return 'mixed';
  if (a.checked === 'true') return true;
  return checkable ? false : undefined;
}

/** The states of an element, in a fixed order. */
export function statesOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  focused: Element | null,
  disabled: boolean,
  rf = roleFlags(role),
  clickable = false,
): string[] {
  const s: string[] = [];
  const checked = checkedOf(el, tag, role, a, rf);
  if (checked === true) s[s.length] = 'checked';
  else if (checked === 'mixed') s[s.length] = 'mixed';
  if (disabled) s[s.length] = 'disabled';
  let expanded = a.expanded;
  if (expanded === null && tag === 'summary') {
    const details = el.parentElement;
    if (details && details.localName === 'details')
      expanded = (details as HTMLDetailsElement).open ? 'true' : 'false';
  }
  if (expanded === 'true') s[s.length] = 'expanded';
  else if (expanded === 'false') s[s.length] = 'collapsed';
  if (a.selected === 'true' || (tag === 'option' && (el as HTMLOptionElement).selected))
    s[s.length] = 'selected';
  if (el === focused) s[s.length] = 'focused';
  else if (focused !== null && isActiveDescendant(el, a, focused)) s[s.length] = 'active';
  if (
    a.required ||
    ((tag === 'input' || tag === 'select' || tag === 'textarea') && (el as HTMLInputElement).required)
  ) {
    s[s.length] = 'required';
  }
  if (a.readonly || ((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly))
    s[s.length] = 'readonly';
  if (a.pressed === 'true' || a.pressed === 'mixed') s[s.length] = 'pressed';
  if (
    a.invalid ||
    ((tag === 'input' || tag === 'select' || tag === 'textarea') && elMatches(el, ':user-invalid'))
  ) {
    s[s.length] = 'invalid';
  }
  if (a.multiselectable || (tag === 'select' && (el as HTMLSelectElement).multiple))
    s[s.length] = 'multiselectable';
  if (a.modal || (tag === 'dialog' && elMatches(el, ':modal'))) s[s.length] = 'modal';
  if (isMultiline(el, tag, a)) s[s.length] = 'multiline';
  if (a.tabindex !== null && isFocusable(el, tag, role, a, rf)) s[s.length] = 'focusable';
  if (clickable && role === 'generic') s[s.length] = 'clickable';
  return s.length ? s : NO_STATES;
}

/**
 * `active`: the option (menu item, tree item, cell) the focused widget names with
 * aria-activedescendant, where its keys act. Only inside the focused element, so a focus change
 * re-walks it with the widget.
 */
function isActiveDescendant(el: Element, a: Attrs, focused: Element): boolean {
  const id = a.keep !== null ? a.keep.id : undefined;
  if (id === undefined || id === '') return false;
  return elGetAttribute(focused, 'aria-activedescendant') === id && nodeContains(focused, el);
}

/**
 * Takes more than one line: a textarea, aria-multiline="true", or a contenteditable root that is
 * not display:inline (and not aria-multiline="false").
 */
export function isMultiline(el: Element, tag: string, a: Attrs): boolean {
  if (tag === 'textarea' || a.multiline === 'true') return true;
  if (a.editable === null || a.multiline === 'false' || !isEditableRoot(el, a)) return false;
  return computedStyle(el).display !== 'inline';
}

/** Focusable natively (the browser puts it in the tab order without a tabindex). */
const NATIVE_FOCUS = table<true>({
  button: true,
  input: true,
  select: true,
  textarea: true,
  summary: true,
  iframe: true,
  frame: true,
  object: true,
  embed: true,
});

/** Roles of widgets (and composite widgets): focus on them is expected, not worth a state. */
const WIDGET_ROLES = table<true>({
  slider: true,
  spinbutton: true,
  scrollbar: true,
  separator: true,
  menu: true,
  menubar: true,
  tablist: true,
  tree: true,
  treegrid: true,
  grid: true,
  radiogroup: true,
  toolbar: true,
});

/**
 * tabindex ≥ 0 on an element that is not natively focusable and has no widget role: a role-less
 * widget (a slider thumb made of a span) that takes keys. Callers check a.tabindex !== null first.
 */
export function isFocusable(el: Element, tag: string, role: string, a: Attrs, rf = roleFlags(role)): boolean {
  if ((el as HTMLElement).tabIndex < 0) return false;
  if (NATIVE_FOCUS[tag] === true || ((tag === 'a' || tag === 'area') && a.href)) return false;
  if (a.editable !== null && (el as HTMLElement).isContentEditable) return false;
  if (tag === 'audio' || tag === 'video') return !(el as HTMLMediaElement).controls;
  return !(rf & (CLICK_ROLE | TEXT_ROLE | CHECKABLE)) && WIDGET_ROLES[role] !== true;
}

/** A number from an attribute or property text, or undefined (unary plus: nothing to patch). */
function num(v: string | null | undefined): number | undefined {
  if (v === null || v === undefined || !hasText(v)) return undefined;
  const n = +v;
  return n === n && n !== 1 / 0 && n !== -1 / 0 ? n : undefined;
}

/**
 * The range of a slider, spinbutton, scrollbar, progressbar or meter ([min, max], either
 * undefined when unknown), or null when the element has no range. Native inputs, progress and
 * meter from their DOM; ARIA widgets from aria-valuemin/max only (no defaults assumed).
 */
export function rangeOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  rf = roleFlags(role),
): [number | undefined, number | undefined] | null {
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (type === 'range') return [num(input.min) ?? 0, num(input.max) ?? 100];
    if (type === 'number') {
      const r: [number | undefined, number | undefined] = [num(input.min), num(input.max)];
      return r[0] === undefined && r[1] === undefined ? null : r;
    }
    return null;
  }
  if (tag === 'progress') return [0, (el as HTMLProgressElement).max];
  if (tag === 'meter') return [(el as HTMLMeterElement).min, (el as HTMLMeterElement).max];
  if (!(rf & RANGE_ROLE) || (a.valuemin === null && a.valuemax === null)) return null;
  const r: [number | undefined, number | undefined] = [num(a.valuemin), num(a.valuemax)];
  return r[0] === undefined && r[1] === undefined ? null : r;
}

/** aria-description, else the text of the aria-describedby elements (collapsed, capped); '' if none. */
export function describedText(el: Element, a: Attrs): string {
  if (a.description !== null && hasText(a.description)) return collapse(a.description, CAP);
  if (a.describedby === null) return '';
  const ids = tokens(a.describedby);
  let out = '';
  const root = nodeGetRootNode(el) as Node;
  for (let i = 0; i < ids.length && out.length < CAP; i++) {
    const ref =
      root.nodeType === 9
        ? docGetElementById(root, ids[i]!)
        : root.nodeType === 11
          ? fragGetElementById(root, ids[i]!)
          : null;
    if (!ref || ref === el) continue;
    const t = collapse(ref.textContent ?? '', CAP);
    if (t) out = out ? out + ' ' + t : t;
  }
  return collapse(out, CAP);
}

/** Cursors that say "this can be dragged". */
export function isDragCursor(cursor: string | undefined): boolean {
  return cursor === 'grab' || cursor === 'grabbing' || cursor === 'move' || cursor === '-webkit-grab';
}

/**
 * Signals that an element is dragged with the mouse, beyond draggable="true" and role slider:
 * its own cursor grab/grabbing/move (`ownCursor`, '' when unknown or inherited), an
 * aria-roledescription naming it sortable/draggable (dnd-kit), or a press listener on an ancestor
 * within three levels (an item of a sortable list). An element's own press listener is not one: a
 * sortable's container and a slider's track have it too (browser_drag accepts them all the same).
 */
export function dragSignal(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  tf: number,
  ownCursor: string,
): boolean {
  if (isDragCursor(ownCursor)) return true;
  if (a.roledescription !== null) {
    const d = strToLower(a.roledescription);
    if (strIndexOf(d, 'sortable') >= 0 || strIndexOf(d, 'drag') >= 0) return true;
  }
  // form controls (buttons too: sortables cancel drags started on them) and table cells are not items
  if (tf & (FORM_CONTROL | CELL)) return false;
  return inPressContainer(el);
}

/** autocomplete tokens that say a field holds a secret (one-time codes, card numbers). */
const SECRET_TOKENS = ['one-time-code', 'cc-number', 'cc-csc', 'current-password', 'new-password'];

function secretField(input: HTMLInputElement): boolean {
  const ac = elGetAttribute(input, 'autocomplete');
  if (!ac) return false;
  for (let i = 0; i < SECRET_TOKENS.length; i++) if (strIndexOf(ac, SECRET_TOKENS[i]!) >= 0) return true;
  return false;
}

/**
 * The current value of a control, verbatim and complete (not collapsed, not capped); never a
 * password or another secret field's value (a mask instead); undefined when none. Range widgets: aria-valuetext, else
 * aria-valuenow, else the native value. A contenteditable root: its innerText.
 */
export function valueOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  rf = roleFlags(role),
): string | undefined {
  let v: string | undefined;
  if (
    rf & RANGE_ROLE &&
    (a.valuetext !== null || a.valuenow !== null) &&
    tag !== 'progress' &&
    tag !== 'meter'
  )
    v = a.valuetext ?? a.valuenow ?? '';
  else if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (type === 'password' || secretField(input)) return input.value ? '••••' : undefined;
    if (type === 'file') {
      const files = input.files;
      let names = '';
      for (let i = 0; files && i < files.length; i++)
        names = names ? names + ', ' + files[i]!.name : files[i]!.name;
      v = names;
    } else if (!NON_TEXT_INPUTS.has(type) || type === 'range' || type === 'color') v = input.value;
  } else if (tag === 'textarea') v = (el as HTMLTextAreaElement).value;
  else if (tag === 'select') v = selectedLabels(el as HTMLSelectElement);
  else if (tag === 'progress' || tag === 'meter') v = String((el as HTMLProgressElement).value);
  else if (isEditableRoot(el, a)) v = (el as HTMLElement).innerText ?? el.textContent ?? '';
  return v ? v : undefined;
}

/** Click signals that are not a tabindex: onclick (attribute or property) or a recorded click-like listener. */
export function hasPointerSignal(el: Element, a: Attrs): boolean {
  return a.onclick || hasClickListener(el) || typeof (el as HTMLElement).onclick === 'function';
}

/** Cheap click signals of a role-less element: onclick, tabindex ≥ 0, or a recorded listener. */
export function hasClickSignal(el: Element, a: Attrs): boolean {
  if (a.onclick) return true;
  if (a.tabindex !== null && (el as HTMLElement).tabIndex >= 0) return true;
  if (hasClickListener(el)) return true;
  return typeof (el as HTMLElement).onclick === 'function';
}

/** A scroll container with something to scroll (overflow auto/scroll and content larger than the box). */
export function isScrollable(el: Element): boolean {
  const y = el.scrollHeight > el.clientHeight;
  const x = el.scrollWidth > el.clientWidth;
  if (!x && !y) return false;
  const cs = computedStyle(el);
  if (y && scrolls(cs.overflowY)) return true;
  return x && scrolls(cs.overflowX);
}

function scrolls(overflow: string): boolean {
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';
}

const ACTION_NAMES = tokens('click fill type press select check upload drag hover scroll');
const CLICK = 1;
const FILL = 2;
const TYPE = 4;
const PRESS = 8;
const SELECT = 16;
const CHECK = 32;
const UPLOAD = 64;
const DRAG = 128;
const HOVER = 256;
const SCROLL = 512;
/** One frozen array per combination: nodes share them instead of allocating. */
const listByMask: (readonly string[] | undefined)[] = [];

function actionList(mask: number): string[] {
  let list = listByMask[mask];
  if (!list) {
    const out: string[] = [];
    for (let i = 0; i < ACTION_NAMES.length; i++) if (mask & (1 << i)) out[out.length] = ACTION_NAMES[i]!;
    list = listByMask[mask] = freeze(out);
  }
  return list as string[];
}

/**
 * Allowed actions in the fixed order click, fill, type, press, select, check, upload, drag, hover,
 * scroll. `inDropdown`: an <option> of a drop-down <select> (chosen with `select` on the combobox).
 * The returned array is shared and frozen.
 */
export function actionsOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  clickable: boolean,
  disabled: boolean,
  scrollable: boolean,
  inDropdown: boolean,
  rf = roleFlags(role),
  drag = false,
): string[] {
  let m = scrollable ? SCROLL : 0;
  const inputType = tag === 'input' ? (el as HTMLInputElement).type : '';
  if (inputType === 'file') m |= UPLOAD | CLICK | SCROLL;
  else if (tag === 'select') m |= SELECT | CLICK | SCROLL;
  else if (inputType === 'range') m |= CLICK | FILL | PRESS | HOVER | SCROLL;
  else if (rf & TEXT_ROLE || isTextEntry(el, tag, a)) m |= CLICK | FILL | TYPE | PRESS | SCROLL;
  else if (rf & CHECKABLE) m |= CLICK | CHECK | HOVER | SCROLL;
  else if (role === 'slider' || role === 'spinbutton') m |= CLICK | PRESS | HOVER | SCROLL;
  else if (tag === 'option' && inDropdown) return actionList(0);
  else if (rf & CLICK_ROLE || clickable || tag === 'summary') m |= CLICK | HOVER | SCROLL;
  else if (disabled) disabled = false; // not a control: nothing to disable
  if (disabled) return actionList(HOVER | SCROLL);
  if (a.draggable || drag || role === 'slider') m |= DRAG | HOVER | SCROLL;
  // keys go to anything put in the tab order by tabindex (a thumb, a custom button, a pane), and to
  // a control or a composite widget given tabindex=-1: focused by script (roving tabindex, a menu
  // that keeps the focus while aria-activedescendant moves)
  if (a.tabindex !== null) {
    if ((el as HTMLElement).tabIndex >= 0) m |= m & ~SCROLL ? PRESS : PRESS | HOVER;
    else if (m & ~(SCROLL | HOVER) || WIDGET_ROLES[role] === true) m |= PRESS;
  }
  return actionList(m);
}
