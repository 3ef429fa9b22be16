/** Is an element rendered? checkVisibility() is fast; getComputedStyle only for elements without a box. */
import { computedStyle, elCheckVisibility, elGetAttribute } from './natives.js';

/** Rendered and visible. */
export const SHOWN = 0;
/** visibility:hidden: not itself visible, but its children may be (visibility:visible). */
export const INVISIBLE = 1;
/** display:none, content-visibility:hidden, unrendered: skip the subtree. */
export const GONE = 2;
/** display:contents: no box of its own, children render. */
export const CONTENTS = 3;

export type Visibility = typeof SHOWN | typeof INVISIBLE | typeof GONE | typeof CONTENTS;

const WITH_VISIBILITY: CheckVisibilityOptions = { visibilityProperty: true };

/** The visibility class of an element whose ancestors are rendered. */
export function visibilityOf(el: Element): Visibility {
  if (elCheckVisibility(el, WITH_VISIBILITY)) return SHOWN;
  if (elCheckVisibility(el)) return INVISIBLE;
  // No box: display:none, display:contents, or inside something unrendered.
  return computedStyle(el).display === 'contents' ? CONTENTS : GONE;
}

/** Hidden for the purpose of a name computation (accname step 2A). */
export function hiddenForName(el: Element): boolean {
  if (elGetAttribute(el, 'aria-hidden') === 'true') return true;
  const v = visibilityOf(el);
  return v === INVISIBLE || v === GONE;
}
