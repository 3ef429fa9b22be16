/** Does a point in the viewport land on an element (or a descendant, or a label for it)? */
import { ClipCache, clipBox } from './boxes.js';
import { coverOf } from './describe.js';
import { elementOf } from './ids.js';
import { docElementFromPoint, elRect, shadowElementFromPoint } from './natives.js';
import { composedParent, shadowRootOf } from './shadow.js';
import type { HitResult, VisibleBox } from './types.js';

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
  const r = elRect(el);
  const clip = new ClipCache(innerWidth, innerHeight).clipFor(el);
  const visible = clipBox(r.x, r.y, r.width, r.height, clip);
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
