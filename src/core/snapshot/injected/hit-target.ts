/** Does a point in the viewport land on an element (or a descendant, or a label for it)? */
import { readAttrs } from './attrs.js';
import { ClipCache, clipBox } from './boxes.js';
import { coverOf } from './describe.js';
import { elementOf } from './ids.js';
import {
  computedStyle,
  docElementFromPoint,
  elCheckVisibility,
  elGetAttribute,
  elRect,
  regexTest,
  shadowElementFromPoint,
  strIndexOf,
} from './natives.js';
import { collapse } from './text.js';
import { composedParent, shadowRootOf } from './shadow.js';
import type { HitResult, VisibleBox } from './types.js';
import { hasPointerSignal } from './widget.js';

/** The topmost element at a point, through open and known closed shadow roots. */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = docElementFromPoint(document, x, y);
  for (let i = 0; hit && i < 32; i++) {
    const root = shadowRootOf(hit);
    if (!root) break;
    const inner = shadowElementFromPoint(root, x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** ok when the topmost element at (x, y) is the element, a composed descendant, or a label of it. */
export function hitTarget(id: number, x: number, y: number): HitResult {
  const el = elementOf(id);
  if (!el) return { ok: false };
  const hit = deepElementFromPoint(x, y);
  if (!hit) return { ok: false };
  for (let n: Element | null = hit, i = 0; n && i < 256; n = composedParent(n), i++) {
    if (n === el) return { ok: true };
    if (n.localName === 'label' && (n as HTMLLabelElement).control === el) return { ok: true };
  }
  return { ok: false, cover: coverOf(hit) };
}

/**
 * An element's box and the part of it that is visible: inside the viewport and the clip of every
 * overflow ancestor (a scrolled pane). visible is null when nothing of it shows.
 */
export function visibleBox(id: number): VisibleBox | null {
  const el = elementOf(id);
  if (!el) return null;
  const { r, clip, visible } = visiblePart(el);
  return {
    box: { x: r.x, y: r.y, width: r.width, height: r.height },
    visible,
    centreVisible:
      !!visible &&
      r.x + r.width / 2 >= clip.l &&
      r.x + r.width / 2 <= clip.r &&
      r.y + r.height / 2 >= clip.t &&
      r.y + r.height / 2 <= clip.b,
  };
}

/** Elements the browser itself acts on when clicked anywhere in their box. */
const NATIVE_CLICK = /^(a|area|button|input|select|textarea|summary|label|option|details|video|audio)$/;
/** How many descendants aimPoint looks at before giving up. */
const AIM_LOOK = 200;

/**
 * Where a click on the element should land when the centre of its box is its own empty space and
 * what reacts is a part of it: a tree item whose label listens, not the full-width row around it (a
 * person clicks the label). Null when the centre is fine: it lands on content, the element listens
 * itself, or it is a native control. The part is the first visible descendant with a click listener
 * (or a pointer cursor the element lacks) that is not inside another control or roled element, and
 * whose words begin the element's: its label, never an icon beside it (a row's × that deletes).
 */
export function aimPoint(id: number, x: number, y: number): [number, number] | null {
  const el = elementOf(id);
  if (!el || regexTest(NATIVE_CLICK, el.localName)) return null;
  if (deepElementFromPoint(x, y) !== el || hasPointerSignal(el, readAttrs(el))) return null;
  const part = reactingPart(el);
  if (!part) return null;
  const { visible } = visiblePart(part);
  return visible ? [visible.x + visible.width / 2, visible.y + visible.height / 2] : null;
}

/** An element's box, the clip of the viewport and its overflow ancestors, and the part inside it. */
function visiblePart(el: Element) {
  const r = elRect(el);
  const clip = new ClipCache(innerWidth, innerHeight).clipFor(el);
  return { r, clip, visible: clipBox(r.x, r.y, r.width, r.height, clip) };
}

function reactingPart(el: Element): Element | null {
  const pointer = computedStyle(el).cursor === 'pointer';
  const words = collapse(el.textContent ?? '');
  const stack: Element[] = [];
  for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack[stack.length] = c;
  for (let looked = 0; stack.length > 0 && looked < AIM_LOOK; looked++) {
    const c = stack.pop()!;
    // another control, or an element with a role of its own (a nested item, a group): not this one's
    if (regexTest(NATIVE_CLICK, c.localName) || elGetAttribute(c, 'role') !== null) continue;
    if (!elCheckVisibility(c)) continue;
    if (hasPointerSignal(c, readAttrs(c)) || (!pointer && computedStyle(c).cursor === 'pointer')) {
      const own = collapse(c.textContent ?? '');
      if (own && strIndexOf(words, own) === 0) return c;
      continue; // an icon or a control of its own: not what a click on the element means
    }
    for (let k = c.lastElementChild; k; k = k.previousElementSibling) stack[stack.length] = k;
  }
  return null;
}
