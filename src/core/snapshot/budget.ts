/** Keep a snapshot answer within max_chars, viewport first, with a cursor to continue. */

export interface Paged {
  /** Line indexes shown on this page, in document order. */
  shown: number[];
  truncated: boolean;
  /** Where the next page starts in `order`, when truncated. */
  nextOffset: number | null;
}

/**
 * The reading order: lines in the viewport, then those after it, then those before it.
 * `inView[i]` says whether line i is on screen.
 */
export function readingOrder(inView: boolean[]): number[] {
  const first = inView.indexOf(true);
  if (first < 0) return inView.map((_, i) => i);
  let last = inView.lastIndexOf(true);
  if (last < first) last = first;
  const order: number[] = [];
  for (let i = first; i <= last; i++) order.push(i);
  for (let i = last + 1; i < inView.length; i++) order.push(i);
  for (let i = 0; i < first; i++) order.push(i);
  return order;
}

/** Take lines from `order` starting at `offset` until the budget is spent (at least one line). */
export function takePage(lines: string[], order: number[], offset: number, maxChars: number): Paged {
  const shown: number[] = [];
  let used = 0;
  let i = offset;
  for (; i < order.length; i++) {
    const len = lines[order[i]!]!.length + 1;
    if (used + len > maxChars && shown.length > 0) break;
    shown.push(order[i]!);
    used += len;
  }
  shown.sort((a, b) => a - b);
  const more = i < order.length;
  return { shown, truncated: more || offset > 0, nextOffset: more ? i : null };
}
