/** Turn a ref into a live element, or fail with stale_ref / ref_not_found — never re-find by name. */
import type { ElementHandle, Frame } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { RefEntry } from '../snapshot/ref-registry.js';
import { withApi } from '../snapshot/page-script.js';

export interface Located {
  entry: RefEntry;
  frame: Frame;
}

/** The ref's entry and frame, checked to be alive in the frame's current document. */
export async function locate(page: BrowPage, ref: string): Promise<Located> {
  const entry = page.refs.lookup(ref);
  const frame = entry.frame.deref();
  if (!frame || frame.detached) throw staleRef(ref, 'navigated');
  const reason = await withApi(
    frame,
    (api, key: string, id: number) => (api.docKey !== key ? 'navigated' : api.staleReason(id)),
    entry.docKey,
    entry.localId,
  ).catch(() => 'navigated' as const);
  if (reason) throw staleRef(ref, reason === 'unknown' ? 'detached' : reason);
  return { entry, frame };
}

/** A puppeteer handle on the located element (for uploads and frame geometry). Dispose it. */
export async function elementHandle(loc: Located): Promise<ElementHandle<Element>> {
  const handle = await loc.frame.evaluateHandle(
    (key: string, id: number) => {
      const api = (globalThis as any)[Symbol.for('brow.page')];
      return api && api.docKey === key ? api.element(id) : null;
    },
    loc.entry.docKey,
    loc.entry.localId,
  );
  const el = handle.asElement() as ElementHandle<Element> | null;
  if (!el) {
    await handle.dispose();
    throw staleRef(loc.entry.ref, 'detached');
  }
  return el;
}

export function staleRef(ref: string, reason: 'detached' | 'navigated'): BrowserError {
  return new BrowserError(
    'stale_ref',
    reason === 'navigated'
      ? `${ref} belonged to a document this page has left.`
      : `${ref} is no longer in the page (the element was removed or replaced).`,
    { details: { ref, reason } },
  );
}
