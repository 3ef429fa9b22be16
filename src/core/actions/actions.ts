/** The actions by ref: trusted CDP input, checked first, each reporting its effect. */
import { BrowserError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import { performAction, type Effect, type TargetState } from './effect.js';
import { sleep, type RequestWatch } from './settle.js';
import { parseKeyCombo } from './keys.js';
import { elementObject, locate } from './locate.js';
import {
  describeTarget,
  pointerReaches,
  prepare,
  readState,
  armPresses,
  missedText,
  pressReport,
  remeasure,
  twoFrames,
  type Prepared,
} from './prepare.js';

export type MouseButton = 'left' | 'right' | 'middle';
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

export { scroll } from './scroll.js';
export { drag, dragTargetKind, type DragTarget } from './drag.js';

function stateAfter(page: BrowPage, prepared: () => Prepared | null) {
  return async (): Promise<TargetState | null> => {
    const p = prepared();
    if (!p) return null;
    const d = await readState(page, p).catch(() => null);
    // gone with the action (a picked option, a closed menu's item): named as it was when acted on
    if (!d) return { role: p.role, name: p.name, gone: true };
    const sensitive = d.sensitive || (d.tag === 'input' && p.states.includes('password'));
    return {
      role: d.role,
      name: d.name,
      text: d.text,
      // a secret's value is never echoed: only whether it holds one
      ...(d.value !== undefined ? { value: sensitive ? (d.value ? '••••' : '') : d.value } : {}),
      ...(d.checked !== undefined ? { checked: d.checked } : {}),
      states: d.states,
      ...(sensitive ? { is_sensitive: true } : {}),
    };
  };
}

/** Note the timers the page sets while typed input goes in (see the page script's recordTimers). */
const recordTimers = (p: Prepared, on: boolean) =>
  withApi(p.frame, (api, start: boolean) => api.recordTimers(start), on).catch(() => undefined);

/**
 * Whether a field may answer typing later (autocomplete, search as you type): a combobox or a
 * searchbox, or a page that set a timer while the keys went in that is still due (a debounce, with
 * listeners on the field or delegated to a root as React does). Asked only when the typed value is
 * the only change so far.
 */
const suggests = (p: Prepared | null) => async (): Promise<boolean> => {
  if (!p) return false;
  if (p.role === 'combobox' || p.role === 'searchbox') return true;
  return timerDue(p)();
};

/** Whether a timer the page set while the keys went in is still due (see RunResult.timerDue). */
const timerDue = (p: Prepared | null) => (): Promise<boolean> =>
  p ? withApi(p.frame, (api) => api.timerDue()).catch(() => false) : Promise.resolve(false);

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
        // no script listens to the pointer passing over and nothing changed: press at once
        if (api.mutations().seq === seq0 && !api.mayReactToHover()) return resolve(false);
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

/** The events a press must bring to its target: the press, and what pages react to. */
function pressTypes(button: MouseButton, count: number): string[] {
  const main = button === 'left' ? 'click' : button === 'right' ? 'contextmenu' : 'auxclick';
  return ['mousedown', main, ...(count >= 2 && button === 'left' ? ['dblclick'] : [])];
}

/** The longest a missed press waits for the page's pictures to arrive before trying again. */
const RELOAD_WAIT_MS = 1000;

/** Requests that move or resize what is already on the page when they arrive. */
const LAYOUT_LOADS = new Set(['image', 'font', 'stylesheet']);

/**
 * Wait (bounded) until the page's pictures, fonts and style sheets on their way have arrived: those
 * the action set loading (a hover picture) and those the page asked for before (icons that take
 * their size when their picture comes and push their neighbours along).
 */
async function picturesLoaded(page: BrowPage, watch: RequestWatch): Promise<void> {
  const deadline = Date.now() + RELOAD_WAIT_MS;
  const loading = () =>
    watch.pending().some((r) => LAYOUT_LOADS.has(r.resourceType())) ||
    page.session.network.read(
      (e) => e.pending && e.page_id === page.id && LAYOUT_LOADS.has(e.resource_type),
      0,
      1,
    ).length > 0;
  while (Date.now() < deadline && !page.closed && loading()) await sleep(10);
}

/**
 * Send pointer input at the prepared point and confirm, in the target's document, that the target
 * took it (`needed`: the event types that must reach it or a part of it). When the input went
 * elsewhere or nowhere (the target changed under the pointer: a hover picture swapped in that is
 * still loading, a layout shift, input dropped by a document not ready for it), wait for what it
 * set loading, measure again (failing as prepare does when the target is now covered or gone) and
 * send it once more. A second miss is the answer: `missed` names where the input went.
 */
async function confirmed(
  page: BrowPage,
  p: Prepared,
  action: string,
  watch: RequestWatch,
  needed: string[],
  send: (p: Prepared) => Promise<void>,
): Promise<{ p: Prepared; missed?: string }> {
  for (let attempt = 0; ; attempt++) {
    await armPresses(p);
    await send(p);
    const r = await pressReport(p, needed);
    // unreadable: the input took the document away (a link followed), which the effect shows
    if (!r || r.delivered) return { p };
    // a second press where a target that left the page was could hit what took its place
    if (attempt >= 1 || r.gone) {
      return { p, missed: missedText(page, p, action, r) };
    }
    await picturesLoaded(page, watch);
    p = await remeasure(page, p, action, true, true);
    if (action !== 'hover') {
      // the pointer onto it first, for what its :hover style asks for (another picture) to arrive
      await page.raw.mouse.move(p.x, p.y);
      await twoFrames(p);
      await picturesLoaded(page, watch);
      p = await pointerFirst(page, await remeasure(page, p, action, true, true), action);
    }
  }
}

/** What an answer says about a pointer action that brow saw no listener for. */
const NO_HANDLER = (action: string) =>
  `No ${action} handler seen on the target; the page may handle it on an ancestor (delegated handlers).`;

export async function click(
  page: BrowPage,
  ref: string,
  opts: { button?: MouseButton; click_count?: number; modifiers?: Modifier[] } = {},
): Promise<Effect> {
  let p: Prepared | null = null;
  const button = opts.button ?? 'left';
  const count = opts.click_count ?? 1;
  const what = count === 2 ? 'double click' : 'click';
  return performAction(page, {
    action: 'click',
    ref,
    run: async ({ watch }) => {
      p = await prepare(page, ref, 'click');
      await pointerReaches(page, p);
      p = await pointerFirst(page, p, 'click');
      const sent = await confirmed(page, p, 'click', watch, pressTypes(button, count), ({ x, y }) =>
        withModifiers(page, opts.modifiers ?? [], () => page.raw.mouse.click(x, y, { button, count })),
      );
      p = sent.p;
      return {
        ...(sent.missed ? { missed: sent.missed } : { delivered: `The target received the ${what}.` }),
        ...(p.unlisted ? { message: NO_HANDLER('click') } : {}),
      };
    },
    after: stateAfter(page, () => p),
  });
}

export async function hover(page: BrowPage, ref: string): Promise<Effect> {
  let p: Prepared | null = null;
  return performAction(page, {
    action: 'hover',
    ref,
    run: async ({ watch }) => {
      p = await prepare(page, ref, 'hover');
      await pointerReaches(page, p);
      const sent = await confirmed(page, p, 'hover', watch, ['mousemove'], ({ x, y }) =>
        page.raw.mouse.move(x, y, { steps: 2 }),
      );
      p = sent.p;
      return {
        ...(sent.missed ? { missed: sent.missed } : { delivered: 'The pointer is on the target.' }),
        ...(p.unlisted ? { message: NO_HANDLER('hover') } : {}),
      };
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
      return { watchEcho: suggests(p), timerDue: timerDue(p) };
    },
    after: stateAfter(page, () => p),
  });
}

/** Type text key by key into the focused element, or into `ref` after focusing it. */
export async function type(
  page: BrowPage,
  text: string,
  opts: { ref?: string; delay_ms?: number; signal?: AbortSignal | undefined } = {},
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
        await typeKeys(page, text, opts.delay_ms ?? 0, opts.signal);
      } finally {
        if (p) await recordTimers(p, false);
      }
      return { watchEcho: suggests(p), timerDue: timerDue(p) };
    },
    after: stateAfter(page, () => p),
  });
}

/**
 * Type character by character, stopping between two keys when the caller goes away (a cancelled
 * call must not keep typing into a page it no longer holds).
 */
async function typeKeys(page: BrowPage, text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
  let typed = 0;
  for (const ch of text) {
    if (signal?.aborted) {
      throw new BrowserError(
        'timeout',
        `Typing stopped after ${typed} of ${[...text].length} characters: the call was cancelled.`,
        {
          details: { typed, reason: 'cancelled' },
        },
      );
    }
    await page.raw.keyboard.type(ch);
    typed += 1;
    if (delayMs > 0 && typed < text.length) await new Promise((r) => setTimeout(r, delayMs));
  }
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
      if (p?.unlisted) return NO_HANDLER('key');
    },
    after: stateAfter(page, () => p),
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
    run: async ({ watch }) => {
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
      const sent = await confirmed(page, p, 'check', watch, pressTypes('left', 1), ({ x, y }) =>
        page.raw.mouse.click(x, y),
      );
      p = sent.p;
      if (sent.missed) return { missed: sent.missed };
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
