/** The current state of one element (same rules as the walk) and the element covering a point. */
import { computeName } from './accname.js';
import { readAttrs } from './attrs.js';
import { idOf } from './ids.js';
import { computedStyle, elClosest } from './natives.js';
import { labelsHiddenControl } from './labels.js';
import { CLICK_CHECKED, QUIET, TEXT_LEVEL, computeRole, explicitRole, roleFlags } from './roles.js';
import { composedParent } from './shadow.js';
import type { DescribeResult, HitCover } from './types.js';
import { deepActiveElement } from './walk.js';
import { tagFlags } from './tags.js';
import {
  actionsOf,
  checkedOf,
  describedText,
  dragSignal,
  hasClickSignal,
  hasPointerSignal,
  isDisabled,
  isEditableRoot,
  isScrollable,
  rangeOf,
  statesOf,
  valueOf,
} from './widget.js';

/** Clickable without a widget role: click signals, a label for a hidden control, or its own (not inherited) cursor:pointer. */
function clickableNow(el: Element, tag: string, a: ReturnType<typeof readAttrs>): boolean {
  if (hasClickSignal(el, a)) return true;
  if (tag === 'label') return labelsHiddenControl(el);
  if (tag === 'html' || tag === 'body') return false;
  if (computedStyle(el).cursor !== 'pointer') return false;
  const p = composedParent(el);
  return !p || computedStyle(p).cursor !== 'pointer';
}

/** Role, name, value, states and actions of an element now (includeHidden: see computeName). */
export function describeElement(el: Element, includeHidden = false): DescribeResult {
  const tag = el.localName;
  const a = readAttrs(el);
  const raw = computeRole(el, tag, a);
  const role =
    roleFlags(raw) & QUIET &&
    !(roleFlags(raw) & TEXT_LEVEL) &&
    (raw === 'none' || raw === 'presentation' || explicitRole(el, a) === null)
      ? 'generic'
      : raw;
  const clickable =
    (role === 'generic' ? !isEditableRoot(el, a) : (roleFlags(role) & CLICK_CHECKED) !== 0) &&
    clickableNow(el, tag, a);
  const disabled = isDisabled(el, tag, a);
  const select = tag === 'option' ? (elClosest(el, 'select') as HTMLSelectElement | null) : null;
  const inDropdown = !!select && !select.multiple && select.size <= 1;
  const rf = roleFlags(role);
  // the element's own cursor (not inherited), as the walk reads it
  const cursor = computedStyle(el).cursor;
  const p = composedParent(el);
  const ownCursor = !p || computedStyle(p).cursor !== cursor ? cursor : '';
  const clickState =
    clickable &&
    role === 'generic' &&
    (a.tabindex === null || ownCursor === 'pointer' || hasPointerSignal(el, a));
  const drag = !disabled && dragSignal(el, tag, role, a, tagFlags(tag), ownCursor);
  const out: DescribeResult = {
    role,
    name: computeName(el, tag, a, role, includeHidden),
    states: statesOf(el, tag, role, a, deepActiveElement(), disabled, rf, clickState),
    actions: actionsOf(el, tag, role, a, clickable, disabled, isScrollable(el), inDropdown, rf, drag),
    tag,
    value: valueOf(el, tag, role, a, rf),
    checked: checkedOf(el, tag, role, a, rf),
  };
  const range = rangeOf(el, tag, role, a, rf);
  if (range !== null) {
    if (range[0] !== undefined) out.valueMin = range[0];
    if (range[1] !== undefined) out.valueMax = range[1];
  }
  if (a.description !== null || a.describedby !== null) {
    const description = describedText(el, a);
    if (description) out.description = description;
  }
  return out;
}

/** The element to name as the cover of a point: the nearest meaningful ancestor of the hit, or the hit. */
export function coverOf(hit: Element): HitCover {
  let pick: Element = hit;
  for (let n: Element | null = hit, i = 0; n && i < 32; n = composedParent(n), i++) {
    const tag = n.localName;
    if (tag === 'body' || tag === 'html') break;
    const a = readAttrs(n);
    const raw = computeRole(n, tag, a);
    if (!(roleFlags(raw) & QUIET) || (a.label !== null && a.label !== '') || clickableNow(n, tag, a)) {
      pick = n;
      break;
    }
  }
  const d = describeElement(pick);
  return { id: idOf(pick), role: d.role, name: d.name, tag: d.tag };
}
