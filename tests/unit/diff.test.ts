/** diffOutlines / renderDiff on crafted outlines: what an action's "Changes:" block reports. */
import { describe, expect, it } from 'vitest';
import { diffOutlines, isEmptyDiff, renderDiff } from '../../src/core/snapshot/diff.js';
import { node } from './node.js';

const button = (ref: string, name: string, more = {}) =>
  node({ role: 'button', ref, name, actions: ['click'], ...more });
const text = (name: string) => node({ role: 'text', name });

describe('diffOutlines', () => {
  it('equal outlines (fresh objects, not shared) give no change', () => {
    const make = () => [button('e1', 'Save'), text('Hello'), button('e2', 'Cancel')];
    const d = diffOutlines(make(), make());
    expect(isEmptyDiff(d)).toBe(true);
    expect(d.truncated).toBe(false);
    expect(renderDiff(d)).toBe('Changes: none observed');
  });

  it('a renamed element is one changed line with its old line, not an add and a remove', () => {
    const d = diffOutlines([button('e1', 'Save')], [button('e1', 'Saved')]);
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([
      '[button ref=e1 actions=click] Saved (was: [button ref=e1 actions=click] Save)',
    ]);
  });

  it('focus moving is not a change, but another state changing with it is (shown without focused)', () => {
    const before = [node({ role: 'textbox', ref: 'e1', name: 'Q', actions: ['fill'] })];
    const focused = [node({ role: 'textbox', ref: 'e1', name: 'Q', actions: ['fill'], states: ['focused'] })];
    expect(isEmptyDiff(diffOutlines(before, focused))).toBe(true);
    expect(isEmptyDiff(diffOutlines(focused, before))).toBe(true);
    const invalid = [
      node({ role: 'textbox', ref: 'e1', name: 'Q', actions: ['fill'], states: ['focused', 'invalid'] }),
    ];
    const d = diffOutlines(before, invalid);
    expect(d.changed).toEqual([
      '[textbox ref=e1 invalid actions=fill] Q (was: [textbox ref=e1 actions=fill] Q)',
    ]);
  });

  it('a value changed past what the line shows is still a change, told by where it parts', () => {
    const long = 'x'.repeat(100);
    const edited = `${'x'.repeat(90)}Y${'x'.repeat(9)}`;
    const box = (value: string) =>
      node({ role: 'textbox', ref: 'e3', name: 'Body', value, actions: ['fill'] });
    const d = diffOutlines([box(long)], [box(edited)]);
    expect(d.changed).toHaveLength(1);
    const line = d.changed[0]!;
    // both lines show only the first 79 chars: the change names the first differing char (91)
    expect(line).toMatch(
      /^\[textbox ref=e3 value=".*…" value_length=100 actions=fill\] Body \(value changed from char 91: /,
    );
    expect(line).toContain(JSON.stringify(`…${'x'.repeat(10)}Y${'x'.repeat(9)}`));
    expect(line).toContain(`was ${JSON.stringify(`…${'x'.repeat(20)}`)}`);
  });

  it('names that differ only past the clipped label render the same line: no change', () => {
    const a = button('e1', `${'n'.repeat(200)}A`);
    const b = button('e1', `${'n'.repeat(200)}B`);
    expect(isEmptyDiff(diffOutlines([a], [b]))).toBe(true);
  });

  it('text lines pair by content, counting duplicates', () => {
    const d = diffOutlines([text('Row'), text('Row'), text('Other')], [text('Row'), text('New')]);
    expect(d.added).toEqual(['New']);
    expect(d.removed.sort()).toEqual(['Other', 'Row']);
    expect(d.changed).toEqual([]);
    // a reordering of the same lines is no change
    expect(isEmptyDiff(diffOutlines([text('a'), text('b')], [text('b'), text('a')]))).toBe(true);
  });

  it('a ref that appears or goes is added or removed', () => {
    const d = diffOutlines(
      [button('e1', 'Keep'), button('e2', 'Gone')],
      [button('e1', 'Keep'), button('e9', 'New')],
    );
    expect(d.added).toEqual(['[button ref=e9 actions=click] New']);
    expect(d.removed).toEqual(['[button ref=e2 actions=click] Gone']);
    expect(d.changed).toEqual([]);
  });

  it('nodes shared by both walks at the ends are skipped without hiding a change between them', () => {
    const head = button('e1', 'Head');
    const tail = text('Tail');
    const d = diffOutlines([head, button('e2', 'Mid'), tail], [head, button('e2', 'Middle'), tail]);
    expect(d.changed).toEqual([
      '[button ref=e2 actions=click] Middle (was: [button ref=e2 actions=click] Mid)',
    ]);
    // one shared node moved from the start to the end is still the same set of lines
    const moved = text('Moved');
    expect(isEmptyDiff(diffOutlines([moved, head, tail], [head, tail, moved]))).toBe(true);
    // a shared node at one end and a new node at the other
    const d2 = diffOutlines([head], [head, text('Added')]);
    expect(d2.added).toEqual(['Added']);
    expect(d2.removed).toEqual([]);
  });

  it('fields the line shows all count: level, min/max, opaque, description, actions, text', () => {
    const base = node({ role: 'heading', ref: 'e5', name: 'T', level: 2 });
    const cases = [
      { level: 3 },
      { valueMin: 1 },
      { valueMax: 9 },
      { opaque: 'canvas' },
      { actions: ['click'] },
      { text: 'more words' },
    ];
    for (const c of cases) {
      const d = diffOutlines([base], [{ ...base, ...c }]);
      expect(d.changed, JSON.stringify(c)).toHaveLength(1);
    }
    // a description shows only on a node without a name
    const unnamed = node({ role: 'img', ref: 'e6', name: '', description: 'fill #ff0000' });
    expect(diffOutlines([unnamed], [{ ...unnamed, description: 'fill #00ff00' }]).changed).toEqual([
      '[img ref=e6] — fill #00ff00 (was: [img ref=e6] — fill #ff0000)',
    ]);
    // fields no line shows (box, inView, tag, attrs) are no change
    const moved = {
      ...base,
      box: [5, 5, 1, 1] as [number, number, number, number],
      inView: false,
      tag: 'h3',
    };
    expect(isEmptyDiff(diffOutlines([base], [moved]))).toBe(true);
  });

  it('limit caps each kind and says so; renderDiff lists added, removed, changed in that order', () => {
    const before = [button('e1', 'A'), ...Array.from({ length: 4 }, (_, i) => text(`old ${i}`))];
    const after = [button('e1', 'B'), ...Array.from({ length: 4 }, (_, i) => text(`new ${i}`))];
    const d = diffOutlines(before, after, 2);
    expect(d.added).toEqual(['new 0', 'new 1']);
    expect(d.removed).toHaveLength(2);
    expect(d.changed).toHaveLength(1);
    expect(d.truncated).toBe(true);
    expect(renderDiff(d).split('\n')).toEqual([
      'Changes:',
      '- Added: new 0',
      '- Added: new 1',
      `- Removed: ${d.removed[0]}`,
      `- Removed: ${d.removed[1]}`,
      '- Changed: [button ref=e1 actions=click] B (was: [button ref=e1 actions=click] A)',
      '- (more changes not shown; take a full snapshot)',
    ]);
    // exactly at the limit is not truncated
    expect(diffOutlines([], [text('a'), text('b')], 2).truncated).toBe(false);
  });

  it('empty before or after: all added or all removed', () => {
    expect(diffOutlines([], [text('a'), button('e1', 'b')]).added).toEqual([
      'a',
      '[button ref=e1 actions=click] b',
    ]);
    expect(diffOutlines([text('a')], []).removed).toEqual(['a']);
    expect(isEmptyDiff(diffOutlines([], []))).toBe(true);
  });
});
