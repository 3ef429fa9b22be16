/**
 * The element helpers of the `tab` API. A target is a selector (see selectors.ts), an element
 * id from tab.observe(), or an ElementHandle (e.g. from tab.id(n) or tab.waitFor()).
 */
import type { ElementHandle, KeyInput, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { workspacePath } from '../paths.js';
import type { ElementIds } from './element-ids.js';
import { isTextSelector, normalizeSelector } from './selectors.js';
import { clickText } from './text-click.js';

export interface ActionEnv {
  page: Page;
  ids: ElementIds;
  signal: AbortSignal;
  workspaceRoot: string;
  /** Milliseconds left in this run (at least 1). */
  remaining(): number;
}

export type Target = string | number | ElementHandle<Element>;
type Point = { x: number; y: number };

const isHandle = (v: unknown): v is ElementHandle<Element> =>
  typeof v === 'object' && v !== null && typeof (v as { asElement?: unknown }).asElement === 'function';

/** A handle on the target (owned: dispose it) — waits for a selector up to the run's deadline. */
export async function resolveTarget(
  env: ActionEnv,
  target: unknown,
): Promise<{ el: ElementHandle<Element>; own: boolean }> {
  if (isHandle(target)) {
    const el = target.asElement() as ElementHandle<Element> | null;
    if (!el) throw new BrowserError('invalid_request', 'The handle is not an element.');
    return { el, own: false };
  }
  if (typeof target === 'number') return { el: await env.ids.resolve(target), own: true };
  const sel = normalizeSelector(target);
  try {
    const el = (await env.page
      .locator(sel)
      .setTimeout(env.remaining())
      .waitHandle({ signal: env.signal })) as ElementHandle<Element>;
    return { el, own: true };
  } catch (e) {
    throw notFound(sel, env.remaining(), e);
  }
}

/**
 * A handle on the target as the page is now, without waiting: drag and screenshot act on what
 * is there, so a selector that matches nothing fails at once instead of at the run's timeout.
 */
export async function findTarget(
  env: ActionEnv,
  target: unknown,
  what: string,
): Promise<{ el: ElementHandle<Element>; own: boolean }> {
  if (typeof target !== 'string') return resolveTarget(env, target);
  const sel = normalizeSelector(target);
  const el = (await env.page.$(sel)) as ElementHandle<Element> | null;
  if (!el) {
    throw new BrowserError('action_failed', `No element matches ${sel} (${what}).`, {
      hint: 'Check the selector with tab.observe(), or tab.waitFor() it first when it appears later.',
    });
  }
  return { el, own: true };
}

function notFound(sel: string, left: number, cause: unknown): BrowserError {
  if ((cause as Error)?.name === 'TimeoutError' || left <= 1) {
    return new BrowserError('timeout', `No element matched ${sel} before the run's timeout.`, {
      hint: 'Check the selector with tab.observe(); for text use "text/…", for accessible names "aria/…".',
      cause,
    });
  }
  return cause instanceof BrowserError
    ? cause
    : new BrowserError('action_failed', String((cause as Error)?.message ?? cause));
}

/** Run fn with the target's handle, disposing it afterwards when we made it. */
async function withTarget<T>(
  env: ActionEnv,
  target: unknown,
  fn: (el: ElementHandle<Element>) => Promise<T>,
): Promise<T> {
  const { el, own } = await resolveTarget(env, target);
  try {
    return await fn(el);
  } finally {
    if (own) await el.dispose().catch(() => undefined);
  }
}

export async function click(env: ActionEnv, target: Target): Promise<void> {
  if (typeof target === 'string') {
    const sel = normalizeSelector(target);
    if (isTextSelector(sel)) return clickText(env.page, sel, env.remaining(), env.signal);
    await env.page.locator(sel).setTimeout(env.remaining()).click({ signal: env.signal });
    return;
  }
  await withTarget(env, target, (el) => el.click());
}

/** Type at the end of the element's text (focus alone would put the caret first). */
export async function type(env: ActionEnv, target: Target, text: string): Promise<void> {
  await withTarget(env, target, async (el) => {
    await el.evaluate((node) => {
      (node as HTMLElement).focus();
      if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
        try {
          node.setSelectionRange(node.value.length, node.value.length);
        } catch {
          // types without a selection (email, number)
        }
      }
    });
    await env.page.keyboard.type(String(text));
  });
}

export async function fill(env: ActionEnv, target: Target, value: string): Promise<void> {
  if (typeof target === 'string') {
    await env.page
      .locator(normalizeSelector(target))
      .setTimeout(env.remaining())
      .fill(String(value), { signal: env.signal });
    return;
  }
  await withTarget(env, target, async (el) => {
    const ok = await el.evaluate((node) => {
      const h = node as HTMLElement;
      if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
        h.focus();
        node.select();
        return true;
      }
      if (h.isContentEditable) {
        h.focus();
        getSelection()?.selectAllChildren(h);
        return true;
      }
      return false;
    });
    if (!ok)
      throw new BrowserError(
        'invalid_request',
        'fill needs an <input>, <textarea> or contenteditable element.',
      );
    if (String(value) === '') await env.page.keyboard.press('Delete');
    else await env.page.keyboard.sendCharacter(String(value));
  });
}

const MODIFIERS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'ControlOrMeta']);

/** Press a key or a chord ("Enter", "Control+A"), optionally focusing an element first. */
export async function press(env: ActionEnv, key: string, opts: { selector?: Target } = {}): Promise<void> {
  if (opts.selector !== undefined) await withTarget(env, opts.selector, (el) => el.focus());
  const parts = key.length > 1 && key.includes('+') ? key.split('+') : [key];
  const mods = parts
    .slice(0, -1)
    .map((m) => (m === 'ControlOrMeta' ? (process.platform === 'darwin' ? 'Meta' : 'Control') : m));
  if (!mods.every((m) => MODIFIERS.has(m))) {
    throw new BrowserError('invalid_request', `"${key}" is not a key or a modifier chord like "Control+A".`);
  }
  for (const m of mods) await env.page.keyboard.down(m as KeyInput);
  try {
    await env.page.keyboard.press(parts[parts.length - 1] as KeyInput);
  } finally {
    for (const m of mods.reverse()) await env.page.keyboard.up(m as KeyInput);
  }
}

/** Scroll by a wheel gesture at the viewport's centre; returns the new scroll position. */
export async function scroll(env: ActionEnv, deltaX: number, deltaY: number): Promise<Point> {
  await env.page.mouse.wheel({ deltaX: Number(deltaX) || 0, deltaY: Number(deltaY) || 0 });
  return env.page.evaluate(
    () =>
      new Promise<Point>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ x: scrollX, y: scrollY }))),
      ),
  );
}

async function pointOf(env: ActionEnv, where: unknown, which: string): Promise<Point> {
  if (typeof where === 'object' && where !== null && !isHandle(where)) {
    const { x, y } = where as Partial<Point>;
    if (typeof x === 'number' && typeof y === 'number') return { x, y };
  } else if (where !== null && where !== undefined) {
    const { el, own } = await findTarget(env, where, `drag ${which}`);
    try {
      await el.scrollIntoView();
      const box = await el.boundingBox();
      if (!box)
        throw new BrowserError(
          'not_interactable',
          `The drag ${which} element has no box (hidden or detached).`,
        );
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    } finally {
      if (own) await el.dispose().catch(() => undefined);
    }
  }
  throw new BrowserError(
    'invalid_request',
    `Invalid drag ${which}: pass a selector, an element id, a handle or {x, y}.`,
  );
}

/** Drag with the mouse from one target (or point) to another in 12 moves. */
export async function drag(env: ActionEnv, from: unknown, to: unknown): Promise<void> {
  const a = await pointOf(env, from, 'source');
  const b = await pointOf(env, to, 'target');
  const mouse = env.page.mouse;
  await mouse.move(a.x, a.y);
  await mouse.down();
  for (let i = 1; i <= 12; i++) await mouse.move(a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12);
  await mouse.up();
}

export async function scrollIntoView(env: ActionEnv, target: Target): Promise<void> {
  await withTarget(env, target, (el) => el.scrollIntoView());
}

/** Select options of a <select> by value or label; returns the selected values. */
export async function select(env: ActionEnv, target: Target, values: string[]): Promise<string[]> {
  return withTarget(env, target, async (el) => {
    const res = await el.evaluate((node, wanted: string[]) => {
      if (!(node instanceof HTMLSelectElement)) return { error: node.tagName.toLowerCase() };
      let picked = false;
      for (const o of Array.from(node.options)) {
        const hit = wanted.includes(o.value) || wanted.includes(o.label);
        o.selected = hit && (node.multiple || !picked);
        picked ||= hit;
      }
      node.dispatchEvent(new Event('input', { bubbles: true }));
      node.dispatchEvent(new Event('change', { bubbles: true }));
      return { selected: Array.from(node.selectedOptions).map((o) => o.value) };
    }, values.map(String));
    if ('error' in res)
      throw new BrowserError('invalid_request', `tab.select needs a <select> element (got <${res.error}>).`);
    return res.selected;
  });
}

/** Set files on an <input type=file>; paths are resolved inside the workspace root. */
export async function uploadFile(env: ActionEnv, target: Target, paths: string[]): Promise<void> {
  if (paths.length === 0)
    throw new BrowserError('invalid_request', 'tab.uploadFile needs at least one file path.');
  const files = paths.map((p) => workspacePath(env.workspaceRoot, String(p), true));
  await withTarget(env, target, async (el) => {
    const isFile = await el.evaluate((n) => n instanceof HTMLInputElement && n.type === 'file');
    if (!isFile)
      throw new BrowserError('invalid_request', 'tab.uploadFile needs an <input type="file"> element.');
    await (el as ElementHandle<HTMLInputElement>).uploadFile(...files);
  });
}
