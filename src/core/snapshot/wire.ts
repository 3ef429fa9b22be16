/**
 * Reading a frame's walk in the compact wire form (injected/wire.ts) and decoding it straight into
 * page-wide outline nodes, without an intermediate object per node.
 */
import { BrowserError } from '../errors.js';
import type { Frame } from 'puppeteer-core';
import { LIST_SEP, VERIFY_FAILED, WIRE, type WireWalk } from './injected/wire-format.js';
import type { WalkOptions } from './injected/types.js';
import {
  API_PRELUDE,
  evaluateIn,
  MISSING,
  OTHER_BUILD,
  otherBuildError,
  pageScriptSource,
} from './page-script.js';
import type { SnapNode } from './snapshot.js';

/** One frame's walk, decoded. Refs are not assigned yet: `localIds[i]` is node i's id in its document. */
export interface FrameWalk extends Omit<WireWalk, 'strs' | 'data' | 'count' | 'delta'> {
  nodes: SnapNode[];
  localIds: number[];
  /** The frame owners among `nodes`: index, local id, and where the child frame's viewport starts. */
  owners: { index: number; id: number; origin: [number, number]; visible: boolean }[];
}

/** Check every patched walk against a whole one (the test suite sets it; see injected/incremental.ts). */
const VERIFY = process.env.BROW_VERIFY_WALKS === '1';

/**
 * Callers that treat a failed walk as "no outline" hand its error through this: with
 * BROW_VERIFY_WALKS a patched walk that differs from a whole one must fail the call, not vanish.
 */
export function unlessVerifyFailure<T>(fallback: T): (e: unknown) => T {
  return (e) => {
    if (VERIFY && String((e as Error)?.message ?? e).includes(VERIFY_FAILED)) throw e;
    return fallback;
  };
}

/** Walk a frame in the page and return the wire text (installing the script if the document lacks it). */
export async function walkWire(frame: Frame, opts: WalkOptions): Promise<WireWalk> {
  const expr =
    `(() => { ${API_PRELUDE}` +
    ` return api.walkWire(${JSON.stringify(VERIFY ? { ...opts, verify: true } : opts)}); })()`;
  let res = (await evaluateIn(frame, expr)) as string;
  if (res === MISSING) {
    await evaluateIn(frame, pageScriptSource());
    res = (await evaluateIn(frame, expr)) as string;
    if (res === MISSING) {
      throw new BrowserError(
        'snapshot_failed',
        "brow's in-page script could not be installed in this document.",
      );
    }
  }
  // a document another brow build set up (an attached browser): its API cannot be replaced
  if (res === OTHER_BUILD) throw otherBuildError();
  return JSON.parse(res) as WireWalk;
}

/**
 * Decode a wire walk into outline nodes placed in the page: depths shifted by `depthOffset`, boxes
 * by `offset` (where this frame's viewport sits in the page's), in view only when `visible`.
 */
export function decodeWalk(
  w: WireWalk,
  frameId: string,
  depthOffset: number,
  offset: [number, number],
  visible: boolean,
): FrameWalk {
  const { strs, count } = w;
  // null only in the range slots, which are read as they are
  const data = w.data as number[];
  const lists = new Map<number, string[]>();
  const list = (i: number): string[] => {
    let xs = lists.get(i);
    if (!xs) {
      xs = strs[i]!.split(LIST_SEP);
      lists.set(i, xs);
    }
    // each node gets its own array: callers may treat a node's lists as theirs
    return xs.slice();
  };
  const nodes: SnapNode[] = new Array<SnapNode>(count);
  const localIds: number[] = new Array<number>(count);
  const owners: FrameWalk['owners'] = [];
  const [ox, oy] = offset;
  let k = 0;
  for (let i = 0; i < count; i++) {
    const flags = data[k++]!;
    const id = data[k++]!;
    const depth = data[k++]! + depthOffset;
    const role = strs[data[k++]!]!;
    const name = strs[data[k++]!]!;
    const tag = strs[data[k++]!]!;
    const node: SnapNode = {
      role,
      name,
      states: [],
      actions: [],
      tag,
      attrs: {},
      box: [data[k++]! + ox, data[k++]! + oy, data[k++]!, data[k++]!],
      inView: visible && (flags & WIRE.IN_VIEW) !== 0,
      depth,
      frameId,
    };
    if (flags & WIRE.TEXT) node.text = strs[data[k++]!]!;
    if (flags & WIRE.VALUE) node.value = strs[data[k++]!]!;
    if (flags & WIRE.LEVEL) node.level = data[k++]!;
    if (flags & WIRE.OPAQUE) node.opaque = strs[data[k++]!]!;
    if (flags & WIRE.STATES) node.states = list(data[k++]!);
    if (flags & WIRE.ACTIONS) node.actions = list(data[k++]!);
    if (flags & WIRE.ATTRS) {
      const attrs: Record<string, string> = {};
      for (let j = data[k++]!; j > 0; j--) {
        const name = strs[data[k++]!]!;
        attrs[name] = strs[data[k++]!]!;
      }
      node.attrs = attrs;
    }
    let inset: [number, number] = [0, 0];
    if (flags & WIRE.INSET) inset = [data[k++]!, data[k++]!];
    if (flags & WIRE.RANGE) {
      const min = data[k++];
      const max = data[k++];
      if (typeof min === 'number') node.valueMin = min;
      if (typeof max === 'number') node.valueMax = max;
    }
    if (flags & WIRE.DESCRIPTION) node.description = strs[data[k++]!]!;
    if (flags & WIRE.FRAME && id) {
      owners.push({
        index: i,
        id,
        origin: [node.box[0] + inset[0], node.box[1] + inset[1]],
        visible: node.inView,
      });
    }
    nodes[i] = node;
    localIds[i] = id;
  }
  return {
    ...(w.walkId !== undefined ? { walkId: w.walkId } : {}),
    docKey: w.docKey,
    mutationSeq: w.mutationSeq,
    stamp: w.stamp,
    url: w.url,
    title: w.title,
    viewport: w.viewport,
    truncated: w.truncated,
    nodes,
    localIds,
    owners,
  };
}

/**
 * The whole walk from a walk that travelled as a change of `held` (see injected/held-walk.ts):
 * held's first `prefix` and last `suffix` nodes around the ones that travelled. Null when the
 * counts do not add up (then the caller walks again in full).
 */
export function spliceWalk(
  held: FrameWalk,
  mid: FrameWalk,
  delta: NonNullable<WireWalk['delta']>,
): FrameWalk | null {
  const n = held.nodes.length;
  const tailFrom = n - delta.suffix;
  if (delta.prefix > tailFrom || delta.prefix + mid.nodes.length + delta.suffix !== delta.total) return null;
  const shift = delta.prefix + mid.nodes.length - tailFrom;
  return {
    ...mid,
    nodes: held.nodes.slice(0, delta.prefix).concat(mid.nodes, held.nodes.slice(tailFrom)),
    localIds: held.localIds.slice(0, delta.prefix).concat(mid.localIds, held.localIds.slice(tailFrom)),
    owners: [
      ...held.owners.filter((o) => o.index < delta.prefix),
      ...mid.owners.map((o) => ({ ...o, index: o.index + delta.prefix })),
      ...held.owners.filter((o) => o.index >= tailFrom).map((o) => ({ ...o, index: o.index + shift })),
    ],
  };
}
