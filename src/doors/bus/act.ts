/** Payload helpers of the bus table: browser::act's dispatch by action, and seed 002's entry shapes. */
import type { z } from 'zod';
import { BusError } from './errors.js';
import type { requests } from './schemas.js';

export type Data = Record<string, any>;

/** The object without its undefined fields (capability inputs are strict). */
export const defined = (o: Data): Data =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
export const sid = (p: { session_id: string }) => ({ session_id: p.session_id });

type Act = z.output<typeof requests.act>;

const need = (ok: unknown, action: string, what: string): void => {
  if (ok === undefined || ok === '' || ok === false) {
    throw new BusError(
      'invalid_request',
      `act "${action}" needs ${what}.`,
      'See the act request schema for each action.',
    );
  }
};

/** browser::act: which capability an action maps to, and the input it needs. */
export function actCapability(p: Act): string {
  const point = p.ref === undefined && p.x !== undefined && p.y !== undefined;
  if (p.action === 'click') return point ? 'browser_click_at' : 'browser_click';
  if (p.action === 'hover') return point ? 'browser_hover_at' : 'browser_hover';
  return `browser_${p.action}`;
}

export function actInput(p: Act): Data {
  const base = sid(p);
  switch (p.action) {
    case 'click':
    case 'hover':
      need(p.ref ?? (p.x !== undefined && p.y !== undefined), p.action, 'a ref, or both x and y');
      return p.ref ? { ...base, ref: p.ref } : { ...base, x: p.x, y: p.y };
    case 'type':
      need(p.text !== undefined, 'type', 'text');
      return defined({ ...base, text: p.text, ref: p.ref });
    case 'press':
      need(p.key, 'press', 'key');
      return defined({ ...base, key: p.key, ref: p.ref });
    case 'scroll':
      return defined({ ...base, ref: p.ref, delta_y: p.delta_y });
    case 'select':
      need(p.ref, 'select', 'ref');
      need(p.value !== undefined, 'select', 'value');
      return { ...base, ref: p.ref, value: p.value };
    case 'drag':
      need(p.ref, 'drag', 'ref');
      need(
        p.to_ref ?? p.to_x ?? p.to_y ?? p.offset_x ?? p.offset_y,
        'drag',
        'a target: to_ref, to_x and to_y, or offset_x/offset_y',
      );
      return defined({
        ...base,
        ref: p.ref,
        to_ref: p.to_ref,
        to_x: p.to_x,
        to_y: p.to_y,
        offset_x: p.offset_x,
        offset_y: p.offset_y,
      });
  }
}

export const seedConsole = (e: Data) =>
  defined({ seq: e.seq, timestamp: e.timestamp, level: e.level, text: e.text, source: e.source });
/**
 * A network entry in seed 002's shape. A request still in flight reads `pending: true` and carries no
 * `failed` (it has not failed, nor succeeded, yet): a 500 that completes a moment later is not
 * reported as `failed: false` first.
 */
export const seedNetwork = (e: Data) =>
  e.pending
    ? defined({
        seq: e.seq,
        timestamp: e.timestamp,
        method: e.method,
        url: e.url,
        pending: true,
      })
    : defined({
        seq: e.seq,
        timestamp: e.timestamp,
        method: e.method,
        url: e.url,
        status: e.status,
        mime_type: e.mime_type || undefined,
        failed: e.failed,
        error: e.error,
      });
