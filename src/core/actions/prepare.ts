/** Actionability: attached, visible, enabled, stable, allowed, and the hit point on the target. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { frameOffset } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import { locate, staleRef, type Located } from './locate.js';

export interface Prepared extends Located {
  /** Point in the page's top-level viewport. */
  x: number;
  y: number;
  role: string;
  name: string;
  tag: string;
  actions: string[];
  states: string[];
  value?: string;
  checked?: boolean | 'mixed';
}

interface InFrame {
  stale?: 'detached' | 'unknown' | 'navigated';
  invisible?: boolean;
  x: number;
  y: number;
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
 * Locate a ref and check it can take `action`: scrolled into view, visible, enabled, stable over
 * two frames, and (when `hit`) not covered by another element at its centre.
 */
export async function prepare(
  page: BrowPage,
  ref: string,
  action: string | null,
  opts: { hit?: boolean } = {},
): Promise<Prepared> {
  const loc = await locate(page, ref);
  const res = await withApi(
    loc.frame,
    (api, key: string, id: number, checkHit: boolean) =>
      new Promise<InFrame>((resolve) => {
        if (api.docKey !== key) return resolve({ stale: 'navigated', x: 0, y: 0, d: null });
        const el = api.element(id);
        if (!el) return resolve({ stale: api.staleReason(id) ?? 'detached', x: 0, y: 0, d: null });
        const d = api.describe(id);
        let r = el.getBoundingClientRect();
        const vw = innerWidth;
        const vh = innerHeight;
        const outside =
          r.bottom < 0 || r.right < 0 || r.top > vh || r.left > vw || r.top < 0 || r.bottom > vh;
        if (outside)
          el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
        const finish = () => {
          r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) return resolve({ invisible: true, x: 0, y: 0, d });
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          if (!checkHit) return resolve({ x, y, d });
          const hit = api.hitTarget(id, x, y);
          resolve(hit.ok ? { x, y, d } : { x, y, d, ...(hit.cover ? { cover: hit.cover } : {}) });
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
        if (outside) requestAnimationFrame(check);
        else finish();
      }),
    loc.entry.docKey,
    loc.entry.localId,
    opts.hit ?? true,
  );
  if (res.stale) throw staleRef(ref, res.stale === 'navigated' ? 'navigated' : 'detached');
  const d = res.d;
  if (!d) throw staleRef(ref, 'detached');
  if (res.invisible) {
    throw new BrowserError(
      'not_interactable',
      `${ref} (${d.role} "${d.name}") is not visible: it has no size on screen.`,
      {
        hint: 'Take a fresh snapshot; the element may be collapsed or shown only after another step.',
      },
    );
  }
  if (action && !d.actions.includes(action)) {
    const disabled = d.states.includes('disabled');
    throw new BrowserError(
      disabled ? 'not_interactable' : 'invalid_request',
      disabled
        ? `${ref} (${d.role} "${d.name}") is disabled.`
        : `${ref} (${d.role} "${d.name}") does not allow ${action}; it allows ${d.actions.join(', ') || 'nothing'}.`,
      {
        hint: disabled
          ? 'Wait until it is enabled (browser_wait condition=ref state=enabled).'
          : 'Use an action from its allowed_actions.',
      },
    );
  }
  if (res.cover) {
    const c = res.cover;
    const coverRef = c.id ? refOfLocal(page, loc, c.id, c.role, c.name) : undefined;
    throw new BrowserError(
      'not_interactable',
      `${ref} (${d.role} "${d.name}") is covered by ${c.role || c.tag}${c.name ? ` "${c.name}"` : ''}${coverRef ? ` (${coverRef})` : ''}.`,
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
  return { ...loc, x, y, ...d };
}

function refOfLocal(page: BrowPage, loc: Located, localId: number, role: string, name: string): string {
  return page.refs.refFor(loc.frame, loc.entry.frameId, loc.entry.docKey, localId, role, name);
}

/** The element's state after an action (value, checked), by ref. */
export async function readState(page: BrowPage, loc: Located) {
  return withApi(
    loc.frame,
    (api, key: string, id: number) => (api.docKey === key ? api.describe(id) : null),
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
