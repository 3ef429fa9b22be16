/** The options of a <select> as outline nodes; drop-down options are chosen with `select` on the combobox. */
import { namePrefix, nameSuffix } from './accname.js';
import { readAttrs } from './attrs.js';
import { idOf } from './ids.js';
import { CAP, collapse } from './text.js';
import type { WalkNode } from './types.js';
import { actionsOf, isDisabled, statesOf } from './widget.js';

/** What the walker lends to emit nodes. */
export interface Emitter {
  readonly focused: Element | null;
  readonly truncated: boolean;
  /** A node whose box will be measured from `source`. */
  node(id: number, depth: number, role: string, name: string, tag: string, source: Element | null): WalkNode;
  /** false when the node budget is spent. */
  push(node: WalkNode): boolean;
}

function option(out: Emitter, o: HTMLOptionElement, depth: number, dropdown: boolean): void {
  const a = readAttrs(o);
  if (a.hidden || o.hidden) return;
  const disabled = isDisabled(o, 'option', a);
  const name = namePrefix(o, 'option', a, 'option') || collapse(o.label, CAP) || nameSuffix(o, a, 'option');
  const node = out.node(idOf(o), depth, 'option', name, 'option', o);
  node.states = statesOf(o, 'option', 'option', a, out.focused, disabled);
  node.actions = actionsOf(o, 'option', 'option', a, false, disabled, false, dropdown);
  if (a.keep) node.attrs = a.keep;
  out.push(node);
}

/** Emit the options (and option groups) of a select at `depth`. */
export function emitOptions(out: Emitter, select: HTMLSelectElement, depth: number, dropdown: boolean): void {
  for (let c = select.firstElementChild; c && !out.truncated; c = c.nextElementSibling) {
    const tag = c.localName;
    if (tag === 'option') option(out, c as HTMLOptionElement, depth, dropdown);
    else if (tag === 'optgroup') {
      const a = readAttrs(c);
      const label = collapse((c as HTMLOptGroupElement).label, CAP);
      const group = out.node(idOf(c), depth, 'group', label, tag, c);
      if (isDisabled(c, tag, a)) group.states = ['disabled'];
      if (a.keep) group.attrs = a.keep;
      if (!out.push(group)) return;
      for (let o = c.firstElementChild; o && !out.truncated; o = o.nextElementSibling) {
        if (o.localName === 'option') option(out, o as HTMLOptionElement, depth + 1, dropdown);
      }
    }
  }
}
