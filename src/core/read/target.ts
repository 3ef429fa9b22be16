/** What a read of "the page or one ref" means: a frame and an element id in it, and refs for what it shows. */
import type { Frame } from 'puppeteer-core';
import { locate } from '../actions/locate.js';
import type { BrowPage } from '../session/page.js';
import { frameOwners } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import { frameIdOf } from '../snapshot/snapshot.js';

export interface ReadTarget {
  frame: Frame;
  /** The element to start from; null = the document. */
  rootId: number | null;
}

/** The page's main document, or a ref's element (an iframe's ref means the document inside it). */
export async function readTarget(page: BrowPage, ref: string | undefined): Promise<ReadTarget> {
  if (!ref) return { frame: page.raw.mainFrame(), rootId: null };
  const loc = await locate(page, ref);
  const isFrame = await withApi(
    loc.frame,
    (api, id: number) => /^(IFRAME|FRAME)$/.test(api.element(id)?.tagName ?? ''),
    loc.entry.localId,
  );
  if (isFrame) {
    const child = (await frameOwners(loc.frame)).get(loc.entry.localId);
    if (child) return { frame: child, rootId: null };
  }
  return { frame: loc.frame, rootId: loc.entry.localId };
}

export interface Identified {
  id: number;
  role: string;
  name: string;
}

/** Page refs for elements a read showed (their ids are from the frame's in-page script). */
export function refsFor(
  page: BrowPage,
  frame: Frame,
  docKey: string,
  items: Identified[],
): Map<number, string> {
  const fid = frameIdOf(frame);
  const out = new Map<number, string>();
  for (const it of items) out.set(it.id, page.refs.refFor(frame, fid, docKey, it.id, it.role, it.name));
  return out;
}
