/** Reading a page: readable Markdown, cleaned HTML, and the DOM tree with refs. */
import { z } from 'zod';
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
      const { readPage } = await import('../core/read/read-page.js');
      const { text, data } = await readPage(page, {
        scope: input.scope,
        max_chars: input.max_chars ?? 24_000,
        cursor: input.cursor,
      });
      return { text, data: { ...data } };
    });
  },
});

export const readHtmlCap = defineCapability({
  name: 'browser_read_html',
  title: 'Read the HTML',
  description:
    'The page\'s HTML without scripts, styles and class attributes: "outline" (default) shows the element structure with refs and short text; "full" the markup. Pass a ref to read one subtree (an iframe\'s ref reads its document).',
  group: 'read',
  annotations: readAnnotations,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: z.string().optional().describe("Read only this element's subtree"),
    detail: z
      .enum(['outline', 'full'])
      .default('outline')
      .describe('outline = structure with refs; full = markup'),
    max_chars: z
      .number()
      .int()
      .min(1000)
      .max(200_000)
      .default(20_000)
      .describe('Most characters to return (1,000..200,000; default 20,000)'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { readHtml } = await import('../core/read/html.js');
      const { text, data } = await readHtml(page, {
        ref: input.ref,
        detail: input.detail,
        max_chars: input.max_chars,
      });
      return { text, data: { ...data } };
    });
  },
});

export const readDomCap = defineCapability({
  name: 'browser_read_dom',
  title: 'Read the DOM tree',
  description:
    'The DOM tag tree (tag, id, classes, own text, child count) with refs, a few levels deep (at most 500 nodes): structure the accessibility outline hides. Pass a ref to read below it.',
  group: 'read',
  annotations: readAnnotations,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: z.string().optional().describe('Start at this element (default: the body)'),
    depth: z
      .number()
      .int()
      .min(0)
      .max(50)
      .default(3)
      .describe('Levels below the start to include (default 3)'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { readDom } = await import('../core/read/dom.js');
      const { text, data } = await readDom(page, { ref: input.ref, depth: input.depth });
      return { text, data: { ...data } };
    });
  },
});
