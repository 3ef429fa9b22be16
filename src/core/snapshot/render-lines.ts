/** Seed 001's line format: `  [textbox ref=e12 focused actions=click,fill] Search`. */
import type { SnapNode } from './snapshot.js';

const MAX_LABEL = 160;
/** Longest value a line shows whole; a longer one is cut and its length given (value_length). */
const MAX_VALUE = 80;

function clip(s: string, n = MAX_LABEL): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/**
 * `value="…"` for a line: the data record carries the whole value; past 80 chars the line shows the
 * start and says how long the whole is (`value_length=N`).
 */
export function valueText(v: string): string {
  return v.length > MAX_VALUE
    ? `value=${JSON.stringify(`${v.slice(0, MAX_VALUE - 1)}…`)} value_length=${v.length}`
    : `value=${JSON.stringify(v)}`;
}

/**
 * The bracket and label of one node, without indentation. `content`: words of descendants the scope
 * hides, the label of a node that has no name or text of its own.
 */
export function nodeLine(n: SnapNode, content?: string): string {
  if (n.role === 'text' && !n.ref) return clip(n.name);
  // built by concatenation: this runs once per line of a snapshot, tens of thousands of times
  let head = n.role;
  if (n.ref) head += ` ref=${n.ref}`;
  if (n.level !== undefined) head += ` level=${n.level}`;
  for (const s of n.states) head += ` ${s}`;
  if (n.value !== undefined && n.value !== '') head += ` ${valueText(n.value)}`;
  if (n.valueMin !== undefined) head += ` min=${n.valueMin}`;
  if (n.valueMax !== undefined) head += ` max=${n.valueMax}`;
  if (n.opaque) head += ` opaque=${JSON.stringify(n.opaque)}`;
  if (n.actions.length > 0) head += ` actions=${n.actions.join(',')}`;
  const label = n.name || n.text || content || '';
  let extra = n.name && n.text && n.text !== n.name ? ` — ${clip(n.text, 80)}` : '';
  // a description tells apart what has no name (an SVG bar by its fill colour)
  if (!n.name && n.description) extra += ` — ${clip(n.description, 80)}`;
  return `[${head}]${label ? ` ${clip(label)}` : ''}${extra}`;
}

/**
 * The one walk every form of a listing shares (seed 001's lines, seed 002's outline, the data
 * form's tree): the nodes at `indexes`, in the order given, each with how many shown ancestors it
 * has (its indentation: depth compaction, not raw depth) and what `visit` made of the nearest one.
 * `visit` returns what stands for the node, or null to skip it: a skipped node's children are
 * promoted to its parent. Nesting is read from depths in document order, so `indexes` ascend (a
 * shown node's ancestors are the shown nodes before it that no node in between has closed).
 */
export function walkShown<T>(
  nodes: readonly SnapNode[],
  indexes: Iterable<number>,
  visit: (n: SnapNode, i: number, level: number, parent: T | undefined) => T | null,
): void {
  // two parallel stacks, not an object per level: this runs once per node of a listing
  const depths: number[] = [];
  const made: T[] = [];
  let prev = -1;
  for (const i of indexes) {
    const n = nodes[i]!;
    // a node left out between two shown ones closes every branch at or below its depth: without
    // this, a button after a heading's section would nest under the heading
    let closes = n.depth;
    if (i > prev) for (let k = prev + 1; k < i; k++) closes = Math.min(closes, nodes[k]!.depth);
    prev = i;
    while (depths.length > 0 && depths[depths.length - 1]! >= closes) {
      depths.pop();
      made.pop();
    }
    const v = visit(n, i, depths.length, made[made.length - 1]);
    if (v === null) continue;
    depths.push(n.depth);
    made.push(v);
  }
}

/** Seed 001's lines for the nodes at `indexes`, indented by shown ancestors. */
export function renderLines(
  nodes: SnapNode[],
  indexes: number[],
  content?: ReadonlyMap<number, string>,
): string[] {
  const out: string[] = [];
  walkShown<true>(nodes, indexes, (n, i, level) => {
    out.push(`${'  '.repeat(level)}${nodeLine(n, content?.get(i))}`);
    return true;
  });
  return out;
}
