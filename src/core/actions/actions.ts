/** The actions by ref: trusted CDP input, checked first, each reporting its effect. */
import { BrowserError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import { performAction, type Effect, type TargetState } from './effect.js';
import { parseKeyCombo } from './keys.js';
import { elementObject, locate, type Located } from './locate.js';
import { pointerReaches, prepare, readState, remeasure, type Prepared } from './prepare.js';

export type MouseButton = 'left' | 'right' | 'middle';
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

const describeTarget = (p: Prepared | null): TargetState | null =>
  p ? { role: p.role, name: p.name, ...(p.value !== undefined ? { value: p.value } : {}) } : null;

function stateAfter(page: BrowPage, prepared: () => Prepared | null) {
  return async (): Promise<TargetState | null> => {
    const p = prepared();
    if (!p) return null;
    const d = await readState(page, p).catch(() => null);
    if (!d) return null;
    const sensitive = d.tag === 'input' && p.states.includes('password');
    return {
      role: d.role,
      name: d.name,
      ...(d.value !== undefined ? { value: d.value } : {}),
      ...(d.checked !== undefined ? { checked: d.checked } : {}),
      states: d.states,
      ...(sensitive ? { is_sensitive: true } : {}),
    };
  };
}

/**
 * Record the timers (setTimeout up to 5 s) the page sets while typed input is dispatched, and forget
 * those it clears: a debounce (an autocomplete asking the server 300 ms after the last key) shows
 * as a timer still due after the action settled. The wrappers are installed once per document on
 * first use, pass every call through, and record only between `on` and `off`.
 */
async function recordTimers(p: Prepared, on: boolean): Promise<void> {
  await withApi(
    p.frame,
    (_api, start: boolean) => {
      type Rec = { on: boolean; due: Map<unknown, number> };
      const w = window as unknown as Record<symbol, Rec | undefined> & typeof window;
      const k = Symbol.for('brow.timers');
      let rec = w[k];
      if (!rec) {
        const r: Rec = { on: false, due: new Map() };
        rec = r;
        Object.defineProperty(w, k, { value: r, enumerable: false });
        w.setTimeout = new Proxy(w.setTimeout, {
          apply(t, self, args: unknown[]) {
            const id = Reflect.apply(t, self, args) as unknown;
            const ms = Number(args[1]) || 0;
            if (r.on && ms <= 5000) r.due.set(id, performance.now() + ms);
            return id;
          },
        });
        w.clearTimeout = new Proxy(w.clearTimeout, {
          apply(t, self, args: unknown[]) {
            r.due.delete(args[0]);
            return Reflect.apply(t, self, args) as unknown;
          },
        });
      }
      if (start) rec.due.clear();
      rec.on = start;
    },
    on,
  ).catch(() => undefined);
}

/**
 * Whether a field may answer typing later (autocomplete, search as you type): a combobox or a
 * searchbox, or a page that set a timer while the keys went in that is still due (a debounce, with
 * listeners on the field or delegated to a root as React does). Asked only when the typed value is
 * the only change so far.
 */
const suggests = (p: Prepared | null) => async (): Promise<boolean> => {
  if (!p) return false;
  if (p.role === 'combobox' || p.role === 'searchbox') return true;
  return withApi(p.frame, () => {
    const rec = (window as unknown as Record<symbol, { due: Map<unknown, number> } | undefined>)[
      Symbol.for('brow.timers')
    ];
    const now = performance.now();
    for (const due of rec?.due.values() ?? []) if (due > now) return true;
    return false;
  }).catch(() => false);
};

async function withModifiers(page: BrowPage, modifiers: Modifier[], fn: () => Promise<void>): Promise<void> {
  for (const m of modifiers) await page.raw.keyboard.down(m);
  try {
    await fn();
  } finally {
    for (const m of [...modifiers].reverse()) await page.raw.keyboard.up(m);
  }
}

/** How long hover effects may take to settle before a press (a mutation-quiet window, bounded). */
const HOVER_QUIET_MS = 100;
const HOVER_MAX_MS = 300;

/**
 * Move the pointer onto the target as a person's mouse does before a press, and wait a frame. When
 * that changed the document (hover effects: a swapped icon, a revealed button), wait until it is
 * quiet (bounded), then measure again and re-check the hit target, so the press lands on what the
 * page shows now. When nothing changed, the press follows at once.
 */
async function pointerFirst(page: BrowPage, p: Prepared, action: string): Promise<Prepared> {
  await page.raw.mouse.move(p.x, p.y);
  const mutated = await withApi(
    p.frame,
    (api, seq0: number, quietMs: number, maxMs: number) =>
      new Promise<boolean>((resolve) => {
        const start = performance.now();
        let framed = false;
        const afterFrame = () => {
          if (framed) return;
          framed = true;
          if (api.mutations().seq === seq0) return resolve(false);
          const tick = () => {
            const now = performance.now();
            if (now - api.mutations().lastAt >= quietMs || now - start >= maxMs) resolve(true);
            else setTimeout(tick, 10);
          };
          tick();
        };
        requestAnimationFrame(afterFrame);
        // a page without frames (hidden, throttled) still gets its press
        setTimeout(afterFrame, 50);
      }),
    p.seq,
    HOVER_QUIET_MS,
    HOVER_MAX_MS,
  ).catch(() => false);
  if (!mutated) return p;
  const q = await remeasure(page, p, action);
  if (q.x !== p.x || q.y !== p.y) await page.raw.mouse.move(q.x, q.y);
  return q;
}

export async function click(
  page: BrowPage,
  ref: string,
  opts: { button?: MouseButton; click_count?: number; modifiers?: Modifier[] } = {},
): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'click',
    ref,
    run: async () => {
      p = await prepare(page, ref, 'click');
      await pointerReaches(page, p);
      p = await pointerFirst(page, p, 'click');
      const { x, y } = p;
      await withModifiers(page, opts.modifiers ?? [], () =>
        page.raw.mouse.click(x, y, { button: opts.button ?? 'left', count: opts.click_count ?? 1 }),
      );
    },
    after: stateAfter(page, () => p),
  });
}

export async function hover(page: BrowPage, ref: string): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'hover',
    ref,
    run: async () => {
      p = await prepare(page, ref, 'hover');
      await pointerReaches(page, p);
      await page.raw.mouse.move(p.x, p.y, { steps: 2 });
    },
    after: async () => describeTarget(p),
  });
}

/** Replace the value of a text field (or contenteditable) with `value`, as typed input. */
export async function fill(page: BrowPage, ref: string, value: string): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'fill',
    ref,
    run: async () => {
      p = await prepare(page, ref, 'fill', { hit: false });
      const kind = await withApi(
        p.frame,
        (api, id: number) => {
          const el = api.element(id) as HTMLInputElement | HTMLTextAreaElement | HTMLElement | null;
          if (!el) return 'gone';
          el.focus();
          const typeless = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'];
          if (el instanceof HTMLInputElement && typeless.includes(el.type)) return 'direct';
          if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
            el.select();
            return 'text';
          }
          const sel = getSelection();
          const range = document.createRange();
          range.selectNodeContents(el);
          sel?.removeAllRanges();
          sel?.addRange(range);
          return 'editable';
        },
        p.entry.localId,
      );
      if (kind === 'gone')
        throw new BrowserError('stale_ref', `${ref} disappeared while filling.`, {
          details: { reason: 'detached' },
        });
      if (kind === 'direct') {
        await withApi(
          p.frame,
          (api, id: number, v: string) => {
            const el = api.element(id) as HTMLInputElement;
            const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
            setter?.call(el, v);
            el.dispatchEvent(new Event('input', { bubbles: true }));
            el.dispatchEvent(new Event('change', { bubbles: true }));
          },
          p.entry.localId,
          value,
        );
        return;
      }
      await recordTimers(p, true);
      try {
        await page.raw.keyboard.press('Delete');
        if (value) await page.cdp.send('Input.insertText', { text: value });
      } finally {
        await recordTimers(p, false);
      }
      return { watchEcho: suggests(p) };
    },
    after: stateAfter(page, () => p),
  });
}

/** Type text key by key into the focused element, or into `ref` after focusing it. */
export async function type(
  page: BrowPage,
  text: string,
  opts: { ref?: string; delay_ms?: number } = {},
): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'type',
    ...(opts.ref ? { ref: opts.ref } : {}),
    run: async () => {
      if (opts.ref) {
        p = await prepare(page, opts.ref, 'type', { hit: false });
        await withApi(
          p.frame,
          (api, id: number) => (api.element(id) as HTMLElement | null)?.focus(),
          p.entry.localId,
        );
      }
      if (p) await recordTimers(p, true);
      try {
        await page.raw.keyboard.type(text, { delay: opts.delay_ms ?? 0 });
      } finally {
        if (p) await recordTimers(p, false);
      }
      return { watchEcho: suggests(p) };
    },
    after: stateAfter(page, () => p),
  });
}

/** Press a key or combo ("Enter", "Control+A"), at the focus or on `ref`. */
export async function press(page: BrowPage, key: string, opts: { ref?: string } = {}): Promise<Effect> {
  const combo = parseKeyCombo(key);
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'press',
    ...(opts.ref ? { ref: opts.ref } : {}),
    run: async () => {
      if (opts.ref) {
        p = await prepare(page, opts.ref, 'press', { hit: false });
        await withApi(
          p.frame,
          (api, id: number) => (api.element(id) as HTMLElement | null)?.focus(),
          p.entry.localId,
        );
      }
      await withModifiers(page, combo.modifiers as Modifier[], () => page.raw.keyboard.press(combo.key));
    },
    after: stateAfter(page, () => p),
  });
}

/** A scroll position of the page (id 0) or of a scrolling element (its local id) in a frame. */
interface ScrollPos {
  id: number;
  x: number;
  y: number;
  role: string;
  name: string;
}

/** The scroll positions of an element (when it scrolls) and of every scrolling ancestor, and the page's. */
async function scrollPositions(loc: Located): Promise<ScrollPos[]> {
  return withApi(
    loc.frame,
    (api, id: number) => {
      const out: ScrollPos[] = [];
      const el = api.element(id);
      for (let n: Element | null = el, i = 0; n && i < 256; i++) {
        const root = document.scrollingElement;
        if (n !== root && n !== document.body && n !== document.documentElement) {
          const cs = getComputedStyle(n);
          const scrolls = (o: string) => o !== 'visible' && o !== 'clip';
          const canX = scrolls(cs.overflowX) && n.scrollWidth > n.clientWidth;
          const canY = scrolls(cs.overflowY) && n.scrollHeight > n.clientHeight;
          if (canX || canY) {
            const nid = api.idOf(n);
            const d = api.describe(nid);
            out.push({ id: nid, x: n.scrollLeft, y: n.scrollTop, role: d?.role ?? '', name: d?.name ?? '' });
          }
        }
        const parent: Element | null =
          n.parentElement ??
          ((n.getRootNode() as ShadowRoot | Document) instanceof ShadowRoot
            ? (n.getRootNode() as ShadowRoot).host
            : null);
        n = parent;
      }
      out.push({ id: 0, x: Math.round(scrollX), y: Math.round(scrollY), role: 'page', name: '' });
      return out;
    },
    loc.entry.localId,
  );
}

/** "pane generic "Inbox" (e4) 0,0 → 0,300; page 0,0 → 0,120", for the positions that moved. */
function scrollMoves(page: BrowPage, loc: Located, before: ScrollPos[], after: ScrollPos[]): string[] {
  const moves: string[] = [];
  for (const a of after) {
    const b = before.find((x) => x.id === a.id);
    if (!b || (Math.round(b.x) === Math.round(a.x) && Math.round(b.y) === Math.round(a.y))) continue;
    const label =
      a.id === 0
        ? 'page'
        : `pane ${a.role || 'element'}${a.name ? ` "${a.name}"` : ''} (${page.refs.refFor(
            loc.frame,
            loc.entry.frameId,
            loc.entry.docKey,
            a.id,
            a.role,
            a.name,
          )})`;
    moves.push(`${label} ${Math.round(b.x)},${Math.round(b.y)} → ${Math.round(a.x)},${Math.round(a.y)}`);
  }
  return moves;
}

const twoFrames = (loc: Located) =>
  withApi(
    loc.frame,
    () =>
      new Promise<void>((r) => {
        requestAnimationFrame(() => requestAnimationFrame(() => r()));
        setTimeout(r, 100);
      }),
  ).catch(() => undefined);

/**
 * Scroll the page, bring a ref into view (through every pane that holds it), or scroll inside a
 * scrollable ref (a pane) by a wheel over it. Reports what scrolled, pane by pane.
 */
export async function scroll(
  page: BrowPage,
  opts: { ref?: string; delta_x?: number; delta_y?: number },
): Promise<Effect> {
  const dx = opts.delta_x ?? 0;
  const dy = opts.delta_y ?? 0;
  if (!opts.ref && dx === 0 && dy === 0) {
    throw new BrowserError('invalid_request', 'browser_scroll needs a ref or a non-zero delta_x/delta_y.', {
      hint: 'Pass {"delta_y": 500} to scroll down, or a ref to bring it into view.',
    });
  }
  const ref = opts.ref;
  let pane: Prepared | null = null;
  return performAction(page, {
    action: 'scroll',
    ...(ref ? { ref } : {}),
    after: async () => describeTarget(pane),
    run: async () => {
      if (!ref) {
        const before = await page.raw.evaluate(() => ({ x: scrollX, y: scrollY }));
        const vp = page.raw.viewport() ?? { width: 800, height: 600 };
        await page.raw.mouse.move(vp.width / 2, vp.height / 2);
        await page.raw.mouse.wheel({ deltaX: dx, deltaY: dy });
        await page.raw.evaluate(
          () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
        );
        const after = await page.raw.evaluate(() => ({ x: scrollX, y: scrollY }));
        const moved = before.x !== after.x || before.y !== after.y;
        return { message: `Page scroll ${before.x},${before.y} → ${after.x},${after.y}.`, changed: moved };
      }
      const loc = await locate(page, ref);
      const before = await scrollPositions(loc);
      const p = await prepare(page, ref, 'scroll', { hit: false });
      pane = p;
      if (dx === 0 && dy === 0) {
        const moves = scrollMoves(page, loc, before, await scrollPositions(loc));
        return moves.length
          ? { message: `Scrolled ${ref} into view: ${moves.join('; ')}.`, changed: true }
          : { message: `${ref} was already in view; nothing scrolled.`, noInput: true };
      }
      const start = await scrollPositions(loc);
      await page.raw.mouse.move(p.x, p.y);
      await page.raw.mouse.wheel({ deltaX: dx, deltaY: dy });
      await twoFrames(loc);
      let after = await scrollPositions(loc);
      const own = (xs: ScrollPos[]) => (xs[0] && xs[0].id === p.entry.localId ? xs[0] : null);
      const was = own(start);
      const now = own(after);
      let note = '';
      if (was && now && was.x === now.x && was.y === now.y) {
        // the wheel went elsewhere (a nested scroller under the pointer, a page that cancels wheels)
        await withApi(
          loc.frame,
          (api, id: number, x: number, y: number) =>
            api.element(id)?.scrollBy({ left: x, top: y, behavior: 'instant' as ScrollBehavior }),
          loc.entry.localId,
          dx,
          dy,
        );
        await twoFrames(loc);
        after = await scrollPositions(loc);
        note = ' (the wheel did not move it; scrolled it directly)';
      }
      const moves = scrollMoves(page, loc, start, after);
      const revealed = scrollMoves(page, loc, before, start);
      return {
        message: moves.length
          ? `Scrolled ${moves.join('; ')}${note}.`
          : `Nothing scrolled: ${ref} and the panes around it are at their ends.`,
        changed: moves.length > 0 || revealed.length > 0,
      };
    },
  });
}

/** Choose an option of a <select> (or listbox) by exact value or unique visible label. */
export async function select(page: BrowPage, ref: string, value: string | string[]): Promise<Effect> {
  const wanted = Array.isArray(value) ? value : [value];
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'select',
    ref,
    run: async () => {
      p = await prepare(page, ref, 'select', { hit: false });
      const res = await withApi(
        p.frame,
        (api, id: number, want: string[]) => {
          const el = api.element(id);
          if (!(el instanceof HTMLSelectElement)) return { error: 'not a <select>' };
          const opts = [...el.options];
          const picked: HTMLOptionElement[] = [];
          for (const w of want) {
            const byValue = opts.filter((o) => o.value === w);
            const byLabel = opts.filter((o) => o.label.trim() === w.trim() || o.text.trim() === w.trim());
            const match = byValue.length === 1 ? byValue : byLabel;
            if (match.length !== 1) {
              return {
                error: match.length === 0 ? `no option "${w}"` : `"${w}" matches ${match.length} options`,
                options: opts.slice(0, 30).map((o) => `${o.value} (${o.label})`),
              };
            }
            if (match[0]!.disabled) return { error: `option "${w}" is disabled` };
            picked.push(match[0]!);
          }
          if (picked.length > 1 && !el.multiple) return { error: 'this select takes one value' };
          for (const o of opts) o.selected = picked.includes(o);
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
          return { selected: picked.map((o) => o.label) };
        },
        p.entry.localId,
        wanted,
      );
      if ('error' in res) {
        throw new BrowserError('invalid_request', `Cannot select on ${ref}: ${res.error}.`, {
          hint: res.options
            ? `Options: ${res.options.join(', ')}`
            : 'Use an exact option value or a unique label.',
        });
      }
      return `Selected ${res.selected.join(', ')}.`;
    },
    after: stateAfter(page, () => p),
  });
}

/** Set a checkbox, radio or switch to `checked` by clicking it when its state differs. */
export async function check(page: BrowPage, ref: string, checked: boolean): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'check',
    ref,
    run: async () => {
      p = await prepare(page, ref, 'check');
      const now = p.states.includes('checked');
      if (now === checked) return { message: `Already ${checked ? 'checked' : 'unchecked'}.`, noInput: true };
      if (!checked && p.role === 'radio') {
        throw new BrowserError('invalid_request', 'A radio button cannot be unchecked directly.', {
          hint: 'Check another radio button of the same group instead.',
        });
      }
      await pointerReaches(page, p);
      p = await pointerFirst(page, p, 'check');
      await page.raw.mouse.click(p.x, p.y);
      const d = await readState(page, p);
      if (d && (d.checked === true) !== checked) {
        throw new BrowserError(
          'action_failed',
          `${ref} did not become ${checked ? 'checked' : 'unchecked'} after a click.`,
        );
      }
    },
    after: stateAfter(page, () => p),
  });
}

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
      await m.down();
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

/** Put workspace files into a file input. */
export async function upload(page: BrowPage, ref: string, filePaths: string[]): Promise<Effect> {
  const root = workspaceRoot(page.session.config.workspace_root);
  const paths = filePaths.map((f) => workspacePath(root, f, true));
  return performAction(page, {
    action: 'upload',
    ref,
    run: async () => {
      await prepare(page, ref, 'upload', { hit: false });
      const loc = await locate(page, ref);
      const el = await elementObject(loc);
      try {
        const kind = (
          await el.client.send('Runtime.callFunctionOn', {
            objectId: el.objectId,
            functionDeclaration:
              'function () { return this instanceof HTMLInputElement && this.type === "file" ? (this.multiple ? "multiple" : "single") : ""; }',
            returnByValue: true,
          })
        ).result.value as string;
        if (!kind) throw new BrowserError('invalid_request', `${ref} is not a file input.`);
        if (kind === 'single' && paths.length > 1) {
          throw new BrowserError('invalid_request', `${ref} takes one file; ${paths.length} were given.`, {
            hint: 'Upload one file, or pick an input with the multiple attribute.',
          });
        }
        // Chromium fires the input's input and change events itself
        await el.client.send('DOM.setFileInputFiles', { files: paths, objectId: el.objectId });
      } finally {
        await el.release();
      }
      return `Uploaded ${paths.length} file(s).`;
    },
  });
}
