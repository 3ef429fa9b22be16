/** Reading a page: readable Markdown, cleaned HTML, and the DOM tree with refs. */
import { z } from 'zod';
import { onPage, pageIdField, pageIdOut, sessionIdField } from './common.js';
import { READS, defineCapability } from './define.js';

const readAnnotations = { readOnly: true, destructive: false, idempotent: true };

export const readPageCap = defineCapability({
  name: 'browser_read_page',
  title: 'Read the page',
  description:
    'The page as readable Markdown (no navigation or footers): what is on screen, or all with scope "full". Long pages continue with cursor.',
  group: 'read',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: readAnnotations,
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      markdown: z.string().describe('Markdown'),
      cursor: z.string().optional().describe('Continue with this cursor'),
    })
    .describe('Reading'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    scope: z.enum(['viewport', 'full']).default('viewport').describe('viewport: on screen; full: all'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(2_000_000)
      .optional()
      .describe('Budget in chars (default 24000)'),
    cursor: z.string().optional().describe('Cursor of a truncated answer'),
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
    'The HTML without scripts, styles, classes: "outline" (structure with refs) or "full" markup; a ref reads one subtree (or an iframe).',
  group: 'read',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: readAnnotations,
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      html: z.string().describe('HTML'),
      truncated: z.boolean().describe('Cut'),
    })
    .describe('HTML'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: z.string().optional().describe("Read only this element's subtree"),
    detail: z.enum(['outline', 'full']).default('outline').describe('outline or full'),
    max_chars: z.number().int().min(1000).max(200_000).default(20_000).describe('Most chars'),
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
    'The DOM tag tree (tag, id, classes, text, child count) with refs, a few levels deep (≤ 500 nodes); a ref reads below it.',
  group: 'read',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: readAnnotations,
  gates: READS,
  output: z
    .looseObject({ page_id: pageIdOut, root: z.looseObject({}).describe('Tree') })
    .describe('DOM tree'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    ref: z.string().optional().describe('Start at this element (default: the body)'),
    depth: z.number().int().min(0).max(50).default(3).describe('Levels below the start'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { readDom } = await import('../core/read/dom.js');
      const { text, data } = await readDom(page, { ref: input.ref, depth: input.depth });
      return { text, data: { ...data } };
    });
  },
});
