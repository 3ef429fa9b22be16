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
  /**
   * docKey → entries indexed by local id. Local ids count up from 1 in each document, so a plain
   * list is dense and cheaper than a map (a first listing of a big page adds tens of thousands).
   */
  private byDoc = new Map<string, (RefEntry | undefined)[]>();
  private live = 0;
  /** One WeakRef per frame, shared by its entries (thousands on a big page). */
  private frameRefs = new WeakMap<Frame, WeakRef<Frame>>();
  private byNumber = new Map<number, RefEntry>();

  /** The ref of an element, assigned on first sight. */
  refFor(frame: Frame, frameId: string, docKey: string, localId: number, role: string, name: string): string {
    let doc = this.byDoc.get(docKey);
    if (!doc) {
      doc = [];
      this.byDoc.set(docKey, doc);
    }
    const hit = doc[localId];
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
      frame: this.weakFrame(frame),
      frameId,
      role,
      name,
    };
    doc[localId] = entry;
    this.live += 1;
    this.byNumber.set(this.counter, entry);
    return entry.ref;
  }

  private weakFrame(frame: Frame): WeakRef<Frame> {
    let ref = this.frameRefs.get(frame);
    if (!ref) {
      ref = new WeakRef(frame);
      this.frameRefs.set(frame, ref);
    }
    return ref;
  }

  /**
   * The entry behind a ref; `ref_not_found` for a malformed or never-issued ref, `stale_ref` for
   * one whose document is gone (numbers are never reused, so any number issued and no longer held
   * belonged to a forgotten document: no record of it needs keeping).
   */
  lookup(ref: string): RefEntry {
    const m = REF_RE.exec(ref.trim());
    const n = m ? Number(m[1]) : 0;
    const entry = m ? this.byNumber.get(n) : undefined;
    if (!entry && n >= 1 && n <= this.counter) {
      throw new BrowserError('stale_ref', `${ref.trim()} belonged to a document this page has left.`, {
        details: { ref: ref.trim(), reason: 'navigated' },
        hint: 'Take a fresh snapshot (browser_list_elements) and use its refs.',
      });
    }
    if (!entry) {
      throw new BrowserError(
        'ref_not_found',
        m ? `No element ${ref} was ever listed on this page.` : `"${ref}" is not a ref; refs look like e12.`,
      );
    }
    return entry;
  }

  /**
   * Drop the entries of documents that are gone (memory stays bounded across navigations); their
   * refs still answer stale_ref (see lookup). Returns how many entries went.
   */
  forgetDocuments(liveDocKeys: Set<string>): number {
    let dropped = 0;
    for (const [docKey, doc] of this.byDoc) {
      if (liveDocKeys.has(docKey)) continue;
      this.byDoc.delete(docKey);
      for (const entry of doc) {
        if (!entry) continue;
        this.byNumber.delete(Number(entry.ref.slice(1)));
        this.live -= 1;
        dropped += 1;
      }
    }
    return dropped;
  }

  /** Forget every entry (the page closed); numbering goes on, so old refs answer stale_ref. */
  clear(): void {
    this.byDoc.clear();
    this.byNumber.clear();
    this.live = 0;
  }

  /** Entries held (refs of live documents). */
  get size(): number {
    return this.live;
  }

  /** Documents with entries. */
  get documents(): number {
    return this.byDoc.size;
  }
}
