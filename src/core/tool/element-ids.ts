/**
 * Element ids of one tab (`tab.observe()` → `elements[].id`, `tab.id(n)`).
 *
 * Numbering: one counter per tab. The first time an observation meets an element (a document of
 * a frame plus the walker's local id in it) it gets the next number; the same element keeps its
 * number in later observations; a number is never given to another element of this tab, in any
 * frame. So an id stays valid while its element lives and fails as stale once the element is
 * removed or its document navigates — stricter than the seed's renumbering, never looser.
 */
import type { ElementHandle, Frame } from 'puppeteer-core';
import { BrowserError } from '../errors.js';

export interface IdEntry {
  frame: Frame;
  docKey: string;
  localId: number;
}

const PRUNE_AT = 100_000;

export class ElementIds {
  private readonly byKey = new Map<string, number>();
  private readonly entries = new Map<number, IdEntry>();
  /** The document each frame showed at its last walk. */
  private readonly currentDoc = new WeakMap<Frame, string>();
  private last = 0;

  /** Remember which document a frame shows now. */
  sawDocument(frame: Frame, docKey: string): void {
    this.currentDoc.set(frame, docKey);
  }

  /** The tab-wide id of an element. */
  idFor(frame: Frame, docKey: string, localId: number): number {
    const key = `${docKey}:${localId}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = ++this.last;
    this.byKey.set(key, id);
    this.entries.set(id, { frame, docKey, localId });
    if (this.entries.size > PRUNE_AT) this.prune();
    return id;
  }

  /** A live handle on element n; ref_not_found when never issued, stale_ref when gone. Dispose it. */
  async resolve(n: unknown): Promise<ElementHandle<Element>> {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > this.last) {
      throw new BrowserError(
        'ref_not_found',
        `Unknown element id ${String(n)}. Run tab.observe() to get element ids.`,
        {
          hint: 'Call tab.observe() and use an id from its elements[].',
          details: { id: n },
        },
      );
    }
    const entry = this.entries.get(n);
    if (!entry || entry.frame.detached) throw stale(n, 'navigated');
    // The element, or why there is none: its document is gone ('navigated') or it is ('detached').
    const handle = await entry.frame
      .evaluateHandle(
        (key: string, id: number) => {
          const api = (globalThis as any)[Symbol.for('brow.page')];
          return api && api.docKey === key
            ? ((api.element(id) as Element | null) ?? 'detached')
            : 'navigated';
        },
        entry.docKey,
        entry.localId,
      )
      .catch(() => null);
    const el = handle?.asElement() as ElementHandle<Element> | null | undefined;
    if (!el) {
      const reason = handle ? await handle.jsonValue().catch(() => 'navigated') : 'navigated';
      await handle?.dispose();
      throw stale(n, reason === 'detached' ? 'detached' : 'navigated');
    }
    return el;
  }

  /** Drop entries whose document is gone; their numbers stay issued (they read as stale). */
  private prune(): void {
    for (const [id, e] of this.entries) {
      if (e.frame.detached || this.currentDoc.get(e.frame) !== e.docKey) {
        this.entries.delete(id);
        this.byKey.delete(`${e.docKey}:${e.localId}`);
      }
    }
  }
}

function stale(n: number, reason: 'detached' | 'navigated'): BrowserError {
  const why = reason === 'navigated' ? 'its document was left (navigation)' : 'the element was removed';
  return new BrowserError('stale_ref', `Element id ${n} is stale: ${why}.`, {
    hint: 'Run tab.observe() again and use a fresh id.',
    details: { id: n, reason },
  });
}
