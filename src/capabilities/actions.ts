/** Actions by ref. Each returns its effect: outcome, navigation, pages, dialogs, downloads, requests, changes. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import type * as Actions from '../core/actions/actions.js';
import type { Effect } from '../core/actions/effect.js';
import type { BrowPage } from '../core/session/page.js';
import { actionOut, onPage, pageIdField, refField, sessionIdField } from './common.js';
import { ACTS, defineCapability, type CapabilityContext, type CapabilityResult } from './define.js';

const base = { page_id: pageIdField, session_id: sessionIdField };
// every action may change the page: destructive in MCP's sense
const actionAnnotations = { readOnly: false, destructive: true, idempotent: false };

async function result(page: BrowPage, e: Effect, label: string): Promise<CapabilityResult> {
  const { renderEffect } = await import('../core/actions/effect.js');
  const t = e.target;
  return {
    text: renderEffect(e, label),
    data: {
      page_id: page.id,
      action: {
        ok: e.outcome !== 'failed',
        page_id: page.id,
        ...e,
        // seed 001's names beside brow's: the target as the seed records it, its state after, the diff
        ...(t
          ? {
              target: { ...t, text: t.text ?? '', is_sensitive: t.is_sensitive === true },
              post_action_state: { value: t.value ?? null, label: t.name },
            }
          : { post_action_state: null }),
        snapshot_diff: e.changes,
      },
    },
  };
}

function runAction(
  ctx: CapabilityContext,
  input: { page_id?: string | undefined; session_id?: string | undefined; ref?: string | undefined },
  fn: (act: typeof Actions, page: BrowPage) => Promise<Effect>,
): Promise<CapabilityResult> {
  return onPage(ctx, input, async (page) => {
    // the core is loaded on the first action, so reading these declarations (the CLI client does) stays light
    const e = await fn(await import('../core/actions/actions.js'), page);
    const t = e.target;
    const label = input.ref ? `[${t?.role ?? 'element'} ref=${input.ref}]${t?.name ? ` ${t.name}` : ''}` : '';
    return result(page, e, label);
  });
}

export const clickCap = defineCapability({
  name: 'browser_click',
  title: 'Click an element',
  description:
    'Click an element by ref with real mouse input (scrolled into view, checked visible, enabled, not covered; hovered first).',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['ref'],
  input: z.object({
    ...base,
    ref: refField,
    button: z.enum(['left', 'right', 'middle']).default('left').describe('Mouse button'),
    click_count: z.number().int().min(1).max(3).default(1).describe('2 for a double click'),
    modifiers: z
      .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
      .optional()
      .describe('Keys held during the click'),
  }),
  handle: (input, ctx) =>
    runAction(ctx, input, (act, page) =>
      act.click(page, input.ref, {
        button: input.button,
        click_count: input.click_count,
        ...(input.modifiers ? { modifiers: input.modifiers } : {}),
      }),
    ),
});

export const hoverCap = defineCapability({
  name: 'browser_hover',
  title: 'Hover over an element',
  description: 'Move the mouse over an element by ref (menus, tooltips).',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['ref'],
  input: z.object({ ...base, ref: refField }),
  handle: (input, ctx) => runAction(ctx, input, (act, page) => act.hover(page, input.ref)),
});

export const fillCap = defineCapability({
  name: 'browser_fill',
  title: 'Fill a field',
  description:
    'Replace the value of a text field, textarea or contenteditable by ref (passwords never echoed).',
  group: 'actions',
  tier: 'core',
  replay: { log: true, textInput: 'value' },
  world: 'open',
  annotations: { ...actionAnnotations, idempotent: true },
  gates: ACTS,
  output: actionOut,
  positional: ['ref', 'value'],
  input: z.object({
    ...base,
    ref: refField,
    value: z.string().describe('The new value (empty clears the field)'),
  }),
  handle: (input, ctx) => runAction(ctx, input, (act, page) => act.fill(page, input.ref, input.value)),
});

export const typeCap = defineCapability({
  name: 'browser_type',
  title: 'Type text',
  description: 'Type text key by key at the focus, or into a ref (for inputs that react per key).',
  group: 'actions',
  tier: 'core',
  replay: { log: true, textInput: 'text' },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['text'],
  input: z.object({
    ...base,
    ref: z.string().optional().describe('Element to focus first; omit: the focus'),
    text: z.string().max(10_000).describe('Text to type (browser_fill for long text)'),
    delay_ms: z.number().int().min(0).max(1000).optional().describe('Pause between keys in ms'),
  }),
  handle: (input, ctx) => {
    // keys with pauses must fit in the call's bound: refuse now rather than hold the page for minutes
    const limit = ctx.core.config.default_timeout_ms;
    const needs = [...input.text].length * (input.delay_ms ?? 0);
    if (needs > limit) {
      throw new BrowserError(
        'invalid_request',
        `Typing ${[...input.text].length} characters ${input.delay_ms} ms apart takes ${Math.round(needs / 1000)} s, more than a call's ${Math.round(limit / 1000)} s.`,
        {
          hint: 'Lower delay_ms (0 types as fast as the page takes keys), type in shorter parts, or set the text at once with browser_fill.',
          details: { needs_ms: needs, limit_ms: limit },
        },
      );
    }
    return runAction(ctx, input, (act, page) =>
      act.type(page, input.text, {
        ...(input.ref ? { ref: input.ref } : {}),
        ...(input.delay_ms !== undefined ? { delay_ms: input.delay_ms } : {}),
        signal: ctx.signal,
      }),
    );
  },
});

export const pressCap = defineCapability({
  name: 'browser_press',
  title: 'Press a key',
  description: 'Press a key or combo ("Enter", "Tab", "Control+A") at the current focus, or on a ref.',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['key'],
  input: z.object({
    ...base,
    key: z.string().min(1).describe('e.g. Enter, ArrowDown, Control+A'),
    ref: z.string().optional().describe('Element to focus first; omit: the focus'),
  }),
  handle: (input, ctx) =>
    runAction(ctx, input, (act, page) => act.press(page, input.key, input.ref ? { ref: input.ref } : {})),
});

export const scrollCap = defineCapability({
  name: 'browser_scroll',
  title: 'Scroll',
  description:
    'Scroll the page by delta_x/delta_y, bring a ref into view, or scroll inside a pane ref by the deltas. Says what scrolled.',
  group: 'actions',
  tier: 'more',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  input: z.object({
    ...base,
    ref: z.string().optional().describe('Bring into view; with deltas: the pane to scroll'),
    delta_x: z
      .number()
      .min(-100_000)
      .max(100_000)
      .default(0)
      .describe('Horizontal pixels; positive moves right'),
    delta_y: z
      .number()
      .min(-100_000)
      .max(100_000)
      .default(0)
      .describe('Vertical pixels; positive moves down'),
  }),
  handle: (input, ctx) =>
    runAction(ctx, input, (act, page) =>
      act.scroll(page, {
        ...(input.ref ? { ref: input.ref } : {}),
        delta_x: input.delta_x,
        delta_y: input.delta_y,
      }),
    ),
});

export const selectCap = defineCapability({
  name: 'browser_select',
  title: 'Select an option',
  description: 'Choose an option of a select by exact value or unique visible label.',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: { ...actionAnnotations, idempotent: true },
  gates: ACTS,
  output: actionOut,
  positional: ['ref', 'value'],
  input: z.object({
    ...base,
    ref: refField,
    value: z
      .union([z.string(), z.array(z.string())])
      .describe('Option value or label (an array for multi-selects)'),
  }),
  handle: (input, ctx) => runAction(ctx, input, (act, page) => act.select(page, input.ref, input.value)),
});

export const checkCap = defineCapability({
  name: 'browser_check',
  title: 'Check or uncheck',
  description: 'Set a checkbox, radio or switch checked or unchecked (no-op when it already is).',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: { ...actionAnnotations, idempotent: true },
  gates: ACTS,
  output: actionOut,
  positional: ['ref'],
  input: z.object({
    ...base,
    ref: refField,
    checked: z.boolean().default(true).describe('The state wanted'),
  }),
  handle: (input, ctx) => runAction(ctx, input, (act, page) => act.check(page, input.ref, input.checked)),
});

export const dragCap = defineCapability({
  name: 'browser_drag',
  title: 'Drag and drop',
  description:
    'Drag an element with a real pointer path onto a ref, to a point, or by an offset (sortable lists, ' +
    'HTML5 drag, sliders, resizers). One kind of target. Says what moved.',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['ref', 'to_ref'],
  input: z.object({
    ...base,
    ref: z.string().min(1).describe('Element to drag'),
    to_ref: z.string().min(1).optional().describe('Drop onto this ref (a few px past its centre)'),
    to_x: z.number().min(0).max(20_000).optional().describe('Drop at viewport x (with to_y)'),
    to_y: z.number().min(0).max(20_000).optional().describe('Drop at viewport y (with to_x)'),
    offset_x: z.number().min(-20_000).max(20_000).optional().describe('Move right by px (negative: left)'),
    offset_y: z.number().min(-20_000).max(20_000).optional().describe('Move down by px (negative: up)'),
  }),
  handle: (input, ctx) =>
    runAction(ctx, input, (act, page) =>
      act.drag(page, input.ref, {
        to_ref: input.to_ref,
        to_x: input.to_x,
        to_y: input.to_y,
        offset_x: input.offset_x,
        offset_y: input.offset_y,
      }),
    ),
});

export const uploadCap = defineCapability({
  name: 'browser_upload_file',
  title: 'Upload files',
  description: 'Put files into a file input by ref (paths inside the workspace root).',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: actionAnnotations,
  gates: ACTS,
  output: actionOut,
  positional: ['ref', 'file_paths'],
  input: z.object({
    ...base,
    ref: refField,
    file_paths: z.array(z.string().min(1)).min(1).describe('Files inside the workspace'),
  }),
  handle: (input, ctx) => runAction(ctx, input, (act, page) => act.upload(page, input.ref, input.file_paths)),
});
