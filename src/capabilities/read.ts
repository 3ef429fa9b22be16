/** Reading a page: readable Markdown, cleaned HTML, and the DOM tree with refs. */
import { z } from 'zod';
import { readPage } from '../core/read/read-page.js';
import { onPage, pageIdField, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

const readAnnotations = { readOnly: true, destructive: false, idempotent: true };

export const readPageCap = defineCapability({
  name: 'browser_read_page',
  title: 'Read the page',
  description:
    'The page as readable Markdown (headings, lists, tables, code; navigation and footers left out): what is on screen by default, or the whole page with scope "full". Long pages continue with cursor.',
  group: 'read',
  annotations: readAnnotations,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    scope: z
      .enum(['viewport', 'full'])
      .default('viewport')
      .describe('viewport = what is on screen (default); full = the whole page'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(2_000_000)
      .optional()
      .describe('Answer budget in characters (default 24000)'),
    cursor: z.string().optional().describe('Continue a truncated reading: the cursor it returned'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { text, data } = await readPage(page, {
        scope: input.scope,
        max_chars: input.max_chars ?? 24_000,
        cursor: input.cursor,
      });
      return { text, data: { ...data } };
    });
  },
});
