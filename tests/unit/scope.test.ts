/** selectScope / limitDepth / withAncestors / hiddenContent on crafted node lists (depth = tree depth). */
import { describe, expect, it } from 'vitest';
import {
  hiddenContent,
  isInteractive,
  limitDepth,
  selectScope,
  withAncestors,
} from '../../src/core/snapshot/scope.js';
import type { SnapNode } from '../../src/core/snapshot/snapshot.js';
import { node } from './node.js';

/**
 * 0 main
 * 1   generic
 * 2     form
 * 3       textbox (fill)
 * 4       text "hint"
 * 5     generic (scroll only: a pane)
 * 6       button disabled
 * 7   heading
 * 8   paragraph
 * 9     link (click)
 * 10  generic
 * 11    text "off screen"
 * 12 canvas (opaque)
 */
const page: SnapNode[] = [
  node({ role: 'main', depth: 0 }),
  node({ role: 'generic', depth: 1 }),
  node({ role: 'form', depth: 2 }),
  node({ role: 'textbox', ref: 'e1', name: 'Name', actions: ['fill'], depth: 3 }),
  node({ role: 'text', name: 'hint', depth: 3 }),
  node({ role: 'generic', ref: 'e2', actions: ['scroll'], depth: 2 }),
  node({ role: 'button', ref: 'e3', name: 'Send', states: ['disabled'], depth: 3 }),
  node({ role: 'heading', name: 'Title', level: 2, depth: 1 }),
  node({ role: 'paragraph', depth: 1, inView: false }),
  node({ role: 'link', ref: 'e4', name: 'More', actions: ['click'], depth: 2, inView: false }),
  node({ role: 'generic', depth: 1, inView: false }),
  node({ role: 'text', name: 'off screen', depth: 2, inView: false }),
  node({ role: 'img', ref: 'e5', opaque: 'canvas', depth: 0, inView: false }),
];

describe('selectScope', () => {
  it('full, subtree and changes keep every node', () => {
    const all = page.map((_, i) => i);
    expect(selectScope(page, 'full')).toEqual(all);
    expect(selectScope(page, 'subtree')).toEqual(all);
    expect(selectScope(page, 'changes')).toEqual(all);
  });

  it('interactive: controls, disabled widgets, headings and opaque nodes, with context containers and panes only', () => {
    // kept: main (context), form (context), textbox, pane (scroll-only ancestor of the disabled
    // button), button, heading, link, canvas; dropped: plain generics, the paragraph, texts
    expect(selectScope(page, 'interactive')).toEqual([0, 2, 3, 5, 6, 7, 9, 12]);
  });

  it('viewport: nodes in view with all their ancestors, whatever their role', () => {
    // the off-screen link's paragraph is out of view and so is the link: both go
    expect(selectScope(page, 'viewport')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // an in-view node under an off-screen ancestor keeps that ancestor
    const nested = [node({ role: 'list', depth: 0, inView: false }), node({ role: 'listitem', depth: 1 })];
    expect(selectScope(nested, 'viewport')).toEqual([0, 1]);
  });
});

describe('isInteractive', () => {
  it('acting actions count, scroll alone does not; a disabled widget counts, a disabled non-widget does not', () => {
    expect(isInteractive(node({ role: 'generic', actions: ['click'] }))).toBe(true);
    expect(isInteractive(node({ role: 'generic', actions: ['scroll'] }))).toBe(false);
    expect(isInteractive(node({ role: 'checkbox', states: ['disabled'] }))).toBe(true);
    expect(isInteractive(node({ role: 'paragraph', states: ['disabled'] }))).toBe(false);
    expect(isInteractive(node({ role: 'button' }))).toBe(false);
  });
});

describe('withAncestors', () => {
  it('keeps accepted ancestors only, and siblings do not count as ancestors', () => {
    const nodes = [
      node({ role: 'a', depth: 0 }),
      node({ role: 'b', depth: 1 }),
      node({ role: 'c', depth: 1 }), // sibling of b, after it
      node({ role: 'want', depth: 2 }),
      node({ role: 'want', depth: 0 }), // a new top-level node: no ancestors
    ];
    const want = (n: SnapNode) => n.role === 'want';
    expect(withAncestors(nodes, want, () => true)).toEqual([0, 2, 3, 4]);
    expect(withAncestors(nodes, want, (n) => n.role === 'a')).toEqual([0, 3, 4]);
    expect(
      withAncestors(
        nodes,
        () => false,
        () => true,
      ),
    ).toEqual([]);
  });

  it('an ancestor kept for one descendant still lets a rejected ancestor be skipped for the next', () => {
    // a (kept) > x (rejected) > want, want: the second want stops at x? x is not kept, so it walks on to a
    const nodes = [
      node({ role: 'a', depth: 0 }),
      node({ role: 'x', depth: 1 }),
      node({ role: 'want', depth: 2 }),
      node({ role: 'want', depth: 2 }),
    ];
    expect(
      withAncestors(
        nodes,
        (n) => n.role === 'want',
        (n) => n.role === 'a',
      ),
    ).toEqual([0, 2, 3]);
  });
});

describe('limitDepth', () => {
  it('counts shown ancestors, not raw depth', () => {
    // raw depths 0, 3, 7: shown as levels 0, 1, 2
    const nodes = [
      node({ role: 'a', depth: 0 }),
      node({ role: 'b', depth: 3 }),
      node({ role: 'c', depth: 7 }),
    ];
    expect(limitDepth(nodes, [0, 1, 2], 0)).toEqual([0]);
    expect(limitDepth(nodes, [0, 1, 2], 1)).toEqual([0, 1]);
    expect(limitDepth(nodes, [0, 1, 2], 2)).toEqual([0, 1, 2]);
    // with b hidden by the scope, c is one level under a
    expect(limitDepth(nodes, [0, 2], 1)).toEqual([0, 2]);
  });

  it('a sibling after a deep subtree is back at its own level', () => {
    const nodes = [
      node({ role: 'a', depth: 0 }),
      node({ role: 'b', depth: 1 }),
      node({ role: 'c', depth: 2 }),
      node({ role: 'd', depth: 1 }),
      node({ role: 'e', depth: 0 }),
    ];
    expect(limitDepth(nodes, [0, 1, 2, 3, 4], 1)).toEqual([0, 1, 3, 4]);
  });
});

describe('hiddenContent', () => {
  it('labels a nameless ref with the words of hidden descendants, skipping shown subtrees', () => {
    const nodes = [
      node({ role: 'generic', ref: 'e1', actions: ['click'], depth: 0 }),
      node({ role: 'img', name: 'Trash', depth: 1 }),
      node({ role: 'button', ref: 'e2', name: 'Inner', actions: ['click'], depth: 1 }), // shown
      node({ role: 'text', name: 'inside shown', depth: 2 }), // under a shown node: its words
      node({ role: 'text', name: 'can', depth: 1 }),
      node({ role: 'text', name: 'next sibling', depth: 0 }), // not a descendant
    ];
    const out = hiddenContent(nodes, [0, 2]);
    expect(out).toEqual(new Map([[0, 'Trash can']]));
  });

  it('leaves alone nodes with a name or text, refless nodes and text nodes', () => {
    const child = node({ role: 'text', name: 'word', depth: 1 });
    for (const parent of [
      node({ role: 'generic', ref: 'e1', name: 'Named', depth: 0 }),
      node({ role: 'generic', ref: 'e1', text: 'has text', depth: 0 }),
      node({ role: 'generic', depth: 0 }),
      node({ role: 'text', ref: 'e1', depth: 0 }),
    ]) {
      expect(hiddenContent([parent, child], [0]).size, JSON.stringify(parent)).toBe(0);
    }
  });

  it('stops reading at 80 chars; past 80 it clips with an ellipsis, at exactly 80 it does not', () => {
    const item = (...names: string[]) => [
      node({ role: 'listitem', ref: 'e1', depth: 0 }),
      ...names.map((name) => node({ role: 'text', name, depth: 1 })),
    ];
    // 50 + 1 + 40 = 91 chars: clipped to 79 and an ellipsis; the third word is never read
    const long = hiddenContent(item('w'.repeat(50), 'v'.repeat(40), 'never'), [0]).get(0)!;
    expect(long).toBe(`${'w'.repeat(50)} ${'v'.repeat(28)}…`);
    expect(long).toHaveLength(80);
    // 39 + 1 + 40 = 80 chars exactly: whole
    expect(hiddenContent(item('a'.repeat(39), 'b'.repeat(40), 'never'), [0]).get(0)).toBe(
      `${'a'.repeat(39)} ${'b'.repeat(40)}`,
    );
  });
});
