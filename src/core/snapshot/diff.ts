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

/** Same list, ignoring `focused` (as lineOf does). */
function sameStates(a: string[], b: string[]): boolean {
  if (a === b) return true;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && a[i] === 'focused') i++;
    while (j < b.length && b[j] === 'focused') j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a[i] !== b[j]) return false;
    i++;
    j++;
  }
}

function sameList(a: string[], b: string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether two nodes render the same line, without rendering either: equal fields give equal lines
 * (the converse may fail, e.g. names that differ past the clip, so callers fall back to lineOf).
 */
const sameFields = (a: SnapNode, b: SnapNode): boolean =>
  a.role === b.role &&
  a.name === b.name &&
  a.ref === b.ref &&
  a.text === b.text &&
  a.value === b.value &&
  a.valueMin === b.valueMin &&
  a.valueMax === b.valueMax &&
  a.description === b.description &&
  a.level === b.level &&
  a.opaque === b.opaque &&
  sameList(a.actions, b.actions) &&
  sameStates(a.states, b.states);

/**
 * Compare by ref (text nodes by content); `limit` caps the lines of each kind. Lines are rendered
 * only for nodes that differ: on a large page almost every node is unchanged.
 */
export function diffOutlines(before: SnapNode[], after: SnapNode[], limit = 50): OutlineDiff {
  // Walks built on a held walk share its node objects where nothing changed (spliceWalk): the same
  // object at both ends is the same line, so only the part between needs comparing. Lines pair by
  // ref (one per element) or by content (equal lines are interchangeable), so leaving the shared
  // ends out changes no line of the answer.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > head && endAfter > head && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  if (head > 0 || endBefore < before.length) {
    before = before.slice(head, endBefore);
    after = after.slice(head, endAfter);
  }
  const old = new Map<string, SnapNode[]>();
  for (const n of before) {
    const k = keyOf(n);
    const list = old.get(k);
    if (list) list.push(n);
    else old.set(k, [n]);
  }
  const diff: OutlineDiff = { added: [], removed: [], changed: [], truncated: false };
  const push = (list: string[], line: string) => {
    if (list.length < limit) list.push(line);
    else diff.truncated = true;
  };
  for (const n of after) {
    const prev = old.get(keyOf(n));
    if (!prev || prev.length === 0) {
      push(diff.added, lineOf(n));
      continue;
    }
    let same = -1;
    let line: string | null = null;
    for (let j = 0; j < prev.length && same < 0; j++) {
      const p = prev[j]!;
      // a value that changed past what the line shows is still a change
      if (sameFields(p, n) || (p.value === n.value && lineOf(p) === (line ??= lineOf(n)))) same = j;
    }
    // shift() on the first entry is cheap even for the thousands of equal text lines of a table
    if (same === 0) prev.shift();
    else if (same > 0) prev.splice(same, 1);
    else if (n.ref) {
      const was = prev.shift()!;
      const now = line ?? lineOf(n);
      const before = lineOf(was);
      push(
        diff.changed,
        now === before
          ? `${now} (${valueChange(was.value ?? '', n.value ?? '')})`
          : `${now} (was: ${before})`,
      );
    } else push(diff.added, line ?? lineOf(n));
  }
  for (const rest of old.values()) for (const n of rest) push(diff.removed, lineOf(n));
  return diff;
}

/** Where two long values part, for a line that shows only their equal start. */
function valueChange(before: string, after: string): string {
  let i = 0;
  while (i < before.length && i < after.length && before[i] === after[i]) i++;
  const from = Math.max(0, i - 10);
  const cut = (v: string) =>
    `${from > 0 ? '…' : ''}${v.slice(from, from + 60)}${v.length > from + 60 ? '…' : ''}`;
  return `value changed from char ${i + 1}: ${JSON.stringify(cut(after))}, was ${JSON.stringify(cut(before))}`;
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
