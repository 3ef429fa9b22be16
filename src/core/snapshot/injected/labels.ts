/**
 * Which <label>s label which control. `input.labels` scans the whole document the first time it
 * is read for each control (quadratic on big forms), so we build one map per tree scope and
 * reuse it until the DOM changes.
 */
import { SafeMap, SafeWeakMap } from './collections.js';
import { docQueryAll, fragQueryAll } from './natives.js';
import { mutationSeq } from './mutations.js';
import { GONE, visibilityOf } from './visibility.js';

interface LabelMap {
  seq: number;
  byControl: SafeMap<Element, HTMLLabelElement[]>;
}

const maps = new SafeWeakMap<Node, LabelMap>();

function build(root: Node, seq: number): LabelMap {
  const byControl = new SafeMap<Element, HTMLLabelElement[]>();
  const labels = (
    root.nodeType === 9 ? docQueryAll(root, 'label') : fragQueryAll(root, 'label')
  ) as NodeListOf<HTMLLabelElement>;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    const control = label.control;
    if (!control) continue;
    const list = byControl.get(control);
    if (list) list[list.length] = label;
    else byControl.set(control, [label]);
  }
  const map = { seq, byControl };
  maps.set(root, map);
  return map;
}

const NONE: HTMLLabelElement[] = [];

/** The labels of a labelable element, in tree order. */
export function labelsOf(el: Element, root: Node): HTMLLabelElement[] {
  if (root.nodeType !== 9 && root.nodeType !== 11) return NONE;
  const seq = mutationSeq();
  let map = maps.get(root);
  if (!map || map.seq !== seq) map = build(root, seq);
  return map.byControl.get(el) ?? NONE;
}

/** A label whose control is rendered and named by it (its text would repeat that name). */
export function labelNamesVisibleControl(label: Element): boolean {
  const control = (label as HTMLLabelElement).control;
  if (!control || control.hasAttribute('aria-label') || control.hasAttribute('aria-labelledby')) return false;
  return visibilityOf(control) !== GONE;
}

/** A label whose control is not rendered (a styled toggle): the label is what a user clicks. */
export function labelsHiddenControl(label: Element): boolean {
  const control = (label as HTMLLabelElement).control;
  return !!control && visibilityOf(control) === GONE;
}
