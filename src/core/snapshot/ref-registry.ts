/**
 * Page-wide refs. Each frame's script gives its elements local ids that live as long as the
 * element and are never reused in that document; this registry maps (document, local id) to a
 * page-wide `e<N>` whose number is never reused on the page.
 */
import type { Frame } from 'puppeteer-core';
import { BrowserError } from '../errors.js';

export interface RefEntry {
  ref: string;
  docKey: string;
  localId: number;
  frame: WeakRef<Frame>;
  frameId: string;
  role: string;
  name: string;
}

const REF_RE = /^e(\d+)$/;

export class RefRegistry {
  private counter = 0;
  private byKey = new Map<string, RefEntry>();
  private byNumber = new Map<number, RefEntry>();

  /** The ref of an element, assigned on first sight. */
  refFor(frame: Frame, frameId: string, docKey: string, localId: number, role: string, name: string): string {
    const key = `${docKey}:${localId}`;
    const hit = this.byKey.get(key);
    if (hit) {
      hit.role = role;
      hit.name = name;
      return hit.ref;
    }
    this.counter += 1;
    const entry: RefEntry = {
      ref: `e${this.counter}`,
      docKey,
      localId,
      frame: new WeakRef(frame),
      frameId,
      role,
      name,
    };
    this.byKey.set(key, entry);
    this.byNumber.set(this.counter, entry);
    return entry.ref;
  }

  /** The entry behind a ref; `ref_not_found` for a malformed or never-issued ref. */
  lookup(ref: string): RefEntry {
    const m = REF_RE.exec(ref.trim());
    const entry = m ? this.byNumber.get(Number(m[1])) : undefined;
    if (!entry) {
      throw new BrowserError(
        'ref_not_found',
        m ? `No element ${ref} was ever listed on this page.` : `"${ref}" is not a ref; refs look like e12.`,
      );
    }
    return entry;
  }

  /** Drop entries of documents that are gone (keeps memory bounded across navigations). */
  forgetDocuments(liveDocKeys: Set<string>): void {
    for (const [key, e] of this.byKey) {
      if (!liveDocKeys.has(e.docKey)) {
        this.byKey.delete(key);
        // keep byNumber so a stale ref still answers stale_ref (navigated), not ref_not_found
      }
    }
  }

  get size(): number {
    return this.byKey.size;
  }
}
