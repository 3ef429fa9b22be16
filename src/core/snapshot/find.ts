/** browser_find: case-insensitive substring matches with refs; it never picks for the caller. */
import type { BrowPage } from '../session/page.js';
import { takeSnapshot } from './snapshot.js';

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
  return { matches, total: hits.length, truncated: hits.length > input.limit };
}
