/** Take a snapshot of a page: walk every frame in the page, stitch frames in, assign page refs. */
import type { Frame } from 'puppeteer-core';
import { BrowserError, classifyError } from '../errors.js';
import { newId } from '../ids.js';
import type { BrowPage } from '../session/page.js';
import type { WalkResult } from './injected/types.js';
import { withApi } from './page-script.js';
import { ownersById, resolveOwners, type ResolvedOwner } from './frames.js';
import { slot } from '../state-bag.js';
import { decodeWalk, spliceWalk, walkWire, type FrameWalk } from './wire.js';
import type { WireWalk } from './injected/wire-format.js';

/** One line of the outline, page-wide. */
export interface SnapNode {
  ref?: string;
  role: string;
  name: string;
  text?: string;
  /** Verbatim and complete (see WalkNode.value). */
  value?: string;
  /** Bounds of a range widget, when known. */
  valueMin?: number;
  valueMax?: number;
  /** Accessible description, or an unnamed SVG shape's `fill #rrggbb`. */
  description?: string;
  level?: number;
  states: string[];
  actions: string[];
  tag: string;
  attrs: Record<string, string>;
  /** Page (top-level viewport) CSS px: x, y, width, height. */
  box: [number, number, number, number];
  inView: boolean;
  depth: number;
  frameId: string;
  opaque?: string;
}

export interface Snapshot {
  id: string;
  pageId: string;
  documentGeneration: number;
  url: string;
  title: string;
  viewport: WalkResult['viewport'];
  nodes: SnapNode[];
  truncated: boolean;
  createdAt: number;
  /** docKey → mutation seq of every frame walked: equal seqs mean nothing changed. */
  frameSeqs: Map<string, number>;
  /** Boxes were not measured (WalkOptions.boxes false): fit for line diffs only. */
  unmeasured?: true;
  /** Frames walked, for the cheap "anything changed?" probe. */
  frames: Frame[];
  /** docKey → outline stamp of every frame walked, when this walk may answer again (see reuse). */
  stamps?: Map<string, string>;
  /**
   * docKey → outline stamp of every frame walked, when each frame gave one (any walk, measured or
   * not): what changedSince compares, so a change no DOM mutation makes (a :hover or :focus-within
   * rule revealing a menu, a value set by script) still counts.
   */
  seenStamps?: Map<string, string>;
  /** When the page was walked (a reused snapshot keeps its walk's time). */
  walkedAt: number;
  /** Nodes that travelled from the page for this walk; the rest came from walks held (see spliceWalk). */
  sent: number;
  /** A first look that the node cap stopped short: its nodes are the start of the page, in order. */
  firstLook?: true;
}

export interface WalkOptions {
  maxNodes?: number;
  /** Only this ref's subtree. */
  rootRef?: string;
  /**
   * false: no boxes measured (all [0,0,0,0], nothing in view), for outlines compared by their
   * lines only, as an action's effect does; cheaper, and after a DOM change it spares a layout.
   */
  boxes?: boolean;
  /** Walk even if the page's outline stamps say nothing changed since the last full walk. */
  fresh?: boolean;
  /**
   * A first look (see list-elements' firstLook): a walk of the page's start, capped at maxNodes.
   * When the cap stops it short it is not the page's latest walk (an action's effect must never be
   * compared against part of a page); when the whole page fits it is a whole walk like any other.
   */
  firstLook?: boolean;
}

import { frameIdOf } from '../browser/internals.js';
import { withDeadline } from '../deadline.js';
export { frameIdOf };

const MAX_NODES = 200_000;

/** A frame that does not answer in this time is shown as an opaque line, not waited for. */
const CHILD_FRAME_TIMEOUT_MS = 2500;
/** The main frame not answering means its script is busy: fail with timeout rather than hang. */
const MAIN_FRAME_TIMEOUT_MS = 15_000;

/** Nodes in page order, with what assigning their refs needs. */
interface Lines {
  nodes: SnapNode[];
  /** Per node: its frame's walk (null for a frame that could not be read) and its local id. */
  walks: (FrameRef | null)[];
  localIds: number[];
}

interface FrameRef {
  frame: Frame;
  frameId: string;
  docKey: string;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return withDeadline(p, ms, () => new Error(`${what} did not answer within ${ms} ms`));
}

/**
 * How long one walk may keep answering for a page whose stamps say it has not changed: a safety
 * net for the changes no signal reports (a stylesheet edited through the CSSOM, a media query).
 */
const REUSE_MAX_AGE_MS = 30_000;

/**
 * Walk the page (all frames, any depth) into one outline; refs are assigned in document order.
 * A whole-page measured walk is answered from the last one when every frame's outline stamp is
 * unchanged (one cheap call per frame instead of a walk).
 */
export async function takeSnapshot(page: BrowPage, opts: WalkOptions = {}): Promise<Snapshot> {
  const whole = !opts.rootRef && opts.boxes !== false && opts.maxNodes === undefined;
  // the walk ahead just finished while this call waited for the page: its answer is as new as the
  // stamps would be (one use, by the first walk of the call that started right after it)
  const handOff = page.walkHandOff;
  page.walkHandOff = null;
  if (whole && !opts.fresh && handOff && handOff.call === page.callsStarted) {
    const snap = handOff.snap;
    if (snap === page.lastWalk && snap.stamps && sameFrames(snap, page)) {
      return { ...snap, id: newId('snap'), createdAt: Date.now() };
    }
  }
  if (whole && !opts.fresh) {
    const last = page.lastWalk;
    if (last?.stamps && Date.now() - last.walkedAt < REUSE_MAX_AGE_MS && (await unchanged(last, page))) {
      return { ...last, id: newId('snap'), createdAt: Date.now() };
    }
  }
  const snap = await walkPage(page, opts);
  if (!opts.rootRef && !snap.firstLook) page.lastWalk = snap;
  return snap;
}

/** The same document, URL and frames as when the snapshot was walked (no round trip). */
function sameFrames(snap: Snapshot, page: BrowPage): boolean {
  if (snap.documentGeneration !== page.documentGeneration) return false;
  const live = new Set(page.raw.frames());
  if (snap.frames.some((f) => !live.has(f)) || live.size !== snap.frames.length) return false;
  return page.url() === snap.url;
}

/** Every frame of the snapshot still there, nothing else, each with the same document, URL and stamp. */
async function unchanged(snap: Snapshot, page: BrowPage): Promise<boolean> {
  if (!sameFrames(snap, page)) return false;
  const stamps = snap.stamps!;
  const now = await Promise.all(
    snap.frames.map((f) =>
      withApi(f, (api) => ({ key: api.docKey, stamp: api.outlineStamp?.() ?? null })).catch(() => null),
    ),
  );
  return now.every((s) => s !== null && s.stamp !== null && stamps.get(s.key) === s.stamp);
}

/** A frame's walk as Node holds it, so the next walk of the frame can travel as what changed. */
interface HeldFrameWalk {
  fw: FrameWalk;
  boxes: boolean;
  maxNodes: number;
  /** Where its nodes were placed in the page (depth offset, frame origin, visible). */
  place: string;
  /** Order of holding: the newest walk is the closest to the page now. */
  seq: number;
}

/** Per page: frame id → its held walks, measured and not. */
const heldWalks = slot('snapshot.held-walks', () => ({ seq: 0, frames: new Map<string, HeldFrameWalk[]>() }));

/**
 * The held walk of this frame a new walk can build on: placed the same, with the same node cap,
 * measured unless the new one is not (then the newest of either).
 */
function heldBase(
  page: BrowPage,
  fid: string,
  maxNodes: number,
  boxes: boolean,
  place: string,
): HeldFrameWalk | null {
  const list = page.state.get(heldWalks).frames.get(fid) ?? [];
  let best: HeldFrameWalk | null = null;
  for (const h of list) {
    if (h.maxNodes !== maxNodes || h.place !== place || (boxes && !h.boxes)) continue;
    if (!best || h.seq > best.seq) best = h;
  }
  return best;
}

function holdFrameWalk(
  page: BrowPage,
  fid: string,
  maxNodes: number,
  boxes: boolean,
  place: string,
  fw: FrameWalk,
): void {
  const held = page.state.get(heldWalks);
  // one per kind, as the page holds them
  const list = (held.frames.get(fid) ?? []).filter((h) => h.boxes !== boxes || h.maxNodes !== maxNodes);
  list.push({ fw, boxes, maxNodes, place, seq: ++held.seq });
  held.frames.set(fid, list);
  // frames come and go (ads, navigations): drop those gone once they outnumber the live ones
  const live = page.raw.frames();
  if (held.frames.size > 2 * live.length + 8) {
    const ids = new Set(live.map(frameIdOf));
    for (const id of [...held.frames.keys()]) if (!ids.has(id)) held.frames.delete(id);
  }
}

async function walkPage(page: BrowPage, opts: WalkOptions): Promise<Snapshot> {
  const main = page.raw.mainFrame();
  const frameSeqs = new Map<string, number>();
  const stamps = new Map<string, string>();
  const frames: Frame[] = [];
  let truncated = false;
  let sent = 0;
  // an unreadable frame, an old page script or a partial walk: the next call walks again
  let reusable = !opts.rootRef && opts.boxes !== false && (opts.maxNodes === undefined || !!opts.firstLook);
  // every frame's document answered: refs of documents not among them can go
  let complete = !opts.rootRef;
  let root: { frame: Frame; localId: number } | null = null;
  if (opts.rootRef) {
    const entry = page.refs.lookup(opts.rootRef);
    const frame = entry.frame.deref();
    if (frame) root = { frame, localId: entry.localId };
  }
  const startFrame = root?.frame ?? main;
  const maxNodes = opts.maxNodes ?? MAX_NODES;
  // A frame Node holds no walk of (the first walk after a navigation) is walked whole wherever it
  // sits: start all such child frames' walks now, beside their parents', instead of one level of
  // frames after another. Where a walk lands (depth, origin, visible) is applied when it is read.
  const early = new Map<Frame, Promise<WireWalk>>();
  if (!root) {
    for (const f of page.raw.frames()) {
      if (f === startFrame || page.state.get(heldWalks).frames.has(frameIdOf(f))) continue;
      const w = walkWire(f, { maxNodes, ...(opts.boxes === false ? { boxes: false } : {}) });
      w.catch(() => undefined);
      early.set(f, w);
    }
  }

  const walkFrame = async (
    frame: Frame,
    depthOffset: number,
    offset: [number, number],
    visible: boolean,
  ): Promise<{ lines: Lines; res: FrameWalk | null }> => {
    let res: FrameWalk;
    const isStart = frame === startFrame;
    const fid = frameIdOf(frame);
    // a whole walk of the frame may travel as a change of the one held (see injected/held-walk.ts)
    const whole = !(isStart && root);
    const place = `${depthOffset} ${offset[0]} ${offset[1]} ${visible}`;
    const base = whole ? heldBase(page, fid, maxNodes, opts.boxes !== false, place) : null;
    // the child frames' owner elements are resolved while the frame is walked (two round trips off
    // each level of frames); their ids are asked for after the walk, which installs the page API
    const owning: Promise<ResolvedOwner[]> | null =
      frame.childFrames().length > 0 ? resolveOwners(frame).catch(() => []) : null;
    // the walk started beside its parent's, taken once
    let started = base ? undefined : early.get(frame);
    try {
      const walk = (since?: string) => {
        const ahead = since ? undefined : started;
        started = undefined;
        return withTimeout(
          ahead ??
            walkWire(frame, {
              maxNodes,
              ...(isStart && root ? { rootId: root.localId } : {}),
              ...(opts.boxes === false ? { boxes: false } : {}),
              ...(since ? { since } : {}),
            }),
          isStart ? MAIN_FRAME_TIMEOUT_MS : CHILD_FRAME_TIMEOUT_MS,
          isStart ? 'The page' : 'The frame',
        );
      };
      let wire = await walk(base?.fw.walkId);
      res = decodeWalk(wire, fid, depthOffset, offset, visible);
      sent += wire.count;
      if (wire.delta) {
        const spliced =
          base && wire.delta.since === base.fw.walkId ? spliceWalk(base.fw, res, wire.delta) : null;
        if (spliced) res = spliced;
        else {
          // not the walk Node holds (never expected): the whole walk again
          wire = await walk();
          res = decodeWalk(wire, fid, depthOffset, offset, visible);
          sent += wire.count;
        }
      }
      if (whole && res.walkId) holdFrameWalk(page, fid, maxNodes, opts.boxes !== false, place, res);
      if (isStart && !root) failedWhole(res.nodes, frame);
    } catch (e) {
      if (owning) void owning.then(release);
      if (isStart) {
        const err = classifyError(e);
        if (err.code === 'unexpected_error' && /did not answer/.test(err.message)) {
          throw new BrowserError('timeout', `${err.message}: its script may be busy.`, {
            hint: 'Wait and try again, or reload the page.',
          });
        }
        // the walk itself failed in this document (not a navigation, a closed page or a timeout)
        if (err.code === 'unexpected_error') {
          throw new BrowserError('snapshot_failed', `The page could not be walked: ${err.message}`, {
            cause: e,
            details: { url: frame.url() },
          });
        }
        throw err;
      }
      reusable = false;
      complete = false;
      const opaque = opaqueNode(frame, depthOffset, `frame-unreachable: ${String(e).split('\n')[0]}`);
      return { lines: { nodes: [opaque], walks: [null], localIds: [0] }, res: null };
    }
    frames.push(frame);
    frameSeqs.set(res.docKey, res.mutationSeq);
    if (res.stamp) stamps.set(res.docKey, res.stamp);
    else reusable = false;
    if (res.truncated) truncated = true;
    const here: FrameRef = { frame, frameId: fid, docKey: res.docKey };
    let resolved = owning ? await owning : [];
    if (res.owners.length > 0 && frame.childFrames().some((c) => !resolved.some((o) => o.child === c))) {
      // a frame attached while the walk ran: resolve them all as before
      release(resolved);
      resolved = await resolveOwners(frame);
    }
    const owners =
      res.owners.length > 0 && resolved.length > 0 ? await ownersById(resolved) : new Map<number, Frame>();
    if (res.owners.length === 0) release(resolved);
    const childWalks: Promise<{ index: number; lines: Lines }>[] = [];
    for (const o of res.owners) {
      const child = owners.get(o.id);
      if (!child) continue;
      const depth = res.nodes[o.index]!.depth + 1;
      childWalks.push(
        walkFrame(child, depth, o.origin, o.visible).then((r) => ({ index: o.index, lines: r.lines })),
      );
    }
    const children = await Promise.all(childWalks);
    if (children.length === 0) {
      const walks = new Array<FrameRef>(res.nodes.length).fill(here);
      return { lines: { nodes: res.nodes, walks, localIds: res.localIds }, res };
    }
    // stitch each child frame's lines in right after its owner
    children.sort((a, b) => a.index - b.index);
    const lines: Lines = { nodes: [], walks: [], localIds: [] };
    let from = 0;
    const take = (to: number) => {
      for (let i = from; i < to; i++) {
        lines.nodes.push(res.nodes[i]!);
        lines.walks.push(here);
        lines.localIds.push(res.localIds[i]!);
      }
      from = to;
    };
    for (const c of children) {
      take(c.index + 1);
      for (let i = 0; i < c.lines.nodes.length; i++) {
        lines.nodes.push(c.lines.nodes[i]!);
        lines.walks.push(c.lines.walks[i]!);
        lines.localIds.push(c.lines.localIds[i]!);
      }
    }
    take(res.nodes.length);
    return { lines, res };
  };

  const top = await walkFrame(startFrame, 0, [0, 0], true);
  const mainRes = top.res;
  const { nodes, walks, localIds } = top.lines;
  // refs in document order, frames included
  for (let i = 0; i < nodes.length; i++) {
    const id = localIds[i]!;
    const w = walks[i];
    if (!id || !w) continue;
    const n = nodes[i]!;
    n.ref = page.refs.refFor(w.frame, w.frameId, w.docKey, id, n.role, n.name);
  }
  if (mainRes && !opts.rootRef) page.noteTitle(mainRes.title);
  if (complete && frames.length === page.raw.frames().length) {
    page.refs.forgetDocuments(new Set(frameSeqs.keys()));
  }
  const snap: Snapshot = {
    id: newId('snap'),
    pageId: page.id,
    documentGeneration: page.documentGeneration,
    url: mainRes?.url ?? page.url(),
    title: mainRes?.title ?? '',
    viewport: mainRes?.viewport ?? {
      width: 0,
      height: 0,
      scrollX: 0,
      scrollY: 0,
      scrollWidth: 0,
      scrollHeight: 0,
    },
    nodes,
    truncated,
    createdAt: Date.now(),
    walkedAt: Date.now(),
    frameSeqs,
    frames,
    sent,
    ...(reusable && !(opts.firstLook && truncated) && frames.length === page.raw.frames().length
      ? { stamps }
      : {}),
    ...(stamps.size === frames.length && frames.length === page.raw.frames().length
      ? { seenStamps: stamps }
      : {}),
    ...(opts.boxes === false ? { unmeasured: true as const } : {}),
    ...(opts.firstLook && truncated ? { firstLook: true as const } : {}),
  };
  return snap;
}

/**
 * snapshot_failed when the walk of a document gave nothing but errors: each element that throws
 * costs only its subtree (an opaque "error:" line), so a document whose every element failed (one
 * nested deeper than the walk's stack allows, say) has no outline to give.
 */
function failedWhole(nodes: SnapNode[], frame: Frame): void {
  if (nodes.length === 0 || !nodes.every((n) => n.opaque?.startsWith('error'))) return;
  const why = nodes[0]!.opaque!.replace(/^error:?\s*/, '') || 'an error in the page';
  const deep = /call stack/i.test(why);
  throw new BrowserError(
    'snapshot_failed',
    `The page could not be walked: ${why}${deep ? ' (its elements nest deeper than the walk can follow)' : ''}.`,
    {
      hint: 'Find elements with browser_find {text}, read values with browser_evaluate, or look with browser_screenshot.',
      details: { url: frame.url() },
    },
  );
}

/** Let go of owner elements resolved for nothing (the walk found no frame owners). */
function release(resolved: ResolvedOwner[]): void {
  for (const { client, objectId } of resolved) {
    client.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
  }
}

function opaqueNode(frame: Frame, depth: number, reason: string): SnapNode {
  return {
    role: 'iframe',
    name: frame.url(),
    states: [],
    actions: [],
    tag: 'iframe',
    attrs: {},
    box: [0, 0, 0, 0],
    inView: false,
    depth,
    frameId: frameIdOf(frame),
    opaque: reason,
  };
}

/**
 * Did anything change in the frames since this snapshot? One cheap call per frame: the outline
 * stamps when the snapshot has them (DOM, focus, pointer, scroll, control values), else the
 * mutation counters.
 */
export async function changedSince(snap: Snapshot, page: BrowPage): Promise<boolean> {
  if (snap.documentGeneration !== page.documentGeneration) return true;
  const live = new Set(page.raw.frames());
  if (snap.frames.some((f) => !live.has(f)) || live.size !== snap.frames.length) return true;
  const stamps = snap.seenStamps;
  if (stamps) {
    const now = await Promise.all(
      snap.frames.map((f) =>
        withApi(f, (api) => ({ key: api.docKey, stamp: api.outlineStamp?.() ?? null })).catch(() => null),
      ),
    );
    return now.some((s) => !s || s.stamp === null || stamps.get(s.key) !== s.stamp);
  }
  const seqs = await Promise.all(
    snap.frames.map((f) =>
      withApi(f, (api) => ({ key: api.docKey, seq: api.mutations().seq })).catch(() => null),
    ),
  );
  return seqs.some((s) => !s || snap.frameSeqs.get(s.key) !== s.seq);
}
