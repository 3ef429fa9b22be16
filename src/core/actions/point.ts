/** Pointer input at viewport coordinates (seed 002's `act` with x,y): trusted CDP mouse events, reported as an effect. */
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import type { MouseButton } from './actions.js';
import { performAction, type Effect, type TargetState } from './effect.js';

/** What the top document shows at a point (role and name of the element there), or null. */
async function elementAt(page: BrowPage, x: number, y: number): Promise<TargetState | null> {
  return withApi(
    page.raw.mainFrame(),
    (api, px: number, py: number) => {
      const el = document.elementFromPoint(px, py);
      const id = el ? api.idOf(el) : 0;
      const d = id ? api.describe(id) : null;
      return d ? { role: d.role, name: d.name } : el ? { role: el.tagName.toLowerCase(), name: '' } : null;
    },
    x,
    y,
  ).catch(() => null);
}

/** Refuse points outside the viewport: nothing there can take the input. */
async function checkPoint(page: BrowPage, x: number, y: number): Promise<void> {
  const vp =
    page.raw.viewport() ?? (await page.raw.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  if (x < 0 || y < 0 || x >= vp.width || y >= vp.height) {
    throw new BrowserError(
      'invalid_request',
      `The point (${x}, ${y}) is outside the ${vp.width}×${vp.height} viewport.`,
      {
        hint: 'Use viewport coordinates (CSS px from the top-left of the visible area), or act on a ref.',
      },
    );
  }
}

/** Click (or double-click) at a point of the viewport. */
export async function clickPoint(
  page: BrowPage,
  x: number,
  y: number,
  opts: { button?: MouseButton; click_count?: number } = {},
): Promise<Effect> {
  let target: TargetState | null = null;
  return performAction(page, {
    action: 'click',
    run: async () => {
      await checkPoint(page, x, y);
      target = await elementAt(page, x, y);
      await page.raw.mouse.click(x, y, { button: opts.button ?? 'left', count: opts.click_count ?? 1 });
      return `at (${x}, ${y})${target ? ` on ${target.role}${target.name ? ` "${target.name}"` : ''}` : ''}`;
    },
    after: async () => target,
  });
}

/** Move the mouse to a point of the viewport. */
export async function hoverPoint(page: BrowPage, x: number, y: number): Promise<Effect> {
  let target: TargetState | null = null;
  return performAction(page, {
    action: 'hover',
    run: async () => {
      await checkPoint(page, x, y);
      target = await elementAt(page, x, y);
      await page.raw.mouse.move(x, y, { steps: 2 });
      return `at (${x}, ${y})${target ? ` over ${target.role}${target.name ? ` "${target.name}"` : ''}` : ''}`;
    },
    after: async () => target,
  });
}
