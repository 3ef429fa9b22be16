/**
 * The compact form a walk travels in. One JSON text per walk: every string once in `strs`, every
 * node a run of numbers in `data`. Objects with repeated keys made the walk of a 45k-node page a
 * 3.4 MB string whose transfer and parse cost several times the walk itself; this is about a
 * third of that and parses as plain number arrays. Decoded by ../wire.ts.
 */
import { SafeMap } from './collections.js';
import { jsonStringify } from './natives.js';
import type { WalkNode, WalkResult } from './types.js';
import type { WalkDelta } from './held-walk.js';
import { LIST_SEP, WIRE, type WireWalk } from './wire-format.js';

/**
 * Encode a walk's nodes; returns the JSON text. With a delta only the nodes between its prefix and
 * suffix travel (see held-walk.ts).
 */
export function encodeWalk(
  res: Omit<WalkResult, 'nodes'>,
  nodes: WalkNode[],
  walkId?: string,
  delta?: WalkDelta | null,
): string {
  const strs: string[] = [];
  const index = new SafeMap<string, number>();
  const str = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strs.length;
      strs[i] = s;
      index.set(s, i);
    }
    return i;
  };
  const list = (xs: string[]): number => {
    let s = '';
    for (let i = 0; i < xs.length; i++) s += (i ? LIST_SEP : '') + xs[i]!;
    return str(s);
  };
  const data: (number | null)[] = [];
  let k = 0;
  const from = delta ? delta.prefix : 0;
  const to = delta ? nodes.length - delta.suffix : nodes.length;
  for (let i = from; i < to; i++) {
    const n = nodes[i]!;
    let flags = n.inView ? WIRE.IN_VIEW : 0;
    if (n.frame) flags |= WIRE.FRAME;
    if (n.text) flags |= WIRE.TEXT;
    if (n.value !== undefined) flags |= WIRE.VALUE;
    if (n.level !== undefined) flags |= WIRE.LEVEL;
    if (n.opaque) flags |= WIRE.OPAQUE;
    if (n.states.length > 0) flags |= WIRE.STATES;
    if (n.actions.length > 0) flags |= WIRE.ACTIONS;
    let attrNames: string[] | null = null;
    for (const name in n.attrs) (attrNames ??= [])[attrNames.length] = name;
    if (attrNames) flags |= WIRE.ATTRS;
    if (n.frameInset) flags |= WIRE.INSET;
    const ranged = n.valueMin !== undefined || n.valueMax !== undefined;
    if (ranged) flags |= WIRE.RANGE;
    if (n.description) flags |= WIRE.DESCRIPTION;
    data[k++] = flags;
    data[k++] = n.id;
    data[k++] = n.depth;
    data[k++] = str(n.role);
    data[k++] = str(n.name);
    data[k++] = str(n.tag);
    data[k++] = n.box[0];
    data[k++] = n.box[1];
    data[k++] = n.box[2];
    data[k++] = n.box[3];
    if (flags & WIRE.TEXT) data[k++] = str(n.text!);
    if (flags & WIRE.VALUE) data[k++] = str(n.value!);
    if (flags & WIRE.LEVEL) data[k++] = n.level!;
    if (flags & WIRE.OPAQUE) data[k++] = str(n.opaque!);
    if (flags & WIRE.STATES) data[k++] = list(n.states);
    if (flags & WIRE.ACTIONS) data[k++] = list(n.actions);
    if (attrNames) {
      data[k++] = attrNames.length;
      for (let j = 0; j < attrNames.length; j++) {
        data[k++] = str(attrNames[j]!);
        data[k++] = str(n.attrs[attrNames[j]!]!);
      }
    }
    if (n.frameInset) {
      data[k++] = n.frameInset[0];
      data[k++] = n.frameInset[1];
    }
    if (ranged) {
      data[k++] = n.valueMin ?? null;
      data[k++] = n.valueMax ?? null;
    }
    if (flags & WIRE.DESCRIPTION) data[k++] = str(n.description!);
  }
  const wire: WireWalk = {
    docKey: res.docKey,
    mutationSeq: res.mutationSeq,
    stamp: res.stamp,
    url: res.url,
    title: res.title,
    viewport: res.viewport,
    truncated: res.truncated,
    strs,
    data,
    count: to - from,
  };
  if (walkId !== undefined) wire.walkId = walkId;
  if (delta)
    wire.delta = { since: delta.since, prefix: delta.prefix, suffix: delta.suffix, total: nodes.length };
  return jsonStringify(wire);
}
