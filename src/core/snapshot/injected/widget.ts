/** States, values and allowed actions of an element, from its tag, role and attributes. */
import type { Attrs } from './attrs.js';
import { selectedLabels } from './accname.js';
import { SafeSet } from './collections.js';
import { computedStyle, elMatches, freeze } from './natives.js';
import { hasClickListener } from './patches.js';
import { CHECKABLE, CLICK_ROLE, RANGE_ROLE, TEXT_ROLE, roleFlags } from './roles.js';
import { FORM_CONTROL, tagFlags } from './tags.js';
import { CAP, cap, collapse, tokens } from './text.js';

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
  return s.length ? s : NO_STATES;
}

/** The current value of a control; never a password (a mask instead); undefined when none. */
export function valueOf(
  el: Element,
  tag: string,
  role: string,
  a: Attrs,
  rf = roleFlags(role),
): string | undefined {
  let v: string | undefined;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (type === 'password') return input.value ? '••••' : undefined;
    if (type === 'file') {
      const files = input.files;
      let names = '';
      for (let i = 0; files && i < files.length; i++)
        names = names ? names + ', ' + files[i]!.name : files[i]!.name;
      v = names;
    } else if (!NON_TEXT_INPUTS.has(type) || type === 'range' || type === 'color') v = input.value;
  } else if (tag === 'textarea') v = (el as HTMLTextAreaElement).value;
  else if (tag === 'select') v = selectedLabels(el as HTMLSelectElement);
  else if (rf & RANGE_ROLE && (a.valuetext !== null || a.valuenow !== null))
    v = a.valuetext ?? a.valuenow ?? '';
  else if (tag === 'progress' || tag === 'meter') v = String((el as HTMLProgressElement).value);
  else if (isEditableRoot(el, a)) v = collapse(el.textContent ?? '', CAP);
  return v ? cap(v) : undefined;
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
  if (disabled) m = HOVER | SCROLL;
  else if (a.draggable) m |= DRAG | HOVER | SCROLL;
  return actionList(m);
}
