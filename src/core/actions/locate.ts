/** Turn a ref into a live element, or fail with stale_ref / ref_not_found — never re-find by name. */
import type { CDPSession, Frame } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { RefEntry } from '../snapshot/ref-registry.js';
import { frameOffset, localRoot } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';

export interface Located {
  entry: RefEntry;
  frame: Frame;
}

/**
 * The ref's entry and its frame, without asking the page: ref_not_found for a ref never issued,
 * stale_ref when its frame is gone. A call that reads the element next checks it is alive there.
 */
export function lookupRef(page: BrowPage, ref: string): Located {
  const entry = page.refs.lookup(ref);
  const frame = entry.frame.deref();
  if (!frame || frame.detached) throw staleRef(ref, 'navigated');
  return { entry, frame };
}

/** The ref's entry and frame, checked to be alive in the frame's current document. */
export async function locate(page: BrowPage, ref: string): Promise<Located> {
  const { entry, frame } = lookupRef(page, ref);
  const reason = await withApi(
    frame,
    (api, key: string, id: number) => (api.docKey !== key ? 'navigated' : api.staleReason(id)),
    entry.docKey,
    entry.localId,
  ).catch(() => 'navigated' as const);
  if (reason) throw staleRef(ref, reason === 'unknown' ? 'detached' : reason);
  return { entry, frame };
}

/** The located element's box in the page's top-level viewport (CSS px), after scrolling it into view if asked. */
export async function boxInPage(
  loc: Located,
  opts: { scroll?: boolean } = {},
): Promise<{ x: number; y: number; width: number; height: number }> {
  const local = await withApi(
    loc.frame,
    (api, key: string, id: number, scroll: boolean) => {
      const el = api.docKey === key ? api.element(id) : null;
      if (!el) return null;
      if (scroll) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    },
    loc.entry.docKey,
    loc.entry.localId,
    opts.scroll === true,
  );
  if (!local) throw staleRef(loc.entry.ref, 'detached');
  const [ox, oy] = loc.frame.parentFrame() ? await frameOffset(loc.frame) : [0, 0];
  return { ...local, x: local.x + ox, y: local.y + oy };
}

/** A located element as a CDP remote object on the session of the target that holds it. */
export interface ElementObject {
  client: CDPSession;
  objectId: string;
  release(): Promise<void>;
}

/** The located element as a remote object (for uploads). Release it. */
export async function elementObject(loc: Located): Promise<ElementObject> {
  const { root, client } = localRoot(loc.frame);
  const expression =
    `(() => { const api = globalThis[Symbol.for('brow.page')];` +
    ` return api && api.docKey === ${JSON.stringify(loc.entry.docKey)} ? api.element(${loc.entry.localId}) : null; })()`;
  let objectId: string | undefined;
  if (root === loc.frame) {
    objectId = (await client.send('Runtime.evaluate', { expression })).result.objectId;
  } else {
    // an in-process child frame: only puppeteer knows its main world's context id
    objectId = (await loc.frame.evaluateHandle(expression)).remoteObject().objectId;
  }
  if (!objectId) throw staleRef(loc.entry.ref, 'detached');
  const id = objectId;
  return {
    client,
    objectId: id,
    release: () =>
      client.send('Runtime.releaseObject', { objectId: id }).then(
        () => undefined,
        () => undefined,
      ),
  };
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
