/** readingOrder / takePage: a snapshot answer within max_chars, viewport first, pageable to the end. */
import { describe, expect, it } from 'vitest';
import { readingOrder, takePage } from '../../src/core/snapshot/budget.js';

/** Every page from offset 0 until nextOffset is null. */
function allPages(lines: string[], order: number[], maxChars: number) {
  const pages = [];
  let offset: number | null = 0;
  for (let guard = 0; offset !== null && guard < 1000; guard++) {
    const page = takePage(lines, order, offset, maxChars);
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

describe('readingOrder', () => {
  it('viewport lines first, then those after, then those before', () => {
    expect(readingOrder([false, false, true, true, false, false])).toEqual([2, 3, 4, 5, 0, 1]);
  });

  it('lines between the first and last in view count as in view (a gap inside the viewport)', () => {
    expect(readingOrder([false, true, false, true, false])).toEqual([1, 2, 3, 4, 0]);
  });

  it('nothing in view: document order; everything in view: document order', () => {
    expect(readingOrder([false, false, false])).toEqual([0, 1, 2]);
    expect(readingOrder([true, true, true])).toEqual([0, 1, 2]);
    expect(readingOrder([])).toEqual([]);
  });

  it('is a permutation of every line', () => {
    const inView = Array.from({ length: 50 }, (_, i) => i % 7 === 3 && i > 20 && i < 40);
    const order = readingOrder(inView);
    expect([...order].sort((a, b) => a - b)).toEqual(inView.map((_, i) => i));
  });
});

describe('takePage', () => {
  const lines = ['aaaa', 'bbbb', 'cccc', 'dddd']; // 5 chars each with the newline

  it('takes whole lines while they fit, counting one newline per line', () => {
    const order = [0, 1, 2, 3];
    expect(takePage(lines, order, 0, 10)).toEqual({ shown: [0, 1], truncated: true, nextOffset: 2 });
    // one char short of a third line
    expect(takePage(lines, order, 0, 14)).toEqual({ shown: [0, 1], truncated: true, nextOffset: 2 });
    expect(takePage(lines, order, 0, 15)).toEqual({ shown: [0, 1, 2], truncated: true, nextOffset: 3 });
    expect(takePage(lines, order, 0, 20)).toEqual({
      shown: [0, 1, 2, 3],
      truncated: false,
      nextOffset: null,
    });
  });

  it('always shows at least one line, even one longer than the budget', () => {
    const long = ['x'.repeat(100), 'y'];
    expect(takePage(long, [0, 1], 0, 10)).toEqual({ shown: [0], truncated: true, nextOffset: 1 });
    expect(takePage(long, [0, 1], 1, 10)).toEqual({ shown: [1], truncated: true, nextOffset: null });
  });

  it('shown lines are in document order though taken in reading order', () => {
    const order = readingOrder([false, false, true, true]); // [2, 3, 0, 1]
    expect(takePage(lines, order, 0, 15)).toEqual({ shown: [0, 2, 3], truncated: true, nextOffset: 3 });
  });

  it('a later page is truncated (it is not the whole) even when it reaches the end', () => {
    expect(takePage(lines, [0, 1, 2, 3], 2, 100)).toEqual({
      shown: [2, 3],
      truncated: true,
      nextOffset: null,
    });
  });

  it('paging from offset 0 shows every line exactly once, within the budget', () => {
    const many = Array.from({ length: 97 }, (_, i) => `line ${i} ${'·'.repeat(i % 13)}`);
    const order = readingOrder(many.map((_, i) => i >= 40 && i < 55));
    const pages = allPages(many, order, 60);
    const seen = pages.flatMap((p) => p.shown);
    expect([...seen].sort((a, b) => a - b)).toEqual(many.map((_, i) => i));
    for (const p of pages) {
      const used = p.shown.reduce((sum, i) => sum + many[i]!.length + 1, 0);
      expect(used).toBeLessThanOrEqual(60);
    }
    // the first page starts with the viewport
    expect(pages[0]!.shown[0]).toBe(40);
  });

  it('an offset past the end shows nothing', () => {
    expect(takePage(lines, [0, 1, 2, 3], 4, 100)).toEqual({ shown: [], truncated: true, nextOffset: null });
  });
});
