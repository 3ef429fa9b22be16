/**
 * The one walk behind every listing form: seed 001's lines, seed 002's outline and the data form's
 * tree nest the same nodes the same way.
 */
import { describe, expect, it } from 'vitest';
import { treeOf, type TreeNode } from '../../src/core/snapshot/list-elements.js';
import { renderLines } from '../../src/core/snapshot/render-lines.js';
import { renderOutline } from '../../src/core/snapshot/render-outline.js';
import type { SnapNode } from '../../src/core/snapshot/snapshot.js';
import { node } from './node.js';

// main > [section > heading] [section > div > button]: the sections and the div are unnamed
// wrappers the outline skips
const page: SnapNode[] = [
  node({ role: 'main', name: 'Shop', depth: 0, ref: 'e1' }),
  node({ role: 'generic', depth: 1 }),
  node({ role: 'heading', name: 'Basket', level: 2, depth: 2, ref: 'e2' }),
  node({ role: 'generic', depth: 1 }),
  node({ role: 'generic', depth: 2 }),
  node({ role: 'button', name: 'Pay', depth: 3, ref: 'e3', actions: ['click'] }),
];

/** Each line's indentation, as a number of levels. */
const levels = (lines: string[]): number[] => lines.map((l) => (l.length - l.trimStart().length) / 2);

/** The tree as (name, level) pairs in document order. */
function flatten(roots: TreeNode[], level = 0): [string, number][] {
  return roots.flatMap((n) => [[n.name, level] as [string, number], ...flatten(n.children, level + 1)]);
}

describe('the shown-node walk', () => {
  it('a node after a skipped wrapper is not nested under the previous branch', () => {
    // the button's nearest shown ancestor is main, not the heading that came before it
    expect(renderOutline(page)).toEqual([
      '- main "Shop" [ref=e1]',
      '  - heading "Basket" [level=2] [ref=e2]',
      '  - button "Pay" [ref=e3]',
    ]);
  });

  it('lines and tree agree on nesting for the same shown nodes', () => {
    const shown = [0, 2, 5];
    expect(levels(renderLines(page, shown))).toEqual([0, 1, 1]);
    expect(flatten(treeOf(page, shown))).toEqual([
      ['Shop', 0],
      ['Basket', 1],
      ['Pay', 1],
    ]);
  });

  it('the tree nests in document order whatever order the page shows its nodes in', () => {
    expect(flatten(treeOf(page, [5, 2, 0]))).toEqual(flatten(treeOf(page, [0, 2, 5])));
  });
});
