/** A SnapNode built from the fields a test cares about (the rest as a walk would give them; role generic). */
import type { SnapNode } from '../../src/core/snapshot/snapshot.js';

export function node(fields: Partial<SnapNode>): SnapNode {
  return {
    role: 'generic',
    name: '',
    states: [],
    actions: [],
    tag: 'div',
    attrs: {},
    box: [0, 0, 10, 10],
    inView: true,
    depth: 0,
    frameId: 'main',
    ...fields,
  };
}
