/**
 * Seed 002's outline of the snapshot tree: one `- role "name"[ = value] [ref=eN]` line per node,
 * two spaces per level (nested by walkShown, like every listing form). Unnamed wrappers are
 * skipped and their children promoted; `diff` compares lines with refs stripped against the
 * previous outline of the page.
 */
import { slot } from '../state-bag.js';
import type { BrowPage } from '../session/page.js';
import { listingSlot } from './list-elements.js';
import { walkShown } from './render-lines.js';
import { limitDepth, selectScope, type Scope } from './scope.js';
import { takeSnapshot, type SnapNode } from './snapshot.js';

/** Names and values are cut at this many characters (seed 002). */
const MAX_TEXT = 120;

/** Roles that say nothing without a name: skipped, children promoted, unless they can be acted on. */
const QUIET_ROLES = new Set(['none', 'generic', 'paragraph', 'StaticText', 'InlineTextBox', 'LineBreak']);

const ACTING = new Set(['click', 'fill', 'type', 'press', 'select', 'check', 'upload', 'drag']);

export interface OutlineDiff {
  /** Lines now present that were not before (with their refs). */
  added: string[];
  /** Lines gone since the previous outline (with their old refs). */
  removed: string[];
  /** How many lines are the same, refs aside. */
  unchanged: number;
}

export interface OutlineResult {
  url: string;
  title: string;
  /** The outline text ('' when a diff was asked for: see `diff`). */
  tree: string;
  truncated: boolean;
  /** The page's document generation: bumped by every cross-document navigation. */
  generation: number;
  /** Lines in the whole outline, and how many are in `tree`. */
  line_count: number;
  shown_count: number;
  diff?: OutlineDiff;
}

export interface OutlineOptions {
  scope: Exclude<Scope, 'changes'>;
  /** Root of the subtree for scope "subtree". */
  ref?: string;
  /** Compare with the previous outline of this page instead of returning the tree. */
  diff: boolean;
  max_chars: number;
  /** Only lines at most this many levels deep (0 = the top level). */
  depth?: number;
}

const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);
const quote = (s: string): string => JSON.stringify(clip(s));

/** One node's line without indentation, or null when the node is skipped (children promoted). */
export function outlineLine(n: SnapNode): string | null {
  const label = n.name || (n.role === 'text' ? '' : (n.text ?? ''));
  const acts = n.actions.some((a) => ACTING.has(a));
  if (!label && n.value === undefined && !n.opaque && !acts && (QUIET_ROLES.has(n.role) || n.role === 'text'))
    return null;
  let line = `- ${n.role}`;
  if (label) line += ` ${quote(label)}`;
  if (n.value !== undefined && n.value !== '') line += ` = ${quote(n.value)}`;
  if (n.level !== undefined) line += ` [level=${n.level}]`;
  if (n.valueMin !== undefined) line += ` [valuemin=${n.valueMin}]`;
  if (n.valueMax !== undefined) line += ` [valuemax=${n.valueMax}]`;
  for (const s of n.states) line += ` [${s}]`;
  // what tells apart a node without a name (an SVG bar by its fill colour)
  if (!label && n.description) line += ` [description=${quote(n.description)}]`;
  if (n.opaque) line += ` [opaque=${quote(n.opaque)}]`;
  if (n.ref) line += ` [ref=${n.ref}]`;
  return line;
}

/** Render the nodes at `indexes` (all by default), indented by the number of shown ancestors. */
export function renderOutline(nodes: SnapNode[], indexes?: number[]): string[] {
  const out: string[] = [];
  walkShown<true>(nodes, indexes ?? nodes.keys(), (n, _i, level) => {
    const line = outlineLine(n);
    if (line === null) return null;
    out.push(`${'  '.repeat(level)}${line}`);
    return true;
  });
  return out;
}

/** A line with its ref removed, for comparing outlines across snapshots. */
export const stripRef = (line: string): string => line.replace(/ \[ref=[a-z]\d+\]$/, '');

/** Multiset difference of two outlines, refs aside; `limit` caps each list. */
export function diffOutline(before: string[], after: string[], limit = 200): OutlineDiff {
  const old = new Map<string, string[]>();
  for (const line of before) {
    const key = stripRef(line);
    const list = old.get(key);
    if (list) list.push(line);
    else old.set(key, [line]);
  }
  const added: string[] = [];
  let unchanged = 0;
  for (const line of after) {
    const list = old.get(stripRef(line));
    if (list && list.length > 0) {
      list.shift();
      unchanged += 1;
    } else if (added.length < limit) added.push(line);
  }
  const removed = [...old.values()].flat().slice(0, limit);
  return { added, removed, unchanged };
}

/** The previous whole-page outline of a page, for `diff` (owned by the page: see state-bag.ts). */
const previousOutline = slot<{ lines: string[] | null }>('previous-outline', () => ({ lines: null }));

/** Cut lines to the budget, in tree order, with seed 002's truncation line. */
function budget(lines: string[], maxChars: number): { text: string; shown: number } {
  let used = 0;
  let shown = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars && shown > 0) break;
    used += line.length + 1;
    shown += 1;
  }
  const body = lines.slice(0, shown);
  if (shown < lines.length) {
    body.push(
      `… [snapshot truncated: ${lines.length - shown} more lines; read a subtree (ref) or raise max_chars]`,
    );
  }
  return { text: body.join('\n'), shown };
}

/** Snapshot a page and render it as seed 002's outline (or its diff against the previous one). */
export async function outlineSnapshot(page: BrowPage, opts: OutlineOptions): Promise<OutlineResult> {
  const subtree = opts.scope === 'subtree' && opts.ref ? opts.ref : undefined;
  const maxNodes = page.session.config.max_snapshot_nodes;
  const snap = await takeSnapshot(page, {
    ...(subtree ? { rootRef: subtree } : {}),
    ...(maxNodes !== undefined ? { maxNodes } : {}),
  });
  const scoped = selectScope(snap.nodes, opts.scope);
  const lines = renderOutline(
    snap.nodes,
    opts.depth === undefined ? scoped : limitDepth(snap.nodes, scoped, opts.depth),
  );
  const whole = !subtree && opts.scope === 'full' && opts.depth === undefined;
  if (!subtree) page.state.get(listingSlot).lastListed = snap;
  const memory = page.state.get(previousOutline);
  const before = memory.lines ?? undefined;
  if (whole) memory.lines = lines;
  const base = {
    url: snap.url,
    title: snap.title,
    generation: snap.documentGeneration,
    line_count: lines.length,
  };
  if (opts.diff) {
    const diff = diffOutline(before ?? [], lines);
    return {
      ...base,
      tree: '',
      truncated: snap.truncated,
      shown_count: diff.added.length + diff.removed.length,
      diff,
    };
  }
  const { text, shown } = budget(lines, opts.max_chars);
  return { ...base, tree: text, truncated: snap.truncated || shown < lines.length, shown_count: shown };
}
