/**
 * Boxes of the outline nodes, measured in one tight pass after the walk: interleaved with the
 * walk's other DOM reads, getBoundingClientRect (the walk's biggest cost, about 1.5 µs each) costs
 * ~20% more. Jobs are kept in pre-order, so a row is measured before the cells inferred from it.
 */
import {
  docCreateRange,
  elRect,
  mathRound,
  rangeRect,
  rangeSetEndAfter,
  rangeSetStartBefore,
} from './natives.js';
import type { Segment } from './outline-text.js';
import type { TableGeometry } from './table-boxes.js';
import type { WalkNode } from './types.js';

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

  constructor(
    private readonly vw: number,
    private readonly vh: number,
  ) {}

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
    node.inView = x < this.vw && y < this.vh && x + w > 0 && y + h > 0;
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
