/**
 * Frames through CDP directly: which target hosts a frame, which element owns a child frame, and
 * where a frame's viewport sits in the page's. puppeteer's Frame objects can lose track of an
 * out-of-process iframe after a navigation (the Frame keeps its parent's session and then waits
 * forever for an execution context there), so nothing here goes through puppeteer's contexts or
 * element handles: sessions are found from the browser's targets, elements by backend node id.
 */
import type { CDPSession, Frame } from 'puppeteer-core';
import { frameClient, frameIdOf, targetIdOf, targetSession } from '../browser/internals.js';

/** The CDP frame id (for an out-of-process iframe also its target id). */
export const cdpFrameId = frameIdOf;

/** The session of the iframe target whose id is this frame's id, if the frame is out of process. */
export function oopifSession(frame: Frame): CDPSession | undefined {
  const id = cdpFrameId(frame);
  const target = frame
    .page()
    .browser()
    .targets()
    .find((t) => targetIdOf(t) === id);
  return target ? targetSession(target) : undefined;
}

/**
 * The frame that roots the target hosting `frame` (the main frame, or the nearest out-of-process
 * iframe at or above it), with that target's session.
 */
export function localRoot(frame: Frame): { root: Frame; client: CDPSession } {
  let f = frame;
  for (;;) {
    const parent = f.parentFrame();
    if (!parent) return { root: f, client: frameClient(f) };
    const own = oopifSession(f);
    if (own) return { root: f, client: own };
    f = parent;
  }
}

const ID_OF = `function () { const api = globalThis[Symbol.for('brow.page')]; return api ? api.idOf(this) : 0; }`;

/**
 * The child frames of `parent` by their owner element's id from the brow page API in `parent`
 * (which must already be installed there). Frames that detach meanwhile are left out.
 */
export async function frameOwners(parent: Frame): Promise<Map<number, Frame>> {
  return ownersById(await resolveOwners(parent));
}

/** A child frame's owner element as a remote object, resolved ahead of asking the page API its id. */
export interface ResolvedOwner {
  child: Frame;
  objectId: string;
  client: ReturnType<typeof localRoot>['client'];
}

/**
 * The owner elements of `parent`'s child frames, resolved without the brow page API (so it may run
 * while the page script is still being installed or walking): the first half of frameOwners.
 */
export async function resolveOwners(parent: Frame): Promise<ResolvedOwner[]> {
  const children = parent.childFrames();
  if (children.length === 0) return [];
  const { client } = localRoot(parent);
  const out = await Promise.all(
    children.map(async (child) => {
      try {
        const { backendNodeId } = await client.send('DOM.getFrameOwner', { frameId: cdpFrameId(child) });
        const { object } = await client.send('DOM.resolveNode', { backendNodeId });
        return object.objectId ? { child, objectId: object.objectId, client } : null;
      } catch {
        // a frame that detached meanwhile simply has no owner
        return null;
      }
    }),
  );
  return out.filter((o): o is ResolvedOwner => o !== null);
}

/** The second half of frameOwners: the resolved owners by their id from the page API (installed). */
export async function ownersById(resolved: ResolvedOwner[]): Promise<Map<number, Frame>> {
  const out = new Map<number, Frame>();
  await Promise.all(
    resolved.map(async ({ child, objectId, client }) => {
      try {
        const res = await client.send('Runtime.callFunctionOn', {
          objectId,
          functionDeclaration: ID_OF,
          returnByValue: true,
        });
        const id = res.result.value as unknown;
        if (typeof id === 'number' && id > 0) out.set(id, child);
      } catch {
        // a frame that detached meanwhile simply has no owner
      } finally {
        client.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
      }
    }),
  );
  return out;
}

/**
 * Where the top-left of `frame`'s viewport is in the page's top-level viewport (CSS px). Box
 * models come in the coordinates of the target's root frame, so each step jumps from a frame's
 * owner straight to the root of the target that holds it.
 */
export async function frameOffset(frame: Frame): Promise<[number, number]> {
  let x = 0;
  let y = 0;
  let f = frame;
  for (let parent = f.parentFrame(); parent; parent = f.parentFrame()) {
    const { root, client } = localRoot(parent);
    const { backendNodeId } = await client.send('DOM.getFrameOwner', { frameId: cdpFrameId(f) });
    const { model } = await client.send('DOM.getBoxModel', { backendNodeId });
    // content quad: x1,y1 is the top-left of the box inside border and padding
    x += model.content[0] ?? 0;
    y += model.content[1] ?? 0;
    f = root;
  }
  return [x, y];
}
