/**
 * browser_find {visible_only: false}: the elements the walk skips because they are not rendered
 * (display:none, the hidden attribute, visibility:hidden, a closed <details>), matched by role,
 * name or text the way browser_find matches the walk's nodes. Ids come from the same registry as
 * the walk's, so the caller gives them refs like any other.
 */
import { describeElement } from './describe.js';
import { readAttrs } from './attrs.js';
import { idOf } from './ids.js';
import { composedChildrenOf } from './shadow.js';
import { SKIP, tagFlags } from './tags.js';
import { collapse } from './text.js';
import type { HiddenMatch, HiddenQuery } from './types.js';
import { GONE, INVISIBLE, visibilityOf } from './visibility.js';

/** The most elements looked at (a guard for enormous documents). */
const MAX_ELEMENTS = 200_000;

export function findHidden(q: HiddenQuery): { matches: HiddenMatch[]; total: number } {
  const role = q.role?.toLowerCase();
  const name = q.name?.toLowerCase();
  const text = q.text?.toLowerCase();
  const found: { el: Element; m: HiddenMatch }[] = [];
  let seen = 0;
  /** goneAbove: inside a subtree that is not rendered at all (then so is everything in it). */
  const visit = (el: Element, goneAbove: boolean): void => {
    if (++seen > MAX_ELEMENTS) return;
    const tag = el.localName;
    if (tagFlags(tag) & SKIP) return;
    // visibility:hidden hides an element but not a visibility:visible child (visibilityOf: SHOWN)
    const vis = goneAbove || readAttrs(el).hidden ? GONE : visibilityOf(el);
    const hidden = vis === GONE || vis === INVISIBLE;
    if (hidden && tag !== 'body' && tag !== 'html') {
      const d = describeElement(el, true);
      const own = collapse(el.textContent ?? '', 200);
      const ok =
        (!role || d.role.toLowerCase() === role) &&
        (!name || d.name.toLowerCase().includes(name)) &&
        (!text || `${d.name} ${own} ${d.value ?? ''}`.toLowerCase().includes(text));
      if (ok) {
        const m: HiddenMatch = {
          id: idOf(el),
          role: d.role,
          name: d.name,
          text: own === d.name ? '' : own,
          states: [...d.states.filter((s) => s !== 'hidden'), 'hidden'],
          actions: d.actions,
        };
        if (d.value !== undefined) m.value = d.value;
        if (d.description) m.description = d.description;
        found.push({ el, m });
      }
    }
    const kids = composedChildrenOf(el);
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i]!;
      if (k.nodeType === 1) visit(k as Element, vis === GONE);
    }
  };
  if (document.documentElement) visit(document.documentElement, false);
  // a generic wrapper whose text matched because a match inside it has that text: keep the inner one
  const kept = found.filter(
    ({ el, m }) => m.role !== 'generic' || !found.some((o) => o.el !== el && el.contains(o.el)),
  );
  return { matches: kept.slice(0, q.limit).map((x) => x.m), total: kept.length };
}
