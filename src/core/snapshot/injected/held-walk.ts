/**
 * The last whole walk of each kind (measured or lines only, at a node cap), held in the page so
 * the next walk of that kind can travel as what changed: the nodes between the longest common
 * head and tail of the two walks. After an action on a big page that is a few nodes instead of the
 * whole outline (on a 45,000-node table about 1 MB of wire text, 35 ms to send and 15 ms more to
 * parse and decode). Node holds the decoded walk under the same id (../wire.ts spliceWalk).
 */
import { SafeMap } from './collections.js';
import type { WalkNode } from './types.js';

interface Held {
  id: string;
  nodes: WalkNode[];
  boxes: boolean;
  maxNodes: number;
}

const held = new SafeMap<string, Held>();
let counter = 0;

/** What changed between the walk held as `since` and this one: how many nodes of each end stayed. */
export interface WalkDelta {
  since: string;
  prefix: number;
  suffix: number;
}

function sameList(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameAttrs(a: Record<string, string>, b: Record<string, string>): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _k in b) n--;
  return n === 0;
}

/** The same box and the same in-view flag. */
function sameBox(a: WalkNode, b: WalkNode): boolean {
  return (
    a.inView === b.inView &&
    a.box[0] === b.box[0] &&
    a.box[1] === b.box[1] &&
    a.box[2] === b.box[2] &&
    a.box[3] === b.box[3]
  );
}

/**
 * The same node as far as the wire carries it (every field wire.ts encodes); with `boxes` false
 * the box and the in-view flag are not compared (a walk that does not measure takes the held
 * walk's measured nodes where nothing else changed: its readers compare lines only).
 */
export function sameNode(a: WalkNode, b: WalkNode, boxes = true): boolean {
  if (a === b) return true; // a patched walk keeps the held walk's nodes where nothing changed
  return (
    a.id === b.id &&
    a.depth === b.depth &&
    a.role === b.role &&
    a.name === b.name &&
    a.tag === b.tag &&
    (!boxes || sameBox(a, b)) &&
    !a.frame === !b.frame &&
    (a.text || '') === (b.text || '') &&
    a.value === b.value &&
    a.level === b.level &&
    (a.opaque || '') === (b.opaque || '') &&
    a.valueMin === b.valueMin &&
    a.valueMax === b.valueMax &&
    (a.description || '') === (b.description || '') &&
    (a.frameInset?.[0] ?? null) === (b.frameInset?.[0] ?? null) &&
    (a.frameInset?.[1] ?? null) === (b.frameInset?.[1] ?? null) &&
    sameList(a.states, b.states) &&
    sameList(a.actions, b.actions) &&
    sameAttrs(a.attrs, b.attrs)
  );
}

/**
 * Hold this walk as the latest of its kind (measured or not, and its node cap) and name it (the
 * document's key in the name: ids never repeat across documents). When `since` names a walk held
 * here that this one can build on (same cap; measured, unless this one is not), also say how many
 * nodes at each end the two share (they never overlap).
 */
export function holdWalk(
  docKey: string,
  boxes: boolean,
  maxNodes: number,
  nodes: WalkNode[],
  since: string | undefined,
): { walkId: string; delta: WalkDelta | null } {
  let base: Held | null = null;
  if (since !== undefined) {
    held.forEach((h) => {
      if (h.id === since && h.maxNodes === maxNodes && (h.boxes || !boxes)) base = h;
    });
  }
  const walkId = `${docKey}:${++counter}`;
  held.set(`${boxes} ${maxNodes}`, { id: walkId, nodes, boxes, maxNodes });
  if (!base) return { walkId, delta: null };
  const old = (base as Held).nodes;
  const most = old.length < nodes.length ? old.length : nodes.length;
  let prefix = 0;
  while (prefix < most && sameNode(old[prefix]!, nodes[prefix]!, boxes)) prefix++;
  let suffix = 0;
  while (
    suffix < most - prefix &&
    sameNode(old[old.length - 1 - suffix]!, nodes[nodes.length - 1 - suffix]!, boxes)
  )
    suffix++;
  return { walkId, delta: { since: since!, prefix, suffix } };
}
