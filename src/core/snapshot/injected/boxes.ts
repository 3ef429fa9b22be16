/**
 * Boxes of the outline nodes, measured in one tight pass after the walk: interleaved with the
 * walk's other DOM reads, getBoundingClientRect (the walk's biggest cost, about 1.5 µs each) costs
 * ~20% more. Jobs are kept in pre-order, so a row is measured before the cells inferred from it.
 *
 * A node is in view when its box meets the viewport and the clip of its overflow ancestors (a row
 * scrolled out of a 150 px pane is not in view). Clips are cached per container for one pass and
 * computed only for boxes that meet the viewport, so a long page pays for its visible part only.
 */
import { SafeMap } from './collections.js';
import {
  computedStyle,
  docCreateRange,
  elRect,
  mathRound,
  rangeRect,
  rangeSetEndAfter,
  rangeSetStartBefore,
} from './natives.js';
import { noteScroller } from './mutations.js';
import type { Segment } from './outline-text.js';
import { composedParent } from './shadow.js';
import type { TableGeometry } from './table-boxes.js';
import type { WalkNode } from './types.js';

const mathMax = Math.max;
const mathMin = Math.min;

export class BoxJobs {
  private readonly node: WalkNode[] = [];
  private readonly el: (Element | null)[] = [];
  private readonly seg: (Segment | null)[] = [];
  private readonly table: (TableGeometry | null)[] = [];
  private readonly col: number[] = [];
  private readonly row: number[] = [];
  /** Unrounded y and height (a row's give its inferred cells theirs). */
  private readonly rawY: number[] = [];
  private readonly rawH: number[] = [];
  private range: Range | null = null;

  private readonly clips: ClipCache;

  constructor(
    private readonly vw: number,
    private readonly vh: number,
  ) {
    this.clips = new ClipCache(vw, vh);
  }

  /** Measure this node's box from an element or a text segment; returns the job number. */
  add(node: WalkNode, el: Element | null, seg: Segment | null): number {
    const i = this.node.length;
    this.node[i] = node;
    this.el[i] = el;
    this.seg[i] = seg;
    this.table[i] = null;
    this.col[i] = -1;
    this.row[i] = -1;
    return i;
  }

  /** The number of the last job added. */
  get last(): number {
    return this.node.length - 1;
  }

  /** Job `i` is a cell in column `col` whose row is job `row`: infer it once the column is known. */
  cell(i: number, table: TableGeometry, col: number, row: number): void {
    this.table[i] = table;
    this.col[i] = col;
    this.row[i] = row;
  }

  /** Set every node's box and inView. */
  fill(): void {
    const n = this.node.length;
    for (let i = 0; i < n; i++) {
      const seg = this.seg[i];
      if (seg) {
        this.setRect(i, this.textRect(seg));
        continue;
      }
      const table = this.table[i];
      const col = this.col[i]!;
      if (table && table.colW[col] !== undefined) {
        // a cell: its column's x and width, its row's y and height (table-boxes.ts)
        const row = this.row[i]!;
        this.setBox(i, table.colX[col]!, this.rawY[row]!, table.colW[col]!, this.rawH[row]!);
        continue;
      }
      const r = elRect(this.el[i]!);
      this.setRect(i, r);
      if (table) {
        table.colX[col] = r.x;
        table.colW[col] = r.width;
      }
    }
  }

  private setRect(i: number, r: DOMRect): void {
    this.setBox(i, r.x, r.y, r.width, r.height);
  }

  private setBox(i: number, x: number, y: number, w: number, h: number): void {
    const node = this.node[i]!;
    this.rawY[i] = y;
    this.rawH[i] = h;
    node.box = [mathRound(x), mathRound(y), mathRound(w), mathRound(h)];
    let inView = x < this.vw && y < this.vh && x + w > 0 && y + h > 0;
    if (inView) {
      const seg = this.seg[i];
      const el = this.el[i] ?? (seg ? composedParent(seg.first) : null);
      const c = el ? this.clips.clipFor(el) : null;
      if (c) inView = x < c.r && y < c.b && x + w > c.l && y + h > c.t;
    }
    node.inView = inView;
  }

  private textRect(seg: Segment): DOMRect {
    try {
      const range = (this.range ??= docCreateRange(document));
      rangeSetStartBefore(range, seg.first);
      rangeSetEndAfter(range, seg.last);
      return rangeRect(range);
    } catch {
      return new DOMRect();
    }
  }
}

/** A clip rectangle in viewport CSS px (left, top, right, bottom); may be empty (r <= l). */
export interface Clip {
  l: number;
  t: number;
  r: number;
  b: number;
}

/** What one element's style says about clipping (read once per element and pass). */
interface ClipStyle {
  position: string;
  /** Clips its descendants horizontally / vertically (overflow other than visible). */
  cx: boolean;
  cy: boolean;
}

/**
 * The clip that overflow ancestors put on an element's box, intersected with the viewport. A fixed
 * element escapes every ancestor; an absolutely positioned one escapes the ancestors between it
 * and its containing block (the nearest positioned ancestor). html and body clip nothing (their
 * overflow applies to the viewport). Transforms, clip-path and `contain` are not considered.
 * Cached per element for one pass: siblings in one pane share their ancestors' answers.
 */
export class ClipCache {
  private readonly styles = new SafeMap<Element, ClipStyle>();
  /** The clip on an element's own box. */
  private readonly own = new SafeMap<Element, Clip>();
  /** The clip an element puts on its descendants (its own clip and its padding box). */
  private readonly inner = new SafeMap<Element, Clip>();
  private readonly viewport: Clip;

  constructor(vw: number, vh: number) {
    this.viewport = { l: 0, t: 0, r: vw, b: vh };
  }

  private style(el: Element): ClipStyle {
    let s = this.styles.get(el);
    if (!s) {
      const cs = computedStyle(el);
      const display = cs.display;
      const box = display !== 'inline' && display !== 'contents';
      s = {
        position: cs.position,
        cx: box && cs.overflowX !== 'visible',
        cy: box && cs.overflowY !== 'visible',
      };
      if (s.cx || s.cy) noteScroller(el);
      this.styles.set(el, s);
    }
    return s;
  }

  /** The visible region for an element's box: viewport ∩ the clips of its overflow ancestors. */
  clipFor(el: Element): Clip {
    let c = this.own.get(el);
    if (c) return c;
    const position = this.style(el).position;
    if (position === 'fixed') {
      c = this.viewport;
    } else {
      let a = composedParent(el);
      if (position === 'absolute') {
        while (a && !isRoot(a) && this.style(a).position === 'static') a = composedParent(a);
      }
      c = a ? this.innerClip(a) : this.viewport;
    }
    this.own.set(el, c);
    return c;
  }

  /** The clip an element puts on its descendants. */
  private innerClip(a: Element): Clip {
    let c = this.inner.get(a);
    if (c) return c;
    if (isRoot(a)) {
      c = this.viewport;
    } else {
      const base = this.clipFor(a);
      const s = this.style(a);
      if (s.cx || s.cy) {
        const r = elRect(a);
        const l = r.left + a.clientLeft;
        const t = r.top + a.clientTop;
        c = {
          l: s.cx ? mathMax(base.l, l) : base.l,
          t: s.cy ? mathMax(base.t, t) : base.t,
          r: s.cx ? mathMin(base.r, l + (a.clientWidth || r.width)) : base.r,
          b: s.cy ? mathMin(base.b, t + (a.clientHeight || r.height)) : base.b,
        };
      } else {
        c = base;
      }
    }
    this.inner.set(a, c);
    return c;
  }
}

function isRoot(el: Element): boolean {
  const doc = el.ownerDocument;
  return el === doc.documentElement || el === doc.body;
}

/** The part of a box inside a clip, or null when nothing of it is. */
export function clipBox(
  x: number,
  y: number,
  w: number,
  h: number,
  c: Clip,
): { x: number; y: number; width: number; height: number } | null {
  const l = mathMax(x, c.l);
  const t = mathMax(y, c.t);
  const r = mathMin(x + w, c.r);
  const b = mathMin(y + h, c.b);
  return r > l && b > t ? { x: l, y: t, width: r - l, height: b - t } : null;
}
