/** Take a snapshot of a page: walk every frame in the page, stitch frames in, assign page refs. */
import type { Frame } from 'puppeteer-core';
import { BrowserError, classifyError } from '../errors.js';
import { newId } from '../ids.js';
import type { BrowPage } from '../session/page.js';
import type { WalkNode, WalkResult } from './injected/types.js';
import { withApi } from './page-script.js';
import { frameOwners } from './frames.js';

/** One line of the outline, page-wide. */
export interface SnapNode {
  ref?: string;
  role: string;
  name: string;
  text?: string;
  value?: string;
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
  /** Frames walked, for the cheap "anything changed?" probe. */
  frames: Frame[];
}

export interface WalkOptions {
  maxNodes?: number;
  /** Only this ref's subtree. */
  rootRef?: string;
}

export const frameIdOf = (f: Frame): string => (f as unknown as { _id: string })._id;

const MAX_NODES = 200_000;

/** A frame that does not answer in this time is shown as an opaque line, not waited for. */
const CHILD_FRAME_TIMEOUT_MS = 2500;
/** The main frame not answering means its script is busy: fail with timeout rather than hang. */
const MAIN_FRAME_TIMEOUT_MS = 15_000;

interface RawLine {
  frame: Frame;
  frameId: string;
  docKey: string;
  node: WalkNode;
  depthOffset: number;
  offset: [number, number];
  visible: boolean;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Walk the page (all frames, any depth) into one outline; refs are assigned in document order. */
export async function takeSnapshot(page: BrowPage, opts: WalkOptions = {}): Promise<Snapshot> {
  const main = page.raw.mainFrame();
  const frameSeqs = new Map<string, number>();
  const frames: Frame[] = [];
  let truncated = false;
  let root: { frame: Frame; localId: number } | null = null;
  if (opts.rootRef) {
    const entry = page.refs.lookup(opts.rootRef);
    const frame = entry.frame.deref();
    if (frame) root = { frame, localId: entry.localId };
  }
  const startFrame = root?.frame ?? main;

  const walkFrame = async (
    frame: Frame,
    depthOffset: number,
    offset: [number, number],
    visible: boolean,
  ): Promise<{ lines: (RawLine | SnapNode)[]; res: WalkResult | null }> => {
    let res: WalkResult;
    const isStart = frame === startFrame;
    try {
      res = await withTimeout(
        withApi(frame, (api, o: { maxNodes: number; rootId?: number }) => api.walk(o), {
          maxNodes: opts.maxNodes ?? MAX_NODES,
          ...(isStart && root ? { rootId: root.localId } : {}),
        }),
        isStart ? MAIN_FRAME_TIMEOUT_MS : CHILD_FRAME_TIMEOUT_MS,
        isStart ? 'The page' : 'The frame',
      );
    } catch (e) {
      if (isStart) {
        const err = classifyError(e);
        if (err.code === 'unexpected_error' && /did not answer/.test(err.message)) {
          throw new BrowserError('timeout', `${err.message}: its script may be busy.`, {
            hint: 'Wait and try again, or reload the page.',
          });
        }
        throw err;
      }
      return {
        lines: [opaqueNode(frame, depthOffset, `frame-unreachable: ${String(e).split('\n')[0]}`)],
        res: null,
      };
    }
    frames.push(frame);
    frameSeqs.set(res.docKey, res.mutationSeq);
    if (res.truncated) truncated = true;
    const fid = frameIdOf(frame);
    const childFrames = frame.childFrames();
    const owners = childFrames.length > 0 ? await frameOwners(frame) : new Map<number, Frame>();
    const childWalks = new Map<number, Promise<{ lines: (RawLine | SnapNode)[] }>>();
    for (const n of res.nodes) {
      const child = n.frame && n.id ? owners.get(n.id) : undefined;
      if (child) {
        childWalks.set(
          n.id,
          walkFrame(
            child,
            depthOffset + n.depth + 1,
            [
              offset[0] + n.box[0] + (n.frameInset?.[0] ?? 0),
              offset[1] + n.box[1] + (n.frameInset?.[1] ?? 0),
            ],
            visible && n.inView,
          ),
        );
      }
    }
    const childLines = new Map<number, (RawLine | SnapNode)[]>();
    await Promise.all([...childWalks].map(async ([id, p]) => childLines.set(id, (await p).lines)));
    const lines: (RawLine | SnapNode)[] = [];
    for (const n of res.nodes) {
      lines.push({ frame, frameId: fid, docKey: res.docKey, node: n, depthOffset, offset, visible });
      const kids = n.id ? childLines.get(n.id) : undefined;
      if (kids) lines.push(...kids);
    }
    return { lines, res };
  };

  const top = await walkFrame(startFrame, 0, [0, 0], true);
  const mainRes = top.res;
  const nodes = top.lines.map((l) =>
    'node' in l
      ? toSnapNode(page, l.frame, l.frameId, l.docKey, l.node, l.depthOffset, l.offset, l.visible)
      : l,
  );
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
    frameSeqs,
    frames,
  };
  if (!root) page.lastWalk = snap;
  return snap;
}

function toSnapNode(
  page: BrowPage,
  frame: Frame,
  frameId: string,
  docKey: string,
  n: WalkNode,
  depthOffset: number,
  offset: [number, number],
  visible: boolean,
): SnapNode {
  const node: SnapNode = {
    role: n.role,
    name: n.name,
    states: n.states,
    actions: n.actions,
    tag: n.tag,
    attrs: n.attrs,
    box: [n.box[0] + offset[0], n.box[1] + offset[1], n.box[2], n.box[3]],
    inView: visible && n.inView,
    depth: n.depth + depthOffset,
    frameId,
  };
  if (n.id) node.ref = page.refs.refFor(frame, frameId, docKey, n.id, n.role, n.name);
  if (n.text) node.text = n.text;
  if (n.value !== undefined) node.value = n.value;
  if (n.level !== undefined) node.level = n.level;
  if (n.opaque) node.opaque = n.opaque;
  return node;
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

/** Did anything change in the frames since this snapshot? One cheap call per frame. */
export async function changedSince(snap: Snapshot, page: BrowPage): Promise<boolean> {
  if (snap.documentGeneration !== page.documentGeneration) return true;
  const live = new Set(page.raw.frames());
  if (snap.frames.some((f) => !live.has(f)) || live.size !== snap.frames.length) return true;
  const seqs = await Promise.all(
    snap.frames.map((f) =>
      withApi(f, (api) => ({ key: api.docKey, seq: api.mutations().seq })).catch(() => null),
    ),
  );
  return seqs.some((s) => !s || snap.frameSeqs.get(s.key) !== s.seq);
}
