/**
 * Where visible text goes while walking: runs of text between block boundaries ("segments")
 * gather under the nearest emitted element; they become its `text` when it has no emitted
 * children, else text nodes between those children.
 */
import { hasText } from './text.js';
import type { WalkNode } from './types.js';

/** A run of text between block boundaries, with its first and last DOM text nodes (for its box). */
export interface Segment {
  text: string;
  first: Node;
  last: Node;
}

/** The text context of one emitted element (or of the top of the walk). */
export interface TextCtx {
  /** The nearest emitted element (null at the top of the walk). */
  node: WalkNode | null;
  /** Depth of nodes emitted inside. */
  depth: number;
  /** Emitted children so far. */
  children: number;
  /** Text of the current segment, uncollapsed. */
  pending: string;
  first: Node | null;
  last: Node | null;
  /** Finished segments not yet emitted. */
  segments: Segment[] | null;
  /** The text is already in an ancestor's name (name from content, or children presentational). */
  covered: boolean;
}

/** Add a DOM text node to the current segment. */
export function addText(ctx: TextCtx, node: Text, data: string): void {
  ctx.pending += data;
  if (!ctx.first) ctx.first = node;
  ctx.last = node;
}

/** Close the current segment (at a block boundary). */
export function endSegment(ctx: TextCtx): void {
  const text = ctx.pending;
  if (!text) return;
  ctx.pending = '';
  if (hasText(text)) {
    const seg: Segment = { text, first: ctx.first!, last: ctx.last! };
    if (ctx.segments) ctx.segments[ctx.segments.length] = seg;
    else ctx.segments = [seg];
  }
  ctx.first = ctx.last = null;
}

/** Take the finished segments (after closing the current one). */
export function takeSegments(ctx: TextCtx): Segment[] | null {
  endSegment(ctx);
  const segs = ctx.segments;
  ctx.segments = null;
  return segs;
}

/** Join a part to an accumulated name from content: inline elements touch, blocks are spaced. */
export function joinContent(acc: string, part: string, inline: boolean): string {
  if (!part) return acc;
  return inline ? acc + part : acc + ' ' + part + ' ';
}

/** Text contexts are strictly nested by depth: one reusable object per depth (no allocation per element). */
export class TextCtxStack {
  private readonly ctxs: TextCtx[] = [];

  /** The context for nodes emitted at `depth`, reset. */
  at(depth: number, node: WalkNode | null, covered: boolean): TextCtx {
    let ctx = this.ctxs[depth];
    if (!ctx) {
      ctx = { node, depth, children: 0, pending: '', first: null, last: null, segments: null, covered };
      this.ctxs[depth] = ctx;
      return ctx;
    }
    ctx.node = node;
    ctx.children = 0;
    ctx.pending = '';
    ctx.first = ctx.last = null;
    ctx.segments = null;
    ctx.covered = covered;
    return ctx;
  }
}
