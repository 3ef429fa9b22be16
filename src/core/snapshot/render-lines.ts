/** Seed 001's line format: `  [textbox ref=e12 focused actions=click,fill] Search`. */
import type { SnapNode } from './snapshot.js';

const MAX_LABEL = 160;

function clip(s: string, n = MAX_LABEL): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The bracket and label of one node, without indentation. */
export function nodeLine(n: SnapNode): string {
  if (n.role === 'text' && !n.ref) return clip(n.name);
  // built by concatenation: this runs once per line of a snapshot, tens of thousands of times
  let head = n.role;
  if (n.ref) head += ` ref=${n.ref}`;
  if (n.level !== undefined) head += ` level=${n.level}`;
  for (const s of n.states) head += ` ${s}`;
  if (n.value !== undefined && n.value !== '') head += ` value=${JSON.stringify(clip(n.value, 80))}`;
  if (n.opaque) head += ` opaque=${JSON.stringify(n.opaque)}`;
  if (n.actions.length > 0) head += ` actions=${n.actions.join(',')}`;
  const label = n.name || n.text || '';
  const extra = n.name && n.text && n.text !== n.name ? ` — ${clip(n.text, 80)}` : '';
  return `[${head}]${label ? ` ${clip(label)}` : ''}${extra}`;
}

/** Indentation by depth, relative to the shallowest node shown. */
export function renderLines(nodes: SnapNode[], indexes: number[]): string[] {
  if (indexes.length === 0) return [];
  // depth compaction: indent by the number of shown ancestors, not by raw depth
  const out: string[] = [];
  const chain: number[] = []; // depths of shown ancestors
  for (const i of indexes) {
    const n = nodes[i]!;
    while (chain.length > 0 && chain[chain.length - 1]! >= n.depth) chain.pop();
    out.push(`${'  '.repeat(chain.length)}${nodeLine(n)}`);
    chain.push(n.depth);
  }
  return out;
}
