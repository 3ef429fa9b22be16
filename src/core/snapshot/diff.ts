/** What changed between two outlines of one page: added, removed and changed lines. */
import { nodeLine } from './render-lines.js';
import type { SnapNode } from './snapshot.js';

export interface OutlineDiff {
  added: string[];
  removed: string[];
  changed: string[];
  /** More lines changed than the limit allowed to show. */
  truncated: boolean;
}

const keyOf = (n: SnapNode): string => n.ref ?? `text:${n.role}:${n.name}`;

/** Focus moves on every click and fill; it is not a change worth a line. */
const lineOf = (n: SnapNode): string =>
  nodeLine(n.states.includes('focused') ? { ...n, states: n.states.filter((s) => s !== 'focused') } : n);

/** Compare by ref (text nodes by content); `limit` caps the lines of each kind. */
export function diffOutlines(before: SnapNode[], after: SnapNode[], limit = 50): OutlineDiff {
  const old = new Map<string, string[]>();
  for (const n of before) {
    const k = keyOf(n);
    const list = old.get(k);
    if (list) list.push(lineOf(n));
    else old.set(k, [lineOf(n)]);
  }
  const diff: OutlineDiff = { added: [], removed: [], changed: [], truncated: false };
  const push = (list: string[], line: string) => {
    if (list.length < limit) list.push(line);
    else diff.truncated = true;
  };
  for (const n of after) {
    const k = keyOf(n);
    const line = lineOf(n);
    const prev = old.get(k);
    if (!prev || prev.length === 0) {
      push(diff.added, line);
      continue;
    }
    const same = prev.indexOf(line);
    if (same >= 0) prev.splice(same, 1);
    else if (n.ref) push(diff.changed, `${line} (was: ${prev.shift()})`);
    else push(diff.added, line);
  }
  for (const rest of old.values()) for (const line of rest) push(diff.removed, line);
  return diff;
}

export const isEmptyDiff = (d: OutlineDiff): boolean =>
  d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;

/** `Changes:` then `- Added:` / `- Removed:` / `- Changed:` lines, or `Changes: none observed`. */
export function renderDiff(d: OutlineDiff): string {
  if (isEmptyDiff(d)) return 'Changes: none observed';
  const lines = ['Changes:'];
  for (const l of d.added) lines.push(`- Added: ${l}`);
  for (const l of d.removed) lines.push(`- Removed: ${l}`);
  for (const l of d.changed) lines.push(`- Changed: ${l}`);
  if (d.truncated) lines.push('- (more changes not shown; take a full snapshot)');
  return lines.join('\n');
}
