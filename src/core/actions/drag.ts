/** browser_drag: a real pointer path (HTML5 drag-and-drop included) to a ref, a point or an offset. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import { performAction, type Effect } from './effect.js';
import type { Located } from './locate.js';
import {
  armPresses,
  describeTarget,
  missedText,
  pointerReaches,
  prepare,
  pressReport,
  remeasure,
  twoFrames,
  type Prepared,
} from './prepare.js';

/** Where a drag ends: onto another ref, at a viewport point, or by an offset from the source's centre. */
export interface DragTarget {
  to_ref?: string | undefined;
  to_x?: number | undefined;
  to_y?: number | undefined;
  offset_x?: number | undefined;
  offset_y?: number | undefined;
}

const DRAG_HINT =
  'Pass exactly one kind of target: {"to_ref": "e7"} to drop onto an element, {"to_x": 400, "to_y": 300} ' +
  'for a viewport point, or {"offset_x": 120} (and/or offset_y) to move the source by that much (sliders, resizers).';

/** Which kind of target a drag input names; invalid_request unless exactly one. */
export function dragTargetKind(t: DragTarget): 'ref' | 'point' | 'offset' {
  const has = (v: unknown) => v !== undefined && v !== null;
  const kinds: ('ref' | 'point' | 'offset')[] = [];
  if (has(t.to_ref)) kinds.push('ref');
  if (has(t.to_x) || has(t.to_y)) kinds.push('point');
  if (has(t.offset_x) || has(t.offset_y)) kinds.push('offset');
  if (kinds.length !== 1) {
    throw new BrowserError(
      'invalid_request',
      kinds.length === 0
        ? 'browser_drag needs a target: to_ref, to_x and to_y, or offset_x/offset_y.'
        : `browser_drag takes one kind of target; got ${kinds.map((k) => (k === 'ref' ? 'to_ref' : k === 'point' ? 'to_x/to_y' : 'offset_x/offset_y')).join(' and ')}.`,
      { hint: DRAG_HINT },
    );
  }
  const kind = kinds[0]!;
  if (kind === 'point' && (!has(t.to_x) || !has(t.to_y))) {
    throw new BrowserError('invalid_request', 'browser_drag to a point needs both to_x and to_y.', {
      hint: DRAG_HINT,
    });
  }
  if (kind === 'offset' && !(t.offset_x ?? 0) && !(t.offset_y ?? 0)) {
    throw new BrowserError(
      'invalid_request',
      'browser_drag by an offset needs a non-zero offset_x or offset_y.',
      {
        hint: DRAG_HINT,
      },
    );
  }
  if (kind === 'ref' && !t.to_ref) {
    throw new BrowserError('invalid_request', 'browser_drag: to_ref is empty.', { hint: DRAG_HINT });
  }
  return kind;
}

/** Where the source is before and after a drag: list position, box, value, HTML5 drag events. */
interface DragSpot {
  gone?: boolean;
  parent: number;
  parentLabel: string;
  index: number;
  count: number;
  box: [number, number, number, number];
  value?: string;
  html5: { start: number; over: number; drop: string | null; end: number };
}

/** The source's place now (and, with `reset`, start recording HTML5 drag events for a new drag). */
function dragSpot(loc: Located, reset: boolean): Promise<DragSpot> {
  return withApi(
    loc.frame,
    (api, id: number, resetEvents: boolean) => {
      type Rec = { start: number; over: number; drop: string | null; end: number };
      const w = window as unknown as Record<symbol, Rec | undefined>;
      const k = Symbol.for('brow.dragEvents');
      let rec = w[k];
      if (!rec) {
        const r: Rec = { start: 0, over: 0, drop: null, end: 0 };
        w[k] = rec = r;
        const label = (t: EventTarget | null) => {
          if (!(t instanceof Element)) return '';
          const d = api.describe(api.idOf(t));
          return d ? `${d.role}${d.name ? ` "${d.name}"` : ''}` : t.localName;
        };
        addEventListener('dragstart', () => void r.start++, { capture: true });
        addEventListener('dragover', () => void r.over++, { capture: true });
        addEventListener('drop', (e) => void (r.drop = label(e.target)), { capture: true });
        addEventListener('dragend', () => void r.end++, { capture: true });
      }
      if (resetEvents) Object.assign(rec, { start: 0, over: 0, drop: null, end: 0 });
      const html5 = { ...rec };
      const el = api.element(id);
      const none = {
        gone: true,
        parent: 0,
        parentLabel: '',
        index: 0,
        count: 0,
        box: [0, 0, 0, 0] as [number, number, number, number],
        html5,
      };
      if (!el) return none;
      const parent = el.parentElement;
      const sibs = parent ? [...parent.children].filter((c) => c.localName === el.localName) : [el];
      const pid = parent ? api.idOf(parent) : 0;
      const pd = pid ? api.describe(pid) : null;
      const r = el.getBoundingClientRect();
      const d = api.describe(id);
      const value =
        d?.value ?? el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? undefined;
      return {
        parent: pid,
        parentLabel: pd ? `${pd.role}${pd.name ? ` "${pd.name}"` : ''}` : '',
        index: sibs.indexOf(el) + 1,
        count: sibs.length,
        box: [r.x, r.y, r.width, r.height] as [number, number, number, number],
        ...(value !== undefined && value !== null ? { value: String(value) } : {}),
        html5,
      };
    },
    loc.entry.localId,
    reset,
  );
}

/** What a drag moved, in words: list position, box offset, value, HTML5 drop. */
function describeDrag(before: DragSpot, after: DragSpot): string {
  const bits: string[] = [];
  if (after.gone) {
    bits.push('The dragged element was replaced (the page re-rendered it): take a fresh snapshot.');
  } else {
    if (after.parent !== before.parent) {
      bits.push(
        `Moved from position ${before.index} of ${before.count}${before.parentLabel ? ` in ${before.parentLabel}` : ''} ` +
          `to position ${after.index} of ${after.count}${after.parentLabel ? ` in ${after.parentLabel}` : ''}.`,
      );
    } else if (after.index !== before.index) {
      bits.push(`List position ${before.index} → ${after.index} of ${after.count}.`);
    }
    if (before.value !== after.value && (before.value !== undefined || after.value !== undefined)) {
      bits.push(`Value ${before.value ?? '(none)'} → ${after.value ?? '(none)'}.`);
    }
    const ddx = Math.round(after.box[0] - before.box[0]);
    const ddy = Math.round(after.box[1] - before.box[1]);
    if (after.parent === before.parent && after.index === before.index && (ddx || ddy)) {
      bits.push(`Box moved by ${ddx},${ddy}.`);
    }
  }
  const h = after.html5;
  if (h.start > 0) {
    bits.push(
      h.drop
        ? `HTML5 drag-and-drop: dragstart, drop on ${h.drop}.`
        : 'HTML5 drag-and-drop: dragstart, but no element accepted the drop.',
    );
  }
  if (bits.length === 0) bits.push('Nothing moved: the source kept its place, box and value.');
  return bits.join(' ');
}

/** Refuse drag points outside the viewport: the pointer cannot go there. */
async function checkDragPoint(page: BrowPage, x: number, y: number, what: string): Promise<void> {
  const vp =
    page.raw.viewport() ?? (await page.raw.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  if (x < 0 || y < 0 || x >= vp.width || y >= vp.height) {
    throw new BrowserError(
      'invalid_request',
      `The drag ${what} (${Math.round(x)}, ${Math.round(y)}) is outside the ${vp.width}×${vp.height} viewport.`,
      {
        hint: 'Scroll so that the source and the target are both on screen (browser_scroll), or drag in smaller steps.',
      },
    );
  }
}

/** Past the drop target's centre, along the drag, so sortables see its midpoint crossed. */
const DROP_OVERSHOOT_PX = 5;

/**
 * Drag an element with a real pointer path: press at the source's centre, at least 12 moves, release
 * on the target (a few px past a ref's centre along the drag). A draggable source gets Chromium's
 * own HTML5 drag-and-drop (dragstart, dragover, drop with a real DataTransfer) from the same input;
 * mouse-driven libraries see mousedown/pointermove/mouseup.
 */
export async function drag(page: BrowPage, ref: string, target: DragTarget | string): Promise<Effect> {
  const t: DragTarget = typeof target === 'string' ? { to_ref: target } : target;
  const kind = dragTargetKind(t);
  let spot: { loc: Located; before: DragSpot } | null = null;
  let source: Prepared | null = null;
  return performAction(page, {
    action: 'drag',
    after: async () => describeTarget(source),
    ref,
    run: async () => {
      let to: { x: number; y: number };
      let from: Prepared;
      let toLabel: string;
      if (kind === 'ref') {
        // the target first: bringing the source into view last keeps it where it is measured
        const dest0 = await prepare(page, t.to_ref!, null, { hit: false });
        from = await prepare(page, ref, 'drag');
        const dest = await remeasure(page, dest0, null, false).catch((e: unknown) => {
          if (e instanceof BrowserError && e.code === 'not_interactable') {
            throw new BrowserError(
              'not_interactable',
              `${ref} and ${t.to_ref} do not fit on screen together: bringing one into view hides the other.`,
              { hint: 'Drag in steps (to a ref or an offset nearer the source), or scroll a pane first.' },
            );
          }
          throw e;
        });
        to = { x: dest.x, y: dest.y };
        toLabel = `${t.to_ref} (${dest.role}${dest.name ? ` "${dest.name}"` : ''})`;
      } else {
        from = await prepare(page, ref, 'drag');
        to =
          kind === 'point'
            ? { x: t.to_x!, y: t.to_y! }
            : { x: from.x + (t.offset_x ?? 0), y: from.y + (t.offset_y ?? 0) };
        toLabel = `(${Math.round(to.x)}, ${Math.round(to.y)})`;
      }
      await checkDragPoint(page, to.x, to.y, 'target');
      const dist = Math.hypot(to.x - from.x, to.y - from.y);
      const end =
        kind === 'ref' && dist > 0
          ? {
              x: to.x + ((to.x - from.x) / dist) * DROP_OVERSHOOT_PX,
              y: to.y + ((to.y - from.y) / dist) * DROP_OVERSHOOT_PX,
            }
          : to;
      source = from;
      await pointerReaches(page, from);
      spot = { loc: from, before: await dragSpot(from, true) };
      const m = page.raw.mouse;
      await m.move(from.x, from.y);
      await armPresses(from);
      await m.down();
      // a press that another element took would drag that one: let go where it is and say so
      const r = await pressReport(from, ['mousedown']);
      if (r && !r.delivered) {
        await m.up();
        return { missed: missedText(page, from, 'drag', r, true) };
      }
      await twoFrames(from);
      // a first small step past the usual drag thresholds, then the path in even steps
      const steps = Math.min(40, Math.max(12, Math.round(dist / 15)));
      for (let i = 1; i <= steps; i++) {
        await m.move(from.x + ((end.x - from.x) * i) / steps, from.y + ((end.y - from.y) * i) / steps);
      }
      await twoFrames(from);
      await m.up();
      return `Dragged ${ref} to ${toLabel} in ${steps} moves.`;
    },
    finish: async () => {
      if (!spot) return;
      const after = await dragSpot(spot.loc, false).catch(() => null);
      return after ? describeDrag(spot.before, after) : undefined;
    },
  });
}
