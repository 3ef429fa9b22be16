/** Actionability: attached, visible, enabled, stable, allowed, and the hit point on the target. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { frameOffset } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import type { PressReport } from '../snapshot/injected/types.js';
import type { TargetState } from './effect.js';
import { locate, lookupRef, staleRef, type Located } from './locate.js';

export interface Prepared extends Located {
  /** Point in the page's top-level viewport: the centre of the element's visible part. */
  x: number;
  y: number;
  role: string;
  name: string;
  tag: string;
  actions: string[];
  states: string[];
  value?: string;
  checked?: boolean | 'mixed';
  /** The frame's mutation counter when the element was measured (hover effects show as a change). */
  seq: number;
  /**
   * The action is not among the element's allowed_actions, and is tried anyway: brow saw no
   * listener for it, but a page may handle it on an ancestor (delegated handlers).
   */
  unlisted?: boolean;
}

/**
 * Actions any visible, enabled element takes whatever its allowed_actions say: listeners delegated
 * to a root (React, Vue, jQuery's on(type, selector)) are invisible to brow, and keys go to what has
 * the focus (a menu button's ArrowDown), so allowed_actions is advice for these, and the answer says
 * when no handler was seen.
 */
const POINTER_ADVICE = new Set(['click', 'hover', 'press']);

interface InFrame {
  stale?: 'detached' | 'unknown' | 'navigated';
  invisible?: boolean;
  /** Nothing of the box shows: its overflow ancestors clip it even after scrolling. */
  clipped?: boolean;
  noPointer?: boolean;
  x: number;
  y: number;
  seq: number;
  cover?: { id: number; role: string; name: string; tag: string };
  d: {
    role: string;
    name: string;
    tag: string;
    actions: string[];
    states: string[];
    value?: string;
    checked?: boolean | 'mixed';
  } | null;
}

/**
 * Measure a located element in its frame: when `scroll` and its centre is clipped (by the viewport
 * or by any overflow ancestor, e.g. a scrolled pane), scroll it into view through every scrolling
 * ancestor and wait until its box is stable; then the centre of its visible part and (when `hit`)
 * whether that point lands on it.
 */
function measure(loc: Located, scroll: boolean, hit: boolean, aim = false, stable = false): Promise<InFrame> {
  return withApi(
    loc.frame,
    (
      api,
      key: string,
      id: number,
      scrollIt: boolean,
      checkHit: boolean,
      aimIt: boolean,
      waitMs: number,
      steady: boolean,
    ) =>
      new Promise<InFrame>((resolve) => {
        const none = { x: 0, y: 0, seq: 0, d: null };
        let waitedImages = false;
        if (api.docKey !== key) return resolve({ stale: 'navigated', ...none });
        const el = api.element(id);
        // a transition or animation of the element or a box around it (a panel growing open, a menu
        // sliding in) moves or clips it until it ends: a pointer action measures after it (at most
        // ANIMATION_WAIT_MS)
        const moving: Promise<unknown>[] = [];
        if (el && checkHit && typeof document.getAnimations === 'function') {
          for (const a of document.getAnimations()) {
            const target = (a.effect as KeyframeEffect | null)?.target;
            if (!target || a.playState !== 'running' || !(target === el || target.contains(el))) continue;
            if (!Number.isFinite(Number(a.effect?.getComputedTiming().endTime))) continue; // a spinner
            moving.push(a.finished.catch(() => undefined));
          }
        }
        if (moving.length === 0) return start();
        let started = false;
        const once = () => {
          if (started) return;
          started = true;
          start();
        };
        const timer = setTimeout(once, waitMs);
        void Promise.all(moving).then(() => {
          clearTimeout(timer);
          requestAnimationFrame(once);
        });

        function start(): void {
          const first = el ? api.visibleBox(id) : null;
          if (!el || !first) return resolve({ stale: api.staleReason(id) ?? 'detached', ...none });
          // no size yet because its picture is still on its way (an icon drawn by `content: url()`,
          // an <img> without a size): wait for it (at most ANIMATION_WAIT_MS), then measure
          if (!waitedImages && (first.box.width === 0 || first.box.height === 0)) {
            waitedImages = true;
            const loading: Promise<unknown>[] = [];
            const url = /url\("([^"]+)"\)/.exec(getComputedStyle(el).content)?.[1];
            if (url) {
              const img = new Image();
              img.src = url;
              loading.push(img.decode().catch(() => undefined));
            }
            for (const img of el.querySelectorAll('img'))
              if (!img.complete) loading.push(img.decode().catch(() => undefined));
            if (loading.length > 0) {
              let again = false;
              const retry = () => {
                if (again) return;
                again = true;
                requestAnimationFrame(start);
              };
              const timer = setTimeout(retry, waitMs);
              void Promise.all(loading).then(() => {
                clearTimeout(timer);
                retry();
              });
              return;
            }
          }
          const d = api.describe(id);
          const outside = scrollIt && !first.centreVisible;
          if (outside)
            el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
          const finish = () => {
            const vb = api.visibleBox(id);
            const seq = api.mutations().seq;
            if (!vb) return resolve({ stale: api.staleReason(id) ?? 'detached', ...none });
            if (vb.box.width === 0 || vb.box.height === 0)
              return resolve({ invisible: true, x: 0, y: 0, seq, d });
            if (!vb.visible) return resolve({ clipped: true, x: 0, y: 0, seq, d });
            let x = vb.visible.x + vb.visible.width / 2;
            let y = vb.visible.y + vb.visible.height / 2;
            // a click lands on the part that reacts when the centre is the element's own empty space
            const aimed = aimIt && typeof api.aimPoint === 'function' ? api.aimPoint(id, x, y) : null;
            if (aimed) [x, y] = aimed;
            if (!checkHit) return resolve({ x, y, seq, d });
            if (getComputedStyle(el).pointerEvents === 'none')
              return resolve({ noPointer: true, x, y, seq, d });
            const hit = api.hitTarget(id, x, y);
            resolve(hit.ok ? { x, y, seq, d } : { x, y, seq, d, ...(hit.cover ? { cover: hit.cover } : {}) });
          };
          // stable: the box must be the same across two animation frames (at most ~5 tries)
          let tries = 0;
          let prev = el.getBoundingClientRect();
          const check = () => {
            const now = el.getBoundingClientRect();
            const same =
              now.x === prev.x && now.y === prev.y && now.width === prev.width && now.height === prev.height;
            prev = now;
            if (same || ++tries > 5) finish();
            else requestAnimationFrame(check);
          };
          if (outside || steady) requestAnimationFrame(check);
          else finish();
        }
      }),
    loc.entry.docKey,
    loc.entry.localId,
    scroll,
    hit,
    aim,
    ANIMATION_WAIT_MS,
    stable,
  );
}

/** The longest an action waits for a transition or animation that moves its target to end. */
const ANIMATION_WAIT_MS = 1000;

/**
 * Locate a ref and check it can take `action`: scrolled into view through its panes, visible,
 * enabled, stable over two frames, allowed, and (when `hit`) not covered at the centre of its
 * visible part (for a click, at the part that reacts when the centre is empty: aimPoint). `drag` needs only an element that takes pointer input: it is not checked against
 * allowed_actions (drag libraries leave no trace brow can always see).
 */
export async function prepare(
  page: BrowPage,
  ref: string,
  action: string | null,
  opts: { hit?: boolean } = {},
): Promise<Prepared> {
  // the measure checks the element is alive itself (one round trip less); when it fails, locate
  // names what went wrong (navigated, detached) before its own error
  const loc = lookupRef(page, ref);
  const res = await measure(loc, true, opts.hit ?? true, action === 'click').catch(async (e: unknown) => {
    await locate(page, ref);
    throw e;
  });
  return checked(page, loc, ref, action, res);
}

/**
 * Measure a prepared element again without scrolling (after hover effects settled): its point now,
 * and the same checks, so a cover that appeared on hover fails the action instead of taking the press.
 * `stable`: first wait until its box is the same across two frames (after a press that missed).
 */
export async function remeasure(
  page: BrowPage,
  p: Prepared,
  action: string | null,
  hit = true,
  stable = false,
): Promise<Prepared> {
  const res = await measure(p, false, hit, action === 'click', stable);
  return checked(page, p, p.entry.ref, action, res);
}

async function checked(
  page: BrowPage,
  loc: Located,
  ref: string,
  action: string | null,
  res: InFrame,
): Promise<Prepared> {
  if (res.stale) throw staleRef(ref, res.stale === 'navigated' ? 'navigated' : 'detached');
  const d = res.d;
  if (!d) throw staleRef(ref, 'detached');
  const what = `${ref} (${d.role} "${d.name}")`;
  if (res.invisible) {
    throw new BrowserError('not_interactable', `${what} is not visible: it has no size on screen.`, {
      hint: 'Take a fresh snapshot; the element may be collapsed or shown only after another step.',
    });
  }
  if (res.clipped) {
    throw new BrowserError(
      'not_interactable',
      `${what} is not visible: its container clips it (overflow), even after scrolling.`,
      { hint: 'Open or expand the container that holds it first (a collapsed section or menu).' },
    );
  }
  const disabled = d.states.includes('disabled');
  const unlisted = !!action && action !== 'drag' && !d.actions.includes(action);
  const advisory = unlisted && POINTER_ADVICE.has(action);
  if (action === 'drag' || advisory ? disabled : unlisted) {
    throw new BrowserError(
      disabled ? 'not_interactable' : 'invalid_request',
      disabled
        ? `${what} is disabled.`
        : `${what} does not allow ${action}; it allows ${d.actions.join(', ') || 'nothing'}.`,
      {
        hint: disabled
          ? 'Wait until it is enabled (browser_wait condition=ref state=enabled).'
          : 'Use an action from its allowed_actions.',
      },
    );
  }
  if (res.noPointer) {
    throw new BrowserError(
      'not_interactable',
      `${what} does not receive pointer events (pointer-events: none).`,
      {
        hint: 'Act on the element that handles the pointer (often its parent or a sibling), or use the keyboard.',
      },
    );
  }
  if (res.cover) {
    const c = res.cover;
    const coverRef = c.id ? refOfLocal(page, loc, c.id, c.role, c.name) : undefined;
    throw new BrowserError(
      'not_interactable',
      `${what} is covered by ${c.role || c.tag}${c.name ? ` "${c.name}"` : ''}${coverRef ? ` (${coverRef})` : ''}.`,
      {
        hint: 'Close or act on the covering element first, or scroll so the target is unobstructed.',
        details: {
          cover: { role: c.role, name: c.name, tag: c.tag, ...(coverRef ? { ref: coverRef } : {}) },
        },
      },
    );
  }
  let { x, y } = res;
  if (loc.frame !== page.raw.mainFrame()) {
    // from the frame's viewport to the page's
    const [ox, oy] = await frameOffset(loc.frame);
    x += ox;
    y += oy;
  }
  return { entry: loc.entry, frame: loc.frame, x, y, seq: res.seq, ...d, ...(unlisted ? { unlisted } : {}) };
}

/** The ref of an element of a located element's document, by its local id (made when it has none). */
export function refOfLocal(
  page: BrowPage,
  loc: Located,
  localId: number,
  role: string,
  name: string,
): string {
  return page.refs.refFor(loc.frame, loc.entry.frameId, loc.entry.docKey, localId, role, name);
}

/** The element's state after an action (value, checked), by ref. */
export async function readState(page: BrowPage, loc: Located) {
  return withApi(
    loc.frame,
    (api, key: string, id: number) => {
      if (api.docKey !== key) return null;
      const d = api.describe(id);
      const el = api.element(id) as HTMLElement | null;
      if (!d || !el) return d ? { ...d, text: '', sensitive: false } : null;
      const input = el.localName === 'input' ? (el as HTMLInputElement) : null;
      // a secret by its type or by what the page says it holds (autocomplete tokens)
      const sensitive =
        input?.type === 'password' ||
        /\b(current-password|new-password|one-time-code|cc-number|cc-csc|cc-exp)\b/.test(
          el.getAttribute('autocomplete') ?? '',
        );
      const text = input || el.localName === 'textarea' ? '' : (el.innerText ?? '').trim().slice(0, 200);
      return { ...d, text, sensitive };
    },
    loc.entry.docKey,
    loc.entry.localId,
  );
}

/** How long a frame's document may take to start taking pointer input after it appears. */
const FRAME_INPUT_WAIT_MS = 1500;

/** Mouse moves over the element seen by its document so far (a listener installed on first use). */
async function movesSeen(loc: Located): Promise<number> {
  return withApi(
    loc.frame,
    (api, id: number) => {
      const w = window as unknown as Record<symbol, { id: number; n: number } | undefined>;
      const k = Symbol.for('brow.moves');
      let seen = w[k];
      if (!seen) {
        const s = { id, n: 0 };
        w[k] = seen = s;
        addEventListener(
          'mousemove',
          (e) => {
            const el = api.element(s.id);
            if (el && e.composedPath().includes(el)) s.n++;
          },
          { capture: true },
        );
      }
      if (seen.id !== id) seen.id = id;
      return seen.n;
    },
    loc.entry.localId,
  );
}

/**
 * Make sure pointer input at the prepared point reaches its element. Chromium routes input into
 * an out-of-process frame only once the frame has been composited into its parent, so right after
 * such a frame loads a click can land nowhere. Mouse moves (what a person's pointer does before a
 * click anyway) are sent until the element's document sees one, for at most 1.5 s.
 */
export async function pointerReaches(page: BrowPage, p: Prepared): Promise<void> {
  if (p.frame === page.raw.mainFrame()) return;
  const before = await movesSeen(p).catch(() => null);
  if (before === null) return;
  const deadline = Date.now() + FRAME_INPUT_WAIT_MS;
  for (let i = 0; ; i++) {
    // alternate by half a pixel so every move is a real move
    await page.raw.mouse.move(p.x + (i % 2) * 0.5, p.y);
    for (let j = 0; j < 3; j++) {
      if (((await movesSeen(p).catch(() => null)) ?? before + 1) > before) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    if (Date.now() > deadline) return;
  }
}

/** The target as the action found it (role, name, value), for an effect's `target`. */
export const describeTarget = (p: Prepared | null): TargetState | null =>
  p ? { role: p.role, name: p.name, ...(p.value !== undefined ? { value: p.value } : {}) } : null;

/** Two animation frames in the element's frame (at most 100 ms where frames do not run). */
export const twoFrames = (loc: Located) =>
  withApi(
    loc.frame,
    () =>
      new Promise<void>((r) => {
        requestAnimationFrame(() => requestAnimationFrame(() => r()));
        setTimeout(r, 100);
      }),
  ).catch(() => undefined);

/** Start noting, in the target's document, which elements take the pointer input brow sends. */
export const armPresses = (p: Prepared) =>
  withApi(p.frame, (api, id: number) => api.armPresses(id), p.entry.localId).catch(() => undefined);

/**
 * Whether the input noted since armPresses reached the target (`needed`: event types); null when
 * it cannot be read or the input took the target's document away (a form sent, a link followed):
 * that navigation is the effect the answer shows.
 */
export const pressReport = (p: Prepared, needed: string[]) =>
  withApi(
    p.frame,
    (api, key: string, id: number, n: string[]) => (api.docKey === key ? api.pressReport(id, n) : null),
    p.entry.docKey,
    p.entry.localId,
    needed,
  ).catch(() => null);

/** What an answer says when pointer input missed its target: where it went instead. */
export function missedText(
  page: BrowPage,
  p: Prepared,
  action: string,
  r: PressReport,
  once = false,
): string {
  const l = r.landed;
  const where = l
    ? `on [${l.role || l.tag}${l.id ? ` ref=${refOfLocal(page, p, l.id, l.role, l.name)}` : ''}]${l.name ? ` "${l.name}"` : ''}`
    : r.seen > 0
      ? 'on no element'
      : 'nowhere: the page received no pointer event';
  const why = r.gone
    ? ', and the target has left the page'
    : once
      ? ''
      : ', twice, measured again in between';
  return `The ${action === 'hover' ? 'pointer' : 'press'} landed ${where}, not on the target (${r.missing.join(', ')} missed it${why}); the target did not get it.`;
}
