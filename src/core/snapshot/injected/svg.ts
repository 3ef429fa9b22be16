/**
 * The interactive parts of an inline <svg>: shapes, links and groups with a click signal (onclick,
 * a click-like listener, their own cursor:pointer, a tabindex, an explicit role, or an <a>) become
 * outline nodes with refs under the svg's own line; the rest of the drawing stays folded into it.
 * They are named from aria-labelledby / aria-label, a child <title>, or their <text>; an unnamed one
 * is described by its fill colour (`fill #4e79a7`), which is often all that tells chart series apart.
 */
import { namePrefix } from './accname.js';
import { readAttrs, type Attrs } from './attrs.js';
import { idOf } from './ids.js';
import { computedStyle, mathRound, strIndexOf, table } from './natives.js';
import { QUIET, RANGE_ROLE, explicitRole, implicitRole, roleFlags } from './roles.js';
import type { Emitter } from './select-options.js';
import { CAP, collapse, hasText } from './text.js';
import { GONE, visibilityOf } from './visibility.js';
import {
  actionsOf,
  dragSignal,
  hasPointerSignal,
  isDragCursor,
  rangeOf,
  statesOf,
  valueOf,
} from './widget.js';

/** What the walker lends: an emitter, and the computed cursor through its per-walk cache. */
export interface SvgEmitter extends Emitter {
  cursorOf(el: Element, tag: string, a: Attrs, parentCursor: string): string;
}

/** Never drawn where they stand, or not drawing at all: not looked into. */
const NOT_DRAWN = table<true>({
  title: true,
  desc: true,
  defs: true,
  clipPath: true,
  mask: true,
  linearGradient: true,
  radialGradient: true,
  pattern: true,
  symbol: true,
  marker: true,
  filter: true,
  style: true,
  script: true,
  metadata: true,
  foreignObject: true,
});

/** Elements looked at per svg, at most: a chart of thousands of points costs a bounded walk. */
const MAX_VISITED = 4000;

interface SvgWalk {
  out: SvgEmitter;
  visited: number;
}

/** Emit the interactive descendants of `svg` (its line already emitted) from `depth` on. */
export function emitSvgParts(out: SvgEmitter, svg: Element, depth: number, svgCursor: string): void {
  if (!svg.firstElementChild) return;
  visit({ out, visited: 0 }, svg, depth, svgCursor);
}

function visit(w: SvgWalk, parent: Element, depth: number, parentCursor: string): void {
  for (let c = parent.firstElementChild; c && !w.out.truncated; c = c.nextElementSibling) {
    if (++w.visited > MAX_VISITED) return;
    const tag = c.localName;
    if (NOT_DRAWN[tag] === true) continue;
    const a = readAttrs(c);
    if (a.hidden) continue;
    const cursor = w.out.cursorOf(c, tag, a, parentCursor);
    const ownCursor = cursor !== parentCursor ? cursor : '';
    const explicit = explicitRole(c, a);
    const roled =
      explicit !== null && explicit !== 'none' && explicit !== 'presentation' && explicit !== 'generic';
    const pointer = hasPointerSignal(c, a);
    const interactive =
      pointer ||
      roled ||
      ownCursor === 'pointer' ||
      isDragCursor(ownCursor) ||
      (tag === 'a' && a.href) ||
      (a.tabindex !== null && (c as HTMLElement).tabIndex >= 0);
    let childDepth = depth;
    if (interactive) {
      if (visibilityOf(c) === GONE) continue;
      const raw = explicit ?? implicitRole(c, tag, a);
      const role =
        raw === 'none' || raw === 'presentation' || (roleFlags(raw) & QUIET && !explicit) ? 'generic' : raw;
      const rf = roleFlags(role);
      const name = namePrefix(c, tag, a, role) || titleOf(c) || collapse(drawnText(c, ''), CAP);
      const node = w.out.node(idOf(c), depth, role, name, tag, c);
      const clickState = role === 'generic' && (pointer || ownCursor === 'pointer');
      node.states = statesOf(c, tag, role, a, w.out.focused, false, rf, clickState);
      node.actions = actionsOf(
        c,
        tag,
        role,
        a,
        true,
        false,
        false,
        false,
        rf,
        dragSignal(c, tag, role, a, 0, ownCursor),
      );
      if (a.keep) node.attrs = a.keep;
      // a thumb drawn in SVG (role slider, spinbutton…): its value and range, as for any element
      if (rf & RANGE_ROLE) {
        const value = valueOf(c, tag, role, a, rf);
        if (value !== undefined) node.value = value;
        const range = rangeOf(c, tag, role, a, rf);
        if (range !== null) {
          if (range[0] !== undefined) node.valueMin = range[0];
          if (range[1] !== undefined) node.valueMax = range[1];
        }
      }
      if (role === 'generic') node.clickable = true;
      if (!name) node.description = paintOf(c);
      if (!w.out.push(node)) return;
      childDepth = depth + 1;
    }
    if (c.firstElementChild) visit(w, c, childDepth, cursor);
  }
}

/** The text of a child <title> (SVG's own tooltip and name source). */
function titleOf(el: Element): string {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling)
    if (c.localName === 'title') return collapse(c.textContent ?? '', CAP);
  return '';
}

/** The text an element draws: its <text>/<tspan> content (not titles or descriptions). */
function drawnText(el: Element, acc: string): string {
  if (acc.length >= CAP) return acc;
  if (el.localName === 'text') {
    const t = el.textContent ?? '';
    return hasText(t) ? (acc ? acc + ' ' + t : t) : acc;
  }
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (NOT_DRAWN[c.localName] !== true) acc = drawnText(c, acc);
  }
  return acc;
}

/** `fill #rrggbb` (or the stroke when there is no fill): how an unnamed shape is told apart. */
function paintOf(el: Element): string {
  const cs = computedStyle(el);
  const fill = cs.fill;
  if (fill && fill !== 'none') return 'fill ' + hexColour(fill);
  const stroke = cs.stroke;
  if (stroke && stroke !== 'none') return 'stroke ' + hexColour(stroke);
  return '';
}

/** rgb(78, 121, 167) → #4e79a7; anything else (url(#g), a keyword) as it is. Regex-free. */
export function hexColour(c: string): string {
  const open = strIndexOf(c, '(');
  if (open < 0 || c[0] !== 'r') return c;
  let out = '#';
  let n = 0;
  let cur = '';
  let alpha = 1;
  for (let i = open + 1; i <= c.length; i++) {
    const ch = i < c.length ? c[i]! : ')';
    if ((ch >= '0' && ch <= '9') || ch === '.') {
      cur += ch;
      continue;
    }
    if (cur) {
      const v = +cur;
      if (n < 3) {
        const b = mathRound(v < 0 ? 0 : v > 255 ? 255 : v);
        out += (b < 16 ? '0' : '') + b.toString(16);
      } else alpha = v;
      n++;
      cur = '';
    }
    if (ch === ')') break;
  }
  if (n < 3) return c;
  return alpha < 1 ? out + ' ' + mathRound(alpha * 100) + '%' : out;
}
