/** Live CSS on one element: read computed styles, write inline styles (visual experiments only). */
import { z } from 'zod';
import { DEFAULT_PROPERTIES } from '../core/read/style-properties.js';
import { onPage, pageIdField, pageIdOut, refField, sessionIdField } from './common.js';
import { READS, ACTS, defineCapability } from './define.js';

export const readStylesCap = defineCapability({
  name: 'browser_read_styles',
  title: 'Read computed styles',
  description: `Computed CSS of one element by ref, and its inline style (${DEFAULT_PROPERTIES.length} useful properties by default).`,
  group: 'styles',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      properties: z
        .array(z.looseObject({ name: z.string().describe('Property'), value: z.string().describe('Value') }))
        .describe('Computed'),
    })
    .describe('Styles'),
  positional: ['ref'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: refField,
    properties: z.array(z.string().min(1)).max(500).optional().describe('Names, or ["*"] for all'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { readStyles } = await import('../core/read/styles.js');
      const r = await readStyles(page, input.ref, input.properties);
      const lines = r.properties.map((p) => `${p.name}: ${p.value}`);
      return {
        text: [
          `Computed styles of ${r.ref}:`,
          '<page-content>',
          ...lines,
          `inline style: ${r.inline_style || '(none)'}`,
          '</page-content>',
        ].join('\n'),
        data: { page_id: page.id, ...r },
      };
    });
  },
});

export const writeStylesCap = defineCapability({
  name: 'browser_write_styles',
  title: 'Write an inline style',
  description:
    'Set one CSS property in an element\'s inline style ("" removes it) to try a visual change; gone on the next navigation.',
  group: 'styles',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  gates: ACTS,
  output: z
    .looseObject({ page_id: pageIdOut, value: z.string().describe('Computed value now') })
    .describe('Written'),
  positional: ['ref', 'property', 'value'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: refField,
    property: z.string().min(1).describe('e.g. "color", "--accent"'),
    value: z.string().describe('"" removes it'),
    important: z.boolean().default(false).describe('Add !important'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { writeStyle } = await import('../core/read/styles.js');
      const r = await writeStyle(page, input);
      return {
        text: `${input.value === '' ? `Removed ${input.property} from` : `Set ${input.property} on`} ${input.ref}; computed value now "${r.value}". Inline style: ${r.inline_style || '(none)'}. It is gone on the next navigation.`,
        data: { page_id: page.id, ...r },
      };
    });
  },
});
