/**
 * Delivery of brow's pointer input: which element received the trusted pointer events brow sent
 * while an action ran. Listeners on the window in the capture phase, added before the page's own
 * scripts (so a page that stops an event on its way down is still seen), idle unless armed.
 */
import { coverOf } from './describe.js';
import { elementOf } from './ids.js';
import { composedParent } from './shadow.js';
import type { HitCover, PressReport } from './types.js';

const TYPES = ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'auxclick', 'mousemove'];
/** The most events one action records (a drag's moves beyond this are not needed). */
const MAX_EVENTS = 64;

interface Seen {
  type: string;
  target: Element | null;
}

let armed: Seen[] | null = null;
/** The element the armed action aims at, held from arming: a click may take it off the page. */
let aimed: Element | null = null;

/** Add the listeners (once per document, before the page's scripts patch addEventListener). */
export function installPressWatch(add: (type: string, fn: (e: Event) => void) => void): void {
  const onEvent = (e: Event) => {
    if (!armed || !e.isTrusted || armed.length >= MAX_EVENTS) return;
    const first = e.composedPath()[0];
    armed.push({ type: e.type, target: first instanceof Element ? first : null });
  };
  for (const t of TYPES) add(t, onEvent);
}

/** Start recording for the element `id` (forgets what an earlier action recorded). */
export function armPresses(id: number): void {
  armed = [];
  aimed = elementOf(id);
}

/** Whether the event's target is the element, inside it, or a label of it. */
function reaches(el: Element, target: Element | null): boolean {
  for (let n = target, i = 0; n && i < 256; n = composedParent(n), i++) {
    if (n === el) return true;
    if (n.localName === 'label' && (n as HTMLLabelElement).control === el) return true;
  }
  return false;
}

/**
 * What the recorded events say about the element `id` (as armed) taking `needed` (event types, each of which
 * must have reached it at least once), and stops recording. `seen` counts every recorded event, so
 * the caller can tell input that reached no element at all (nothing recorded) from a press that
 * landed elsewhere (`landed`: the element that took the first needed event that missed).
 */
export function pressReport(id: number, needed: string[]): PressReport {
  const events = armed ?? [];
  armed = null;
  // the element as it was armed, even when the press removed it (a todo's ×)
  const el = aimed ?? elementOf(id);
  aimed = null;
  const missing: string[] = [];
  let stray: Element | null = null;
  for (const type of needed) {
    const of = events.filter((e) => e.type === type);
    if (el && of.some((e) => reaches(el, e.target))) continue;
    // a pointer already resting on the element moves without an event: it is hovered all the same
    if (type === 'mousemove' && el?.matches(':hover')) continue;
    missing.push(type);
    if (!stray) stray = of.find((e) => e.target)?.target ?? null;
  }
  // a press that started on the element and ended elsewhere: the mouseup's element is where it went
  if (!stray && el && missing.length > 0) {
    stray = events.find((e) => e.type === 'mouseup' && e.target && !reaches(el, e.target))?.target ?? null;
  }
  const landed: HitCover | undefined = stray ? coverOf(stray) : undefined;
  return {
    delivered: missing.length === 0 && !!el,
    gone: !el || !el.isConnected,
    seen: events.length,
    missing,
    ...(landed ? { landed } : {}),
  };
}
