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

/** Indentation by depth, relative to the shallowest node shown. */
export function renderLines(
  nodes: SnapNode[],
  indexes: number[],
  content?: ReadonlyMap<number, string>,
): string[] {
  if (indexes.length === 0) return [];
  // depth compaction: indent by the number of shown ancestors, not by raw depth
  const out: string[] = [];
  const chain: number[] = []; // depths of shown ancestors
  for (const i of indexes) {
    const n = nodes[i]!;
    while (chain.length > 0 && chain[chain.length - 1]! >= n.depth) chain.pop();
    out.push(`${'  '.repeat(chain.length)}${nodeLine(n, content?.get(i))}`);
    chain.push(n.depth);
  }
  return out;
}
