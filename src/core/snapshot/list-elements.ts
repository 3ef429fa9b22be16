/** browser_list_elements: scopes, budget with cursor, changes, and the data form of refs. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { slot } from '../state-bag.js';
import { readingOrder, takePage } from './budget.js';
import { diffOutlines, renderDiff, type OutlineDiff } from './diff.js';
import { renderLines, walkShown } from './render-lines.js';
import {
  borrowsWords,
  hiddenContent,
  keptAround,
  limitDepth,
  selectScope,
  wordsComplete,
  type Scope,
} from './scope.js';
import { evaluateIn } from './page-script.js';
import { changedSince, takeSnapshot, type Snapshot, type SnapNode } from './snapshot.js';

export interface ListElementsInput {
  scope: Scope;
  ref?: string;
  max_chars: number;
  cursor?: string;
  /** Only lines at most this many levels deep in the listing (0 = the top level). */
  depth?: number;
}

export interface RefRecord {
  ref: string;
  role: string;
  accessible_name: string;
  text: string;
  attributes: Record<string, string>;
  allowed_actions: string[];
  states: string[];
  /** The whole value, verbatim (lines may show only its start). */
  value?: string;
  /** Bounds of a range widget (slider, spinbutton, progressbar, meter), when known. */
  value_min?: number;
  value_max?: number;
  /** Accessible description, or an unnamed SVG shape's `fill #rrggbb`; absent when none. */
  description?: string;
  frame_id: string;
  bounding_box: { x: number; y: number; width: number; height: number };
  in_viewport: boolean;
}

/** Seed 001's ElementNode tree, as small as it can be: the refs' records carry the rest. */
export interface TreeNode {
  ref?: string;
  role: string;
  name: string;
  children: TreeNode[];
}

/** The shown nodes as a tree (document order, nested by outline depth): seed 001's `root_nodes`. */
export function treeOf(nodes: readonly SnapNode[], shown: readonly number[]): TreeNode[] {
  const roots: TreeNode[] = [];
  walkShown<TreeNode>(
    nodes,
    [...shown].sort((a, b) => a - b),
    (n, _i, _level, parent) => {
      const node: TreeNode = { ...(n.ref ? { ref: n.ref } : {}), role: n.role, name: n.name, children: [] };
      (parent ? parent.children : roots).push(node);
      return node;
    },
  );
  return roots;
}

export interface SnapshotData {
  id: string;
  page_id: string;
  session_id: string;
  document_generation: number;
  scope: Scope;
  url: string;
  title: string;
  viewport: Snapshot['viewport'];
  refs: RefRecord[];
  /** The shown elements as a tree (seed 001); the compact data form leaves it out. */
  root_nodes?: TreeNode[];
  node_count: number;
  shown_count: number;
  truncated: boolean;
  /**
   * A first look: the page was walked only as far as this answer needed, so node_count counts the
   * lines walked, not the page's; the cursor goes on over the whole page. Absent otherwise.
   */
  partial?: true;
  cursor?: string;
  created_at: number;
  diff?: OutlineDiff;
}

/**
 * What the listing remembers of a page between calls, in the page's StateBag (freed with it):
 * the last snapshot listed to a caller (`scope=changes` compares against it) and its lines for
 * cursors. The latest walk by anyone is the snapshot pipeline's own (`BrowPage.lastWalk`).
 */
export interface Listing {
  lastListed: Snapshot | null;
  pagination: Pagination | null;
}

export const listingSlot = slot('listing', (): Listing => ({ lastListed: null, pagination: null }));

export interface Pagination {
  snapshot: Snapshot;
  scope: Scope;
  depth?: number;
  lines: string[];
  indexes: number[];
  order: number[];
  /** Words of hidden descendants for shown nodes without a name or text (see hiddenContent). */
  content: ReadonlyMap<number, string>;
  /** Lines of a first look (a walk of the page's start): a cursor goes on over a whole walk. */
  partial?: true;
}

/** The data form of a node; `content` stands in for its text when the scope hid the words (hiddenContent). */
export function refRecord(n: SnapNode, content?: string): RefRecord {
  // one literal, then the optional fields: no spread of a temporary object per ref (a full listing
  // of a big page makes tens of thousands of these)
  const r: RefRecord = {
    ref: n.ref ?? '',
    role: n.role,
    accessible_name: n.name,
    text: n.text || content || '',
    attributes: n.attrs,
    allowed_actions: n.actions,
    states: n.states,
    frame_id: n.frameId,
    bounding_box: { x: n.box[0], y: n.box[1], width: n.box[2], height: n.box[3] },
    in_viewport: n.inView,
  };
  if (n.value !== undefined) r.value = n.value;
  if (n.valueMin !== undefined) r.value_min = n.valueMin;
  if (n.valueMax !== undefined) r.value_max = n.valueMax;
  if (n.description) r.description = n.description;
  return r;
}

/** List a page's elements in one scope; returns model text and the data form. */
export async function listElements(
  page: BrowPage,
  input: ListElementsInput,
): Promise<{ text: string; data: SnapshotData }> {
  if (input.cursor) return continuePage(page, input);
  if (input.scope === 'subtree' && !input.ref) {
    throw new BrowserError('invalid_request', 'scope "subtree" needs a ref.', {
      hint: 'Pass the ref of the element whose subtree you want, e.g. {"scope":"subtree","ref":"e12"}.',
    });
  }
  if (input.scope === 'changes') return changes(page);

  const listing = page.state.get(listingSlot);
  const look = await firstLook(page, input);
  if (look && 'answer' in look) return look.answer;
  const snap =
    look && 'whole' in look
      ? look.whole
      : await takeSnapshot(page, input.scope === 'subtree' && input.ref ? { rootRef: input.ref } : {});
  if (input.scope !== 'subtree') listing.lastListed = snap;
  const pagination = paginate(snap, input.scope, input.depth, listing.pagination);
  listing.pagination = pagination;
  return renderPage(page, pagination, 0, input.max_chars);
}

/**
 * Nodes a first look walks at first: the default budget (24,000 chars) takes the lines of 1,000–4,000
 * nodes on the pages measured, against a big page's 20k–45k.
 */
const FIRST_LOOK_NODES = 4000;
/** Elements a document must have for a first look: below it, the whole walk costs little more. */
const FIRST_LOOK_MIN_ELEMENTS = 6000;
/** The most a first look walks before it walks the whole page instead. */
const FIRST_LOOK_MAX_NODES = 20_000;
/** A budget a first look does not try to fill: a caller asking for that much wants the whole page. */
const FIRST_LOOK_MAX_CHARS = 100_000;

/**
 * The first listing of a document brow has not walked whole yet: walk only the page's start (in
 * document order, capped) and answer from it when that answer is the one a whole walk would give.
 * On a 45k-node page that is the difference between walking 4,000 nodes and 45,000 before the
 * agent sees anything.
 *
 * The whole walk's answer starts at the first line in view and goes on in document order until
 * the budget is spent, then wraps to the lines above the viewport. A walk of the page's start holds
 * the same lines in the same order up to its cap, so the two answers agree when the first look
 * has a line in view, its budget ran out before the cap, and no line it shows reads differently
 * for what lies past the cap (closedUpTo). One frame only: a child frame cut by the cap would break that order. A start too thin to fill
 * the budget is walked once more, as far as its lines per node say the budget needs.
 *
 * Returns the answer, or a whole walk when the page fitted under the cap, or null: walk whole.
 */
async function firstLook(
  page: BrowPage,
  input: ListElementsInput,
): Promise<{ answer: { text: string; data: SnapshotData } } | { whole: Snapshot } | null> {
  if (input.scope !== 'interactive' && input.scope !== 'full') return null;
  if (input.max_chars > FIRST_LOOK_MAX_CHARS) return null;
  const last = page.lastWalk;
  if (last && last.documentGeneration === page.documentGeneration) return null;
  if (page.raw.frames().length !== 1) return null;
  // a page of fewer elements is walked whole as usual: the walk is short, and a whole walk is the
  // one the next action's effect builds on (a walk held under another cap is not)
  if ((await elementCount(page)) < FIRST_LOOK_MIN_ELEMENTS) return null;
  let cap = FIRST_LOOK_NODES;
  for (let tries = 0; tries < 2; tries++) {
    if (page.raw.frames().length !== 1) return null;
    const snap = await takeSnapshot(page, { maxNodes: cap, firstLook: true });
    if (!snap.firstLook) return { whole: snap };
    const p = paginate(snap, input.scope, input.depth, null);
    const budget = budgetOf(page, snap, input.scope, input.max_chars);
    const paged = takePage(p.lines, p.order, 0, budget);
    if (p.order.length === 0 || !snap.nodes[p.indexes[p.order[0]!]!]!.inView) return null;
    const next = paged.nextOffset;
    const lastShown = p.indexes[paged.shown[paged.shown.length - 1]!]!;
    // the budget ran out while the answer still read forward from the viewport, and nothing it
    // shows depends on what lies past the cap
    if (next !== null && p.order[next]! > p.order[0]! && closedUpTo(snap.nodes, p, lastShown)) {
      const listing = page.state.get(listingSlot);
      listing.lastListed = snap;
      listing.pagination = { ...p, partial: true };
      return { answer: renderPage(page, listing.pagination, 0, input.max_chars) };
    }
    // too thin a start: as many nodes again as the budget needs at this start's chars per node
    let forward = 0;
    for (const k of p.order) {
      if (k < p.order[0]!) break;
      forward += p.lines[k]!.length + 1;
    }
    const perNode = forward / Math.max(1, snap.nodes.length);
    cap = Math.ceil((budget / Math.max(perNode, 0.01)) * 1.25);
    if (cap > FIRST_LOOK_MAX_NODES) return null;
  }
  return null;
}

/** The elements of the page's document (one round trip); -1 when it cannot be read. */
async function elementCount(page: BrowPage): Promise<number> {
  const n = await evaluateIn(
    page.raw.mainFrame(),
    `(() => { try { return document.getElementsByTagName('*').length; } catch { return -1; } })()`,
  ).catch(() => -1);
  return typeof n === 'number' ? n : -1;
}

/**
 * Whether every line up to `lastShown` reads the same in a whole walk. Only an element whose
 * subtree the cap cut (an ancestor of the last node walked) can differ:
 * - a nameless line borrows the words of hidden descendants (hiddenContent), which may lie past the
 *   cap unless its scan ended short of it;
 * - a region the first look does not keep (no control in its walked part) may hold controls past
 *   the cap, and then a whole walk shows it, and lends no words from inside it to a line before.
 * Which lines up to `lastShown` are shown cannot differ: a line there that the cap cut holds every
 * walked line after it, `lastShown` among them, so it already holds a control and is kept.
 * The whole scope shows every line as walked.
 */
function closedUpTo(nodes: readonly SnapNode[], p: Pagination, lastShown: number): boolean {
  if (p.scope !== 'interactive') return true;
  const shown = new Set(p.indexes);
  let depth = nodes[nodes.length - 1]!.depth + 1;
  for (let i = nodes.length - 1; i >= 0 && depth > 0; i--) {
    const n = nodes[i]!;
    if (n.depth >= depth) continue;
    depth = n.depth; // an ancestor of the last node walked: its subtree goes on past the cap
    if (!shown.has(i)) {
      if (keptAround(n)) return false;
    } else if (i <= lastShown && borrowsWords(n) && !wordsComplete(nodes, i, p.content.get(i))) {
      return false;
    }
  }
  return true;
}

/** The scope's lines of a snapshot; a reused walk (same nodes) in the same scope reuses them too. */
function paginate(
  snap: Snapshot,
  scope: Scope,
  depth: number | undefined,
  prev: Pagination | null,
): Pagination {
  if (
    prev &&
    prev.snapshot.nodes === snap.nodes &&
    prev.scope === scope &&
    prev.depth === depth &&
    scope !== 'subtree'
  ) {
    return { ...prev, snapshot: snap };
  }
  const scoped = selectScope(snap.nodes, scope);
  const indexes = depth === undefined ? scoped : limitDepth(snap.nodes, scoped, depth);
  const content = scope === 'interactive' ? hiddenContent(snap.nodes, indexes) : new Map<number, string>();
  const lines = renderLines(snap.nodes, indexes, content);
  const order = readingOrder(indexes.map((i) => snap.nodes[i]!.inView));
  return { snapshot: snap, scope, ...(depth === undefined ? {} : { depth }), lines, indexes, order, content };
}

function continuePage(page: BrowPage, input: ListElementsInput) {
  const [snapId, offsetText] = (input.cursor ?? '').split('@');
  const p = page.state.get(listingSlot).pagination;
  const offset = Number(offsetText);
  if (
    !p ||
    p.snapshot.id !== snapId ||
    !Number.isInteger(offset) ||
    offset <= 0 ||
    offset >= p.order.length
  ) {
    throw new BrowserError(
      'invalid_request',
      `Cursor "${input.cursor}" does not continue the latest snapshot of this page.`,
      {
        hint: 'Take a new browser_list_elements snapshot and follow its cursor.',
      },
    );
  }
  if (p.partial) return continueFirstLook(page, p, offset, input.max_chars);
  return renderPage(page, p, offset, input.max_chars);
}

/**
 * The next page after a first look: the page walked whole, and its reading order taken up after
 * the lines the first look showed (the same nodes, by position: a walk of the start is the start
 * of the whole walk while the page has not changed).
 */
async function continueFirstLook(page: BrowPage, p: Pagination, offset: number, maxChars: number) {
  const part = p.snapshot;
  const whole = await takeSnapshot(page);
  const shown = new Set<number>();
  for (let k = 0; k < offset; k++) shown.add(p.indexes[p.order[k]!]!);
  let lastShown = -1;
  for (const i of shown) if (i > lastShown) lastShown = i;
  const same =
    whole.documentGeneration === part.documentGeneration &&
    lastShown >= 0 &&
    whole.nodes.length > lastShown &&
    whole.nodes[lastShown]!.ref === part.nodes[lastShown]!.ref &&
    whole.nodes[0]?.ref === part.nodes[0]?.ref;
  if (!same) {
    throw new BrowserError(
      'invalid_request',
      'The page changed since the first part of this listing was read, so its cursor cannot go on.',
      { hint: 'Take a new browser_list_elements snapshot and follow its cursor.' },
    );
  }
  const listing = page.state.get(listingSlot);
  const next = paginate(whole, p.scope, p.depth, null);
  let from = 0;
  while (from < next.order.length && shown.has(next.indexes[next.order[from]!]!)) from++;
  listing.pagination = next;
  listing.lastListed = whole;
  if (from >= next.order.length) {
    throw new BrowserError('invalid_request', 'The listing has no more lines after this cursor.', {
      hint: 'Take a new browser_list_elements snapshot.',
    });
  }
  return renderPage(page, next, from, maxChars);
}

/** Characters of an answer left for its lines once the header and footer are written. */
function budgetOf(page: BrowPage, snap: Snapshot, scope: Scope, maxChars: number): number {
  return Math.max(200, maxChars - headerLines(page, snap, scope).join('\n').length - 200);
}

function renderPage(page: BrowPage, p: Pagination, offset: number, maxChars: number) {
  const { snapshot: snap } = p;
  const header = headerLines(page, snap, p.scope);
  const paged = takePage(p.lines, p.order, offset, budgetOf(page, snap, p.scope, maxChars));
  const body = paged.shown.map((i) => p.lines[i]!);
  const cursor = paged.nextOffset !== null ? `${snap.id}@${paged.nextOffset}` : undefined;
  const shownIndexes = paged.shown.map((i) => p.indexes[i]!);
  const footer: string[] = [];
  if (p.partial) {
    footer.push(
      `[truncated: showing ${body.length} lines; the page goes on past the ${p.lines.length} lines walked for this first look; continue with cursor "${cursor}"]`,
    );
  } else if (paged.truncated) {
    footer.push(
      cursor
        ? `[truncated: showing ${body.length} of ${p.lines.length} lines; continue with cursor "${cursor}"]`
        : `[end: last ${body.length} of ${p.lines.length} lines]`,
    );
  }
  if (body.length === 0) footer.push('(no elements in this scope)');
  const text = [...header, '<page-content>', ...body, '</page-content>', ...footer].join('\n');
  const data: SnapshotData = {
    id: snap.id,
    page_id: page.id,
    session_id: page.session.id,
    document_generation: snap.documentGeneration,
    scope: p.scope,
    url: snap.url,
    title: snap.title,
    viewport: snap.viewport,
    refs: shownIndexes
      .filter((i) => snap.nodes[i]!.ref)
      .map((i) => refRecord(snap.nodes[i]!, p.content.get(i))),
    node_count: p.lines.length,
    shown_count: body.length,
    truncated: paged.truncated || snap.truncated,
    ...(p.partial ? { partial: true as const } : {}),
    ...(cursor ? { cursor } : {}),
    created_at: snap.createdAt,
  };
  // built when first read: the compact data form (what MCP sends by default) never reads it, and on
  // a 45k-node page it costs about 50 ms of objects
  lazyField(data, 'root_nodes', () => treeOf(snap.nodes, shownIndexes));
  return { text, data };
}

/**
 * Define obj[key] as a value made on first read and kept. Enumerable, so JSON.stringify, spreads
 * and Object.keys see it like any field.
 */
function lazyField<T extends object, K extends keyof T>(obj: T, key: K, make: () => T[K]): void {
  const keep = (value: T[K]) =>
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = make();
      keep(value);
      return value;
    },
    set: keep,
  });
}

function headerLines(page: BrowPage, snap: Snapshot, scope: Scope): string[] {
  return [
    `Page snapshot for ${snap.title || snap.url}`,
    `Page ID: ${page.id}`,
    `URL: ${snap.url}`,
    `Snapshot ID: ${snap.id}`,
    `Scope: ${scope}`,
  ];
}

async function changes(page: BrowPage) {
  const listing = page.state.get(listingSlot);
  const prev = listing.lastListed;
  if (prev && !(await changedSince(prev, page))) {
    return changesResult(page, prev, { added: [], removed: [], changed: [], truncated: false });
  }
  const snap = await takeSnapshot(page);
  listing.lastListed = snap;
  const diff = prev
    ? prev.documentGeneration !== snap.documentGeneration
      ? null
      : prev.firstLook
        ? diffStart(prev, snap)
        : diffOutlines(prev.nodes, snap.nodes)
    : null;
  if (!diff) {
    // no earlier snapshot of this document: everything is new
    const all = diffOutlines([], snap.nodes, 200);
    const res = changesResult(page, snap, all);
    res.text = `${res.text}\n(no earlier snapshot of this document to compare with: every line is listed as added)`;
    return res;
  }
  const res = changesResult(page, snap, diff);
  if (prev?.firstLook) {
    res.text = `${res.text}\n(the last listing walked only the start of the page: compared over that part)`;
  }
  return res;
}

/**
 * A first look against a whole walk: compared over the part the first look walked, which ends
 * where its last ref is found in the whole walk (null when it is not: compare nothing).
 */
function diffStart(part: Snapshot, whole: Snapshot): OutlineDiff | null {
  let lastRef = part.nodes.length - 1;
  while (lastRef >= 0 && !part.nodes[lastRef]!.ref) lastRef--;
  if (lastRef < 0) return null;
  const ref = part.nodes[lastRef]!.ref;
  const at = whole.nodes.findIndex((n) => n.ref === ref);
  if (at < 0) return null;
  const end = Math.min(whole.nodes.length, at + (part.nodes.length - lastRef));
  return diffOutlines(part.nodes, whole.nodes.slice(0, end));
}

function changesResult(page: BrowPage, snap: Snapshot, diff: OutlineDiff) {
  const text = [
    ...headerLines(page, snap, 'changes'),
    '<page-content>',
    renderDiff(diff),
    '</page-content>',
  ].join('\n');
  const data: SnapshotData = {
    id: snap.id,
    page_id: page.id,
    session_id: page.session.id,
    document_generation: snap.documentGeneration,
    scope: 'changes',
    url: snap.url,
    title: snap.title,
    viewport: snap.viewport,
    refs: [],
    node_count: snap.nodes.length,
    shown_count: diff.added.length + diff.removed.length + diff.changed.length,
    truncated: diff.truncated,
    created_at: snap.createdAt,
    diff,
  };
  return { text, data };
}
