/** browser_list_elements: scopes, budget with cursor, changes, and the data form of refs. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { slot } from '../state-bag.js';
import { readingOrder, takePage } from './budget.js';
import { diffOutlines, renderDiff, type OutlineDiff } from './diff.js';
import { renderLines, walkShown } from './render-lines.js';
import { hiddenContent, limitDepth, selectScope, type Scope } from './scope.js';
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

  const snap = await takeSnapshot(page, input.scope === 'subtree' && input.ref ? { rootRef: input.ref } : {});
  const listing = page.state.get(listingSlot);
  if (input.scope !== 'subtree') listing.lastListed = snap;
  const pagination = paginate(snap, input.scope, input.depth, listing.pagination);
  listing.pagination = pagination;
  return renderPage(page, pagination, 0, input.max_chars);
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
  return renderPage(page, p, offset, input.max_chars);
}

function renderPage(page: BrowPage, p: Pagination, offset: number, maxChars: number) {
  const { snapshot: snap } = p;
  const header = headerLines(page, snap, p.scope);
  const budget = Math.max(200, maxChars - header.join('\n').length - 200);
  const paged = takePage(p.lines, p.order, offset, budget);
  const body = paged.shown.map((i) => p.lines[i]!);
  const cursor = paged.nextOffset !== null ? `${snap.id}@${paged.nextOffset}` : undefined;
  const shownIndexes = paged.shown.map((i) => p.indexes[i]!);
  const footer: string[] = [];
  if (paged.truncated) {
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
      : diffOutlines(prev.nodes, snap.nodes)
    : null;
  if (!diff) {
    // no earlier snapshot of this document: everything is new
    const all = diffOutlines([], snap.nodes, 200);
    const res = changesResult(page, snap, all);
    res.text = `${res.text}\n(no earlier snapshot of this document to compare with: every line is listed as added)`;
    return res;
  }
  return changesResult(page, snap, diff);
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
