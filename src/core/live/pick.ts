/**
 * Pick: the element a person points at in the live viewport, resolved through open shadow roots
 * and frames to a page ref the agent can act on, and announced as a `picked` event.
 */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { BrowPageApi } from '../snapshot/injected/types.js';
import { frameOwners } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import { frameIdOf } from '../snapshot/snapshot.js';

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
  let el = document.elementFromPoint(x, y);
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

/** A person picked the element at a point: resolve it and emit `picked` for agents to act on. */
export async function pick(page: BrowPage, x: number, y: number): Promise<PickedElement> {
  const element = await elementAt(page, x, y);
  page.session.events.emit('picked', page.session.id, { page_id: page.id, element });
  return element;
}
