/** browser_find: case-insensitive substring matches with refs; it never picks for the caller. */
import type { BrowPage } from '../session/page.js';
import { withApi } from './page-script.js';
import { frameIdOf, takeSnapshot } from './snapshot.js';

export interface FindInput {
  role?: string;
  name?: string;
  text?: string;
  visible_only: boolean;
  limit: number;
}

export interface FindMatch {
  ref: string;
  role: string;
  name: string;
  text: string;
  /** The whole value of a control, verbatim. */
  value?: string;
  description?: string;
  states: string[];
  actions: string[];
  bounding_box: { x: number; y: number; width: number; height: number };
  in_viewport: boolean;
}

export async function find(
  page: BrowPage,
  input: FindInput,
): Promise<{ matches: FindMatch[]; total: number; truncated: boolean }> {
  const snap = await takeSnapshot(page);
  const role = input.role?.toLowerCase();
  const name = input.name?.toLowerCase();
  const text = input.text?.toLowerCase();
  const hits = snap.nodes.filter((n) => {
    if (!n.ref) return false;
    if (role && n.role.toLowerCase() !== role) return false;
    if (name && !n.name.toLowerCase().includes(name)) return false;
    if (text && !`${n.name} ${n.text ?? ''} ${n.value ?? ''}`.toLowerCase().includes(text)) return false;
    if (input.visible_only && (n.box[2] === 0 || n.box[3] === 0)) return false;
    return true;
  });
  const matches = hits.slice(0, input.limit).map((n) => ({
    ref: n.ref!,
    role: n.role,
    name: n.name,
    text: n.text ?? '',
    ...(n.value !== undefined ? { value: n.value } : {}),
    ...(n.description ? { description: n.description } : {}),
    states: n.states,
    actions: n.actions,
    bounding_box: { x: n.box[0], y: n.box[1], width: n.box[2], height: n.box[3] },
    in_viewport: n.inView,
  }));
  if (input.visible_only) return { matches, total: hits.length, truncated: hits.length > input.limit };
  // the walk skips what is not rendered: ask each frame's script for its hidden matches
  const hidden = await findHidden(
    page,
    input,
    input.limit - matches.length,
    new Set(matches.map((m) => m.ref)),
  );
  matches.push(...hidden.matches);
  const total = hits.length + hidden.total;
  return { matches, total, truncated: total > matches.length };
}

/** The most frames asked for hidden matches (the main frame first). */
const HIDDEN_FRAMES = 16;

/**
 * Elements the walk skips (display:none, hidden, visibility:hidden) that match, with refs from the
 * page's registry like the walk's, state `hidden`, no box and in_viewport false: an action on one
 * fails with not_interactable as on any element that cannot be reached.
 */
async function findHidden(
  page: BrowPage,
  input: FindInput,
  room: number,
  have: Set<string>,
): Promise<{ matches: FindMatch[]; total: number }> {
  const query = { role: input.role, name: input.name, text: input.text, limit: Math.max(room, 0) };
  const out: FindMatch[] = [];
  let total = 0;
  for (const frame of page.raw.frames().slice(0, HIDDEN_FRAMES)) {
    const r = await withApi(frame, (api, q: typeof query) => ({ docKey: api.docKey, ...api.findHidden(q) }), {
      ...query,
      limit: Math.max(query.limit - out.length, 0),
    }).catch(() => null);
    if (!r) continue;
    total += r.total;
    for (const m of r.matches) {
      const ref = page.refs.refFor(frame, frameIdOf(frame), r.docKey, m.id, m.role, m.name);
      if (have.has(ref)) continue;
      out.push({
        ref,
        role: m.role,
        name: m.name,
        text: m.text,
        ...(m.value !== undefined ? { value: m.value } : {}),
        ...(m.description ? { description: m.description } : {}),
        states: m.states,
        actions: m.actions,
        bounding_box: { x: 0, y: 0, width: 0, height: 0 },
        in_viewport: false,
      });
    }
  }
  return { matches: out, total };
}
