/**
 * Computed cursor and overflow, shared by look-alike elements within one walk. getComputedStyle
 * costs about a microsecond per element, too much on big pages, so elements with the same tag,
 * class and id (and, for the inherited cursor, the same parent cursor) and no style attribute share
 * one answer. Rules keyed on other attributes, position (:nth-child) or :hover are the price.
 */
import type { Attrs } from './attrs.js';
import { SafeMap } from './collections.js';
import { computedStyle } from './natives.js';

const SCROLL_X = 1;
const SCROLL_Y = 2;

function scrolls(overflow: string): boolean {
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';
}

function overflowBits(cs: CSSStyleDeclaration): number {
  return (scrolls(cs.overflowX) ? SCROLL_X : 0) | (scrolls(cs.overflowY) ? SCROLL_Y : 0);
}

/** One walk's cache. */
export class StyleCache {
  private readonly cursors = new SafeMap<string, string>();
  private readonly overflows = new SafeMap<string, number>();

  private key(tag: string, a: Attrs): string {
    return tag + ' ' + (a.cls ?? '') + ' ' + (a.keep?.id ?? '');
  }

  /** The computed cursor of an element whose parent's cursor is `parentCursor`. */
  cursor(el: Element, tag: string, a: Attrs, parentCursor: string): string {
    if (a.style) return computedStyle(el).cursor;
    const key = parentCursor + ' ' + this.key(tag, a);
    let cursor = this.cursors.get(key);
    if (cursor === undefined) {
      cursor = computedStyle(el).cursor;
      this.cursors.set(key, cursor);
    }
    return cursor;
  }

  /** A scroll container with something to scroll (overflow auto/scroll and content larger than the box). */
  scrollable(el: Element, tag: string, a: Attrs): boolean {
    let bits: number | undefined;
    if (a.style) bits = overflowBits(computedStyle(el));
    else {
      const key = this.key(tag, a);
      bits = this.overflows.get(key);
      if (bits === undefined) {
        bits = overflowBits(computedStyle(el));
        this.overflows.set(key, bits);
      }
    }
    if (!bits) return false;
    if (bits & SCROLL_Y && el.scrollHeight > el.clientHeight) return true;
    return (bits & SCROLL_X) !== 0 && el.scrollWidth > el.clientWidth;
  }
}
