/** Live CSS on one element: read computed styles, write inline styles (visual experiments only). */
import { z } from 'zod';
import { DEFAULT_PROPERTIES } from '../core/read/style-properties.js';
import { onPage, pageIdField, refField, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

export const readStylesCap = defineCapability({
  name: 'browser_read_styles',
  title: 'Read computed styles',
  description: `Computed CSS of one element by ref, and its inline style. Default properties: ${DEFAULT_PROPERTIES.length} useful ones (display, position, box, font, colour…); ["*"] for all.`,
  group: 'styles',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  positional: ['ref'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: refField,
    properties: z
      .array(z.string().min(1))
      .max(500)
      .optional()
      .describe('CSS property names to read, or ["*"] for every computed property'),
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
    'Set one CSS property in an element\'s inline style ("" removes it) to try a visual change. Gone on the next navigation; never touches source files. Refused in read-only sessions.',
  group: 'styles',
  annotations: { readOnly: false, destructive: false, idempotent: true },
  positional: ['ref', 'property', 'value'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: refField,
    property: z.string().min(1).describe('CSS property, e.g. "background-color" or "--accent"'),
    value: z.string().describe('New value; "" removes the property from the inline style'),
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
