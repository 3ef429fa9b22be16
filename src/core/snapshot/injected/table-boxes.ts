/**
 * Boxes of table cells without measuring each one. getBoundingClientRect costs about 1.5 µs per
 * element and big tables are mostly cells. In a table laid out normally every cell of a column has
 * the column's x and width and every cell of a row has the row's y and height, so the walker
 * measures every row and one cell per column and infers the other cells' boxes. Only where that
 * identity holds: no colspan in the row so far, no rowspan anywhere before, every earlier cell of
 * the row rendered, and row and cell in normal table flow (display table-row / table-cell,
 * position static, no transform, horizontal writing). The style check is made once per look-alike
 * (table, section, row class, cell tag, class and id) and per table; a rule that singles out one
 * row by :hover, :nth-child or another attribute could slip through.
 */
import type { Attrs } from './attrs.js';
import { SafeMap } from './collections.js';
import { computedStyle } from './natives.js';

/** What the walker knows about the columns of one table. */
export class TableGeometry {
  readonly colX: number[] = [];
  readonly colW: number[] = [];
  /** A rowspan was seen: columns of later rows no longer follow cell order. */
  spans = false;
  private readonly safe = new SafeMap<string, boolean>();

  /** Whether elements like `el` (same key) are laid out in normal table flow. */
  inFlow(el: Element, key: string, display: string): boolean {
    let ok = this.safe.get(key);
    if (ok === undefined) {
      const cs = computedStyle(el);
      ok =
        cs.display === display &&
        cs.position === 'static' &&
        cs.transform === 'none' &&
        cs.writingMode === 'horizontal-tb';
      this.safe.set(key, ok);
    }
    return ok;
  }
}

/** The row whose cells are being walked. */
export class RowCells {
  /** Column of the next cell. */
  col = 0;
  /** The last child of the row emitted as a cell (a child that is not one ends inference). */
  lastCell: Element | null = null;
  /** Whether cells without class or id are in flow, once known. */
  plainTd: boolean | undefined = undefined;
  plainTh: boolean | undefined = undefined;
  constructor(
    readonly el: Element,
    /** The box job of the row (its measured box gives the cells' y and height). */
    readonly job: number,
    readonly table: TableGeometry,
    /** Cells may still be inferred (false after a colspan or a cell that is not rendered). */
    public valid: boolean,
    /** Style key of the row, prefix of its cells' keys. */
    readonly key: string,
  ) {}
}

function styleKey(tag: string, a: Attrs): string {
  return tag + ' ' + (a.cls ?? '') + ' ' + (a.keep?.id ?? '');
}

/** The row state for a <tr> about to be walked, or null when its cells must all be measured. */
export function rowCells(
  table: TableGeometry | null,
  el: Element,
  a: Attrs,
  job: number,
  section: string,
): RowCells | null {
  if (!table || table.spans || a.style) return null;
  const key = section + ' ' + styleKey('tr', a);
  return table.inFlow(el, key, 'table-row') ? new RowCells(el, job, table, true, key) : null;
}

/**
 * A cell of `row`: its column (for inference) or -1 to measure it. Also records what it means for
 * the rest of the table (colspan ends inference in this row, rowspan in later rows).
 */
export function cellColumn(row: RowCells, el: Element, tag: string, a: Attrs): number {
  if (a.rowspan) row.table.spans = true;
  if (!row.valid) return -1;
  const col = row.col++;
  // a tall cell is not its row's height (measured, but the row's later cells are still in step)
  if (a.rowspan) return -1;
  if (a.colspan) {
    row.valid = false;
    return -1;
  }
  if (a.style) return -1;
  // plain cells (no class or id) of a row share one answer without building a key
  if (a.cls === null && !a.keep?.id) {
    let ok = tag === 'td' ? row.plainTd : row.plainTh;
    if (ok === undefined) {
      ok = row.table.inFlow(el, row.key + '|' + tag, 'table-cell');
      if (tag === 'td') row.plainTd = ok;
      else row.plainTh = ok;
    }
    return ok ? col : -1;
  }
  return row.table.inFlow(el, row.key + '|' + styleKey(tag, a), 'table-cell') ? col : -1;
}
