/** browser_scroll: the page by a delta, a ref into view through its panes, or a pane by a delta. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import type { Frame } from 'puppeteer-core';
import { frameIdOf } from '../snapshot/snapshot.js';
import { performAction, type Effect, type RunResult } from './effect.js';
import { locate, type Located } from './locate.js';
import { describeTarget, prepare, twoFrames, type Prepared } from './prepare.js';

/** A scroll position of the page (id 0) or of a scrolling element (its local id) in a frame. */
interface ScrollPos {
  id: number;
  x: number;
  y: number;
  role: string;
  name: string;
}

/** Where scroll positions are read: a frame and its document, for naming panes by ref. */
interface ScrollPlace {
  frame: Frame;
  frameId: string;
  docKey: string;
}

/**
 * The scroll positions of an element (when it scrolls) and of every scrolling ancestor, and the
 * page's. The element is a local id, or (null) the element at a point of the viewport: what a
 * wheel there scrolls.
 */
async function positionsIn(
  frame: Frame,
  id: number | null,
  at: { x: number; y: number } = { x: 0, y: 0 },
): Promise<{ docKey: string; positions: ScrollPos[] }> {
  return withApi(
    frame,
    (api, id: number | null, px: number, py: number) => {
      const out: ScrollPos[] = [];
      const el = id === null ? document.elementFromPoint(px, py) : api.element(id);
      for (let n: Element | null = el, i = 0; n && i < 256; i++) {
        const root = document.scrollingElement;
        if (n !== root && n !== document.body && n !== document.documentElement) {
          const cs = getComputedStyle(n);
          const scrolls = (o: string) => o !== 'visible' && o !== 'clip';
          const canX = scrolls(cs.overflowX) && n.scrollWidth > n.clientWidth;
          const canY = scrolls(cs.overflowY) && n.scrollHeight > n.clientHeight;
          if (canX || canY) {
            const nid = api.idOf(n);
            const d = api.describe(nid);
            out.push({ id: nid, x: n.scrollLeft, y: n.scrollTop, role: d?.role ?? '', name: d?.name ?? '' });
          }
        }
        const parent: Element | null =
          n.parentElement ??
          ((n.getRootNode() as ShadowRoot | Document) instanceof ShadowRoot
            ? (n.getRootNode() as ShadowRoot).host
            : null);
        n = parent;
      }
      out.push({ id: 0, x: Math.round(scrollX), y: Math.round(scrollY), role: 'page', name: '' });
      return { docKey: api.docKey, positions: out };
    },
    id,
    at.x,
    at.y,
  );
}

/** The scroll positions around a located element. */
const scrollPositions = async (loc: Located): Promise<ScrollPos[]> =>
  (await positionsIn(loc.frame, loc.entry.localId)).positions;

const placeOf = (loc: Located): ScrollPlace => ({
  frame: loc.frame,
  frameId: loc.entry.frameId,
  docKey: loc.entry.docKey,
});

/** "pane generic "Inbox" (e4) 0,0 → 0,300; page 0,0 → 0,120", for the positions that moved. */
function scrollMoves(page: BrowPage, at: ScrollPlace, before: ScrollPos[], after: ScrollPos[]): string[] {
  const moves: string[] = [];
  for (const a of after) {
    const b = before.find((x) => x.id === a.id);
    if (!b || (Math.round(b.x) === Math.round(a.x) && Math.round(b.y) === Math.round(a.y))) continue;
    const label =
      a.id === 0
        ? 'page'
        : `pane ${a.role || 'element'}${a.name ? ` "${a.name}"` : ''} (${page.refs.refFor(
            at.frame,
            at.frameId,
            at.docKey,
            a.id,
            a.role,
            a.name,
          )})`;
    moves.push(`${label} ${Math.round(b.x)},${Math.round(b.y)} → ${Math.round(a.x)},${Math.round(a.y)}`);
  }
  return moves;
}

const samePositions = (a: ScrollPos[], b: ScrollPos[]) =>
  a.length === b.length && a.every((p, i) => p.id === b[i]?.id && p.x === b[i]?.x && p.y === b[i]?.y);

/**
 * A wheel over the page, without a ref: what scrolls is the document or the pane under the pointer
 * (an app shell whose main element scrolls while the document stays at 0,0). Both count as moving;
 * a smooth scroll is followed until it stops.
 */
async function scrollPage(page: BrowPage, dx: number, dy: number): Promise<RunResult> {
  const frame = page.raw.mainFrame();
  const vp = page.raw.viewport() ?? { width: 800, height: 600 };
  const at = { x: vp.width / 2, y: vp.height / 2 };
  const start = await positionsIn(frame, null, at);
  const place: ScrollPlace = { frame, frameId: frameIdOf(frame), docKey: start.docKey };
  await page.raw.mouse.move(at.x, at.y);
  await page.raw.mouse.wheel({ deltaX: dx, deltaY: dy });
  const read = async () => {
    await page.raw.evaluate(
      () =>
        new Promise<void>((r) => {
          requestAnimationFrame(() => requestAnimationFrame(() => r()));
          setTimeout(r, 100);
        }),
    );
    return (await positionsIn(frame, null, at)).positions;
  };
  // read again until two reads agree (a smooth scroll is still on its way), for at most ~1 s
  let after = await read();
  for (let i = 0; i < 10; i++) {
    const again = await read();
    if (samePositions(again, after)) break;
    after = again;
  }
  let note = '';
  if (scrollMoves(page, place, start.positions, after).length === 0) {
    // the page cancels wheels, or the pointer is over something that eats them: scroll directly
    await page.raw.evaluate(
      (x: number, y: number) => scrollBy({ left: x, top: y, behavior: 'instant' as ScrollBehavior }),
      dx,
      dy,
    );
    after = await read();
    note = ' (the wheel did not move it; scrolled it directly)';
  }
  const moves = scrollMoves(page, place, start.positions, after);
  return moves.length
    ? { message: `Scrolled the page by ${dx},${dy}: ${moves.join('; ')}${note}.`, changed: true }
    : {
        message: `Nothing scrolled by ${dx},${dy}: the page and the pane under the pointer are at their ends.`,
      };
}

/**
 * Scroll the page, bring a ref into view (through every pane that holds it), or scroll inside a
 * scrollable ref (a pane) by a wheel over it. Reports what scrolled, pane by pane.
 */
export async function scroll(
  page: BrowPage,
  opts: { ref?: string; delta_x?: number; delta_y?: number },
): Promise<Effect> {
  const dx = opts.delta_x ?? 0;
  const dy = opts.delta_y ?? 0;
  if (!opts.ref && dx === 0 && dy === 0) {
    throw new BrowserError('invalid_request', 'browser_scroll needs a ref or a non-zero delta_x/delta_y.', {
      hint: 'Pass {"delta_y": 500} to scroll down, or a ref to bring it into view.',
    });
  }
  const ref = opts.ref;
  let pane: Prepared | null = null;
  return performAction(page, {
    action: 'scroll',
    ...(ref ? { ref } : {}),
    after: async () => describeTarget(pane),
    run: async () => {
      if (!ref) return scrollPage(page, dx, dy);
      const loc = await locate(page, ref);
      const before = await scrollPositions(loc);
      const p = await prepare(page, ref, 'scroll', { hit: false });
      pane = p;
      if (dx === 0 && dy === 0) {
        const moves = scrollMoves(page, placeOf(loc), before, await scrollPositions(loc));
        return moves.length
          ? { message: `Scrolled ${ref} into view: ${moves.join('; ')}.`, changed: true }
          : { message: `${ref} was already in view; nothing scrolled.`, noInput: true };
      }
      const start = await scrollPositions(loc);
      await page.raw.mouse.move(p.x, p.y);
      await page.raw.mouse.wheel({ deltaX: dx, deltaY: dy });
      await twoFrames(loc);
      let after = await scrollPositions(loc);
      const own = (xs: ScrollPos[]) => (xs[0] && xs[0].id === p.entry.localId ? xs[0] : null);
      const was = own(start);
      const now = own(after);
      let note = '';
      if (was && now && was.x === now.x && was.y === now.y) {
        // the wheel went elsewhere (a nested scroller under the pointer, a page that cancels wheels)
        await withApi(
          loc.frame,
          (api, id: number, x: number, y: number) =>
            api.element(id)?.scrollBy({ left: x, top: y, behavior: 'instant' as ScrollBehavior }),
          loc.entry.localId,
          dx,
          dy,
        );
        await twoFrames(loc);
        after = await scrollPositions(loc);
        note = ' (the wheel did not move it; scrolled it directly)';
      }
      const moves = scrollMoves(page, placeOf(loc), start, after);
      const revealed = scrollMoves(page, placeOf(loc), before, start);
      return {
        message: moves.length
          ? `Scrolled ${moves.join('; ')}${note}.`
          : `Nothing scrolled: ${ref} and the panes around it are at their ends.`,
        changed: moves.length > 0 || revealed.length > 0,
      };
    },
  });
}
