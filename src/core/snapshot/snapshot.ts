/** Take a snapshot of a page: walk every frame in the page, stitch frames in, assign page refs. */
import type { Frame } from 'puppeteer-core';
import { newId } from '../ids.js';
import type { BrowPage } from '../session/page.js';
import type { WalkNode, WalkResult } from './injected/types.js';
import { withApi } from './page-script.js';

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

/** Walk the page (all frames, any depth) into one outline. */
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

  const walkFrame = async (frame: Frame, depthOffset: number, offset: [number, number], visible: boolean) => {
    let res: WalkResult;
    try {
      res = await withApi(
        frame,
        (api, o: { maxNodes: number; rootId?: number }) => api.walk(o),
        { maxNodes: opts.maxNodes ?? MAX_NODES, ...(frame === startFrame && root ? { rootId: root.localId } : {}) },
      );
    } catch (e) {
      return { nodes: [opaqueNode(frame, depthOffset, `frame-unreachable: ${String(e).split('\n')[0]}`)], res: null };
    }
    frames.push(frame);
    frameSeqs.set(res.docKey, res.mutationSeq);
    if (res.truncated) truncated = true;
    const fid = frameIdOf(frame);
    const out: SnapNode[] = [];
    const childFrames = frame.childFrames();
    const owners = childFrames.length > 0 ? await frameOwners(frame, childFrames) : new Map<number, Frame>();
    const childWalks = new Map<number, Promise<{ nodes: SnapNode[] }>>();
    for (const n of res.nodes) {
      if (n.frame && n.id && owners.has(n.id)) {
        const child = owners.get(n.id)!;
        const box = n.box;
        childWalks.set(
          n.id,
          walkFrame(child, depthOffset + n.depth + 1, [offset[0] + box[0], offset[1] + box[1]], visible && n.inView),
        );
      }
    }
    const childResults = new Map<number, SnapNode[]>();
    await Promise.all(
      [...childWalks].map(async ([id, p]) => {
        childResults.set(id, (await p).nodes);
      }),
    );
    for (const n of res.nodes) {
      out.push(toSnapNode(page, frame, fid, res.docKey, n, depthOffset, offset, visible));
      const kids = n.id ? childResults.get(n.id) : undefined;
      if (kids) out.push(...kids);
    }
    return { nodes: out, res };
  };

  const top = await walkFrame(startFrame, 0, [0, 0], true);
  const mainRes = top.res;
  return {
    id: newId('snap'),
    pageId: page.id,
    documentGeneration: page.documentGeneration,
    url: mainRes?.url ?? page.url(),
    title: mainRes?.title ?? '',
    viewport: mainRes?.viewport ?? { width: 0, height: 0, scrollX: 0, scrollY: 0, scrollWidth: 0, scrollHeight: 0 },
    nodes: top.nodes,
    truncated,
    createdAt: Date.now(),
    frameSeqs,
    frames,
  };
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

/** Map each child frame to its owner element's local id in the parent document. */
async function frameOwners(parent: Frame, children: Frame[]): Promise<Map<number, Frame>> {
  const out = new Map<number, Frame>();
  await Promise.all(
    children.map(async (child) => {
      try {
        const handle = await child.frameElement();
        if (!handle) return;
        try {
          const id = await parent.evaluate(
            (el) => (globalThis as any)[Symbol.for('brow.page')]?.idOf(el) ?? 0,
            handle,
          );
          if (id) out.set(id as number, child);
        } finally {
          await handle.dispose();
        }
      } catch {
        // a frame that detached meanwhile simply has no content
      }
    }),
  );
  return out;
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
