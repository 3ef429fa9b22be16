/**
 * Pick: the element a person points at in the live viewport, resolved through open shadow roots
 * and frames to a page ref the agent can act on, and announced as a `picked` event. An agent can
 * ask for one (browser_pick waits on the page's pick requests) or read the picks made unprompted
 * (the session keeps the last ones until read).
 */
import type { BrowCore } from '../core.js';
import { visibleTo } from '../core.js';
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import { slot } from '../state-bag.js';
import type { BrowPage } from '../session/page.js';
import type { BrowPageApi } from '../snapshot/injected/types.js';
import { frameOwners } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import { frameIdOf } from '../snapshot/snapshot.js';
import { liveOf } from './page-live.js';

export interface PickedElement {
  ref: string;
  tag: string;
  role: string;
  name: string;
  attributes: Record<string, string>;
  /** At most 2,000 chars. */
  outer_html: string;
  /** Visible text, at most 500 chars. */
  text: string;
  /** Page (top-level viewport) CSS px. */
  bounds: { x: number; y: number; width: number; height: number };
  url: string;
  frame_url: string;
  console_recent: { level: string; text: string; timestamp: number }[];
}

interface InFrame {
  /** The point is on a frame element: continue in it at (x - ox, y - oy). */
  frame?: { ox: number; oy: number };
  id: number;
  docKey: string;
  role: string;
  name: string;
  tag: string;
  attributes: Record<string, string>;
  outer_html: string;
  text: string;
  box: [number, number, number, number];
}

const MAX_DEPTH = 8;

/** The deepest element at (x, y) of one frame's viewport; runs in the page. */
function atPoint(api: BrowPageApi, x: number, y: number): InFrame | null {
  // brow's own overlay (its pick catcher covers the page while a pick is asked for) is not the page
  let el = document.elementsFromPoint(x, y).find((e) => !e.hasAttribute('data-brow-overlay')) ?? null;
  for (let i = 0; el?.shadowRoot && i < 32; i++) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const id = api.idOf(el);
  const d = api.describe(id);
  const attributes: Record<string, string> = {};
  for (const a of Array.from(el.attributes).slice(0, 40)) attributes[a.name] = a.value.slice(0, 200);
  const html = el.outerHTML;
  const out: InFrame = {
    id,
    docKey: api.docKey,
    role: d?.role ?? 'generic',
    name: d?.name ?? '',
    tag: el.localName,
    attributes,
    outer_html: html.length > 2000 ? `${html.slice(0, 1999)}…` : html,
    text: ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 500),
    box: [r.x, r.y, r.width, r.height],
  };
  if (el.localName === 'iframe' || el.localName === 'frame') {
    const cs = getComputedStyle(el);
    out.frame = {
      ox: r.left + el.clientLeft + parseFloat(cs.paddingLeft),
      oy: r.top + el.clientTop + parseFloat(cs.paddingTop),
    };
  }
  return out;
}

/** The element at a viewport point (CSS px of the top-level page), with a ref; no event. */
export async function elementAt(page: BrowPage, x: number, y: number): Promise<PickedElement> {
  let frame = page.raw.mainFrame();
  let ox = 0;
  let oy = 0;
  let hit: InFrame | null = null;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const here = await withApi(frame, atPoint, x - ox, y - oy);
    if (!here) break;
    hit = here;
    if (!here.frame) break;
    const child = (await frameOwners(frame)).get(here.id);
    if (!child) break;
    ox += here.frame.ox;
    oy += here.frame.oy;
    frame = child;
    hit = null;
  }
  if (!hit) {
    throw new BrowserError('invalid_request', `No element at (${x}, ${y}).`, {
      hint: 'Point inside the page’s viewport.',
    });
  }
  const ref = page.refs.refFor(frame, frameIdOf(frame), hit.docKey, hit.id, hit.role, hit.name);
  const session = page.session;
  return {
    ref,
    tag: hit.tag,
    role: hit.role,
    name: hit.name,
    attributes: hit.attributes,
    outer_html: hit.outer_html,
    text: hit.text,
    bounds: {
      x: Math.round(hit.box[0] + ox),
      y: Math.round(hit.box[1] + oy),
      width: Math.round(hit.box[2]),
      height: Math.round(hit.box[3]),
    },
    url: page.url(),
    frame_url: frame.url(),
    console_recent: session.console
      .read((e) => e.page_id === page.id, 0, 10)
      .map((e) => ({ level: e.level, text: e.text.slice(0, 500), timestamp: e.timestamp })),
  };
}

/** An agent's request that a person point at an element (browser_pick), pending on a page. */
export interface PickRequest {
  pick_id: string;
  page_id: string;
  session_id: string;
  instructions: string;
  started_at: number;
  timeout_at: number;
}

/** A pick as the session keeps it for browser_read_picks. */
export interface StoredPick {
  /** The `picked` event's seq. */
  seq: number;
  page_id: string;
  picked_at: number;
  /** A browser_pick call was waiting and got it. */
  delivered: boolean;
  element: PickedElement;
}

interface Waiter {
  info: PickRequest;
  resolve(e: PickedElement): void;
}

/** Pick requests waiting on a page. */
const requestsSlot = slot<Waiter[]>('pick-requests', () => []);
/** The session's picks not yet read (the last 50). */
const picksSlot = slot<{ items: StoredPick[] }>('picks', () => ({ items: [] }));
const MAX_KEPT = 50;

/** A person picked the element at a point: resolve it, hand it to a waiting browser_pick, and emit `picked`. */
export async function pick(
  page: BrowPage,
  x: number,
  y: number,
): Promise<PickedElement & { delivered: boolean }> {
  const element = await elementAt(page, x, y);
  const waiters = page.state.peek(requestsSlot)?.splice(0) ?? [];
  const delivered = waiters.length > 0;
  const event = page.session.events.emit('picked', page.session.id, {
    page_id: page.id,
    element,
    delivered,
    ...(delivered ? { pick_id: waiters[0]!.info.pick_id } : {}),
  });
  for (const w of waiters) w.resolve(element);
  // a pick a browser_pick call answered is the agent's already; others wait for browser_read_picks
  if (!delivered) {
    const kept = page.session.state.get(picksSlot).items;
    kept.push({ seq: event.seq, page_id: page.id, picked_at: event.timestamp, delivered, element });
    if (kept.length > MAX_KEPT) kept.splice(0, kept.length - MAX_KEPT);
  }
  return { ...element, delivered };
}

/**
 * Ask a person to point at an element on the page (the console shows the request with the
 * instructions) and wait for the pick, the timeout (timeout) or the caller's abort.
 */
export async function requestPick(
  page: BrowPage,
  opts: { instructions: string; timeoutMs: number; signal?: AbortSignal },
): Promise<{ pick_id: string; element: PickedElement; waited_ms: number }> {
  page.assertOpen();
  const started = Date.now();
  const info: PickRequest = {
    pick_id: newId('k'),
    page_id: page.id,
    session_id: page.session.id,
    instructions: opts.instructions,
    started_at: started,
    timeout_at: started + opts.timeoutMs,
  };
  const waiters = page.state.get(requestsSlot);
  let waiter!: Waiter;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let offGone: (() => void) | undefined;
  const picked = new Promise<PickedElement>((resolve, reject) => {
    waiter = { info, resolve };
    timer = setTimeout(
      () =>
        reject(
          new BrowserError('timeout', `Nobody picked an element on ${page.id} within ${opts.timeoutMs} ms.`, {
            hint: 'Ask again with a longer timeout_ms, and tell the person to open the brow web console.',
          }),
        ),
      opts.timeoutMs,
    );
    onAbort = () =>
      reject(new BrowserError('timeout', 'The pick was cancelled: its caller cancelled it or went away.'));
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    offGone = page.session.events.subscribe({ session_id: page.session.id }, (e) => {
      if (e.type === 'session-stopped' || (e.type === 'page-closed' && e.page_id === page.id)) {
        reject(new BrowserError('page_closed', `Page ${page.id} closed before anything was picked.`));
      }
    });
  });
  waiters.push(waiter);
  page.session.touch(opts.timeoutMs);
  // the page shows the request too: a person at its window clicks the element there
  const live = liveOf(page);
  const offSignal = live.onSignal((sig) => {
    if (sig.type === 'pick' && sig.id === info.pick_id) void pick(page, sig.x, sig.y).catch(() => undefined);
  });
  live.pickPrompt = { id: info.pick_id, instructions: opts.instructions };
  void live.render();
  page.session.events.emit('pick-requested', page.session.id, {
    page_id: page.id,
    pick_id: info.pick_id,
    instructions: opts.instructions,
    timeout_ms: opts.timeoutMs,
  });
  try {
    const element = await picked;
    return { pick_id: info.pick_id, element, waited_ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
    offGone?.();
    offSignal();
    if (live.pickPrompt?.id === info.pick_id) {
      live.pickPrompt = null;
      void live.render();
    }
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    const i = waiters.indexOf(waiter);
    if (i >= 0) waiters.splice(i, 1);
    page.session.touch();
  }
}

/** Pick requests pending on a core's pages, oldest first. */
export function pendingPicks(core: BrowCore): PickRequest[] {
  const out: PickRequest[] = [];
  for (const s of core.sessions.values()) {
    for (const p of s.pages.values()) for (const w of p.state.peek(requestsSlot) ?? []) out.push(w.info);
  }
  return out.sort((a, b) => a.started_at - b.started_at);
}

/** The picks of the sessions a caller sees (or one session), oldest first; read ones are dropped unless keep. */
export function readPicks(
  core: BrowCore,
  by: { session_id?: string | undefined; page_id?: string | undefined; keep?: boolean },
  owner: string | null,
): (StoredPick & { session_id: string })[] {
  const sessions = by.session_id
    ? [core.session(by.session_id, owner)]
    : [...core.sessions.values()].filter((s) => !s.closed && visibleTo(s, owner));
  const out: (StoredPick & { session_id: string })[] = [];
  for (const s of sessions) {
    const kept = s.state.peek(picksSlot);
    if (!kept) continue;
    const mine = kept.items.filter((p) => !by.page_id || p.page_id === by.page_id);
    out.push(...mine.map((p) => ({ ...p, session_id: s.id })));
    if (!by.keep) kept.items = kept.items.filter((p) => !mine.includes(p));
  }
  return out.sort((a, b) => a.picked_at - b.picked_at);
}
