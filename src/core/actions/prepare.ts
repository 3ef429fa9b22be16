/** Actionability: attached, visible, enabled, stable, allowed, and the hit point on the target. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import { elementHandle, locate, staleRef, type Located } from './locate.js';

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
    // translate from the frame's viewport to the page's: puppeteer adds the frames' offsets
    const handle = await elementHandle(loc);
    try {
      const [box, local] = await Promise.all([
        handle.boundingBox(),
        handle.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.left, y: r.top };
        }),
      ]);
      if (box) {
        x = box.x + (x - local.x);
        y = box.y + (y - local.y);
      }
    } finally {
      await handle.dispose();
    }
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
