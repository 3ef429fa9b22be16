/** The seed-002 outline renderer and the trigger flow control, as pure functions. */
import { describe, expect, it } from 'vitest';
import { diffOutline, outlineLine, renderOutline, stripRef } from '../../src/core/snapshot/render-outline.js';
import { Bucket } from '../../src/doors/bus/flow.js';
import { node } from '../unit/node.js';

describe('outline lines', () => {
  it('renders role, quoted name, value, level, states and ref', () => {
    expect(outlineLine(node({ role: 'button', name: 'Send', ref: 'e3' }))).toBe('- button "Send" [ref=e3]');
    expect(
      outlineLine(node({ role: 'textbox', name: 'Name', value: 'Ada', states: ['focused'], ref: 'e4' })),
    ).toBe('- textbox "Name" = "Ada" [focused] [ref=e4]');
    expect(outlineLine(node({ role: 'heading', name: 'Title', level: 2, ref: 'e1' }))).toBe(
      '- heading "Title" [level=2] [ref=e1]',
    );
    expect(outlineLine(node({ role: 'text', name: 'He said "hi"' }))).toBe('- text "He said \\"hi\\""');
  });

  it('cuts names at 120 characters', () => {
    const line = outlineLine(node({ role: 'link', name: 'x'.repeat(300), ref: 'e9' }))!;
    expect(line).toBe(`- link "${'x'.repeat(119)}…" [ref=e9]`);
  });

  it('skips unnamed wrappers and promotes their children, but keeps what can be acted on', () => {
    expect(outlineLine(node({ role: 'generic' }))).toBeNull();
    expect(outlineLine(node({ role: 'paragraph' }))).toBeNull();
    expect(outlineLine(node({ role: 'generic', actions: ['click'], ref: 'e2' }))).toBe('- generic [ref=e2]');
    const lines = renderOutline([
      node({ role: 'list', name: 'Menu', depth: 0, ref: 'e1' }),
      node({ role: 'generic', depth: 1 }),
      node({ role: 'listitem', name: 'One', depth: 2, ref: 'e2' }),
      node({ role: 'link', name: 'Go', depth: 3, ref: 'e3' }),
      node({ role: 'button', name: 'After', depth: 0, ref: 'e4' }),
    ]);
    expect(lines).toEqual([
      '- list "Menu" [ref=e1]',
      '  - listitem "One" [ref=e2]',
      '    - link "Go" [ref=e3]',
      '- button "After" [ref=e4]',
    ]);
  });
});

describe('outline diff', () => {
  it('compares lines with refs stripped, as multisets', () => {
    expect(stripRef('  - button "Send" [ref=e12]')).toBe('  - button "Send"');
    const before = ['- heading "A" [ref=e1]', '- button "X" [ref=e2]', '- button "X" [ref=e3]'];
    const after = ['- heading "A" [ref=e7]', '- button "X" [ref=e2]', '- text "new"'];
    expect(diffOutline(before, after)).toEqual({
      added: ['- text "new"'],
      removed: ['- button "X" [ref=e3]'],
      unchanged: 2,
    });
    expect(diffOutline(after, after)).toEqual({ added: [], removed: [], unchanged: 3 });
  });
});

describe('trigger flow control', () => {
  it('admits a burst, then the configured rate, and counts what it drops', () => {
    const b = new Bucket({ ratePerSecond: 10, burst: 5, maxBufferedBytes: 1 });
    const t0 = performance.now();
    const admitted = Array.from({ length: 8 }, () => b.admit(t0)).filter(Boolean).length;
    expect(admitted).toBe(5);
    expect(b.dropped).toBe(3);
    expect(b.admit(t0 + 150)).toBe(true); // 150 ms at 10/s refills one token (and a half)
    expect(b.admit(t0 + 150)).toBe(false);
  });
});
