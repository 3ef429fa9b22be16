/** Pointer input at viewport coordinates, for what has no ref (a canvas, a map, a spot in an image). */
import { z } from 'zod';
import { actionOut, onPage, pageIdField, sessionIdField } from './common.js';
import { ACTS, defineCapability } from './define.js';

// the core is loaded on the first call, so reading these declarations (the CLI client does) stays light
const point = () => import('../core/actions/point.js');
const effect = () => import('../core/actions/effect.js');

const coordinates = {
  page_id: pageIdField,
  session_id: sessionIdField,
  x: z.number().min(0).max(20_000).describe('Viewport x, CSS px'),
  y: z.number().min(0).max(20_000).describe('Viewport y, CSS px'),
};

export const clickAtCap = defineCapability({
  name: 'browser_click_at',
  title: 'Click at a point',
  description:
    'Click at viewport coordinates (real mouse input), for canvas, maps, anything without a ref. Prefer browser_click.',
  group: 'actions',
  tier: 'more',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: ACTS,
  output: actionOut,
  positional: ['x', 'y'],
  input: z.object({
    ...coordinates,
    button: z.enum(['left', 'right', 'middle']).default('left').describe('Mouse button'),
    click_count: z.number().int().min(1).max(3).default(1).describe('2 for a double click'),
  }),
  handle: (input, ctx) =>
    onPage(ctx, input, async (page) => {
      const [{ clickPoint }, { renderEffect }] = await Promise.all([point(), effect()]);
      const e = await clickPoint(page, input.x, input.y, {
        button: input.button,
        click_count: input.click_count,
      });
      return {
        text: renderEffect(e),
        data: { page_id: page.id, action: { ok: e.outcome !== 'failed', page_id: page.id, ...e } },
      };
    }),
});

export const hoverAtCap = defineCapability({
  name: 'browser_hover_at',
  title: 'Hover at a point',
  description: 'Move the mouse to viewport coordinates. Prefer browser_hover with a ref.',
  group: 'actions',
  tier: 'more',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: ACTS,
  output: actionOut,
  positional: ['x', 'y'],
  input: z.object(coordinates),
  handle: (input, ctx) =>
    onPage(ctx, input, async (page) => {
      const [{ hoverPoint }, { renderEffect }] = await Promise.all([point(), effect()]);
      const e = await hoverPoint(page, input.x, input.y);
      return {
        text: renderEffect(e),
        data: { page_id: page.id, action: { ok: e.outcome !== 'failed', page_id: page.id, ...e } },
      };
    }),
});
