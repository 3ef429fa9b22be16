/** Looking at a page as an outline with refs. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { onPage, pageIdField, pageIdOut, sessionIdField } from './common.js';
import { READS, defineCapability } from './define.js';

export const listElementsCap = defineCapability({
  name: 'browser_list_elements',
  title: 'List page elements',
  description:
    'The page as an outline whose refs feed actions: "interactive" (default) controls, "viewport", "full", "subtree" of a ref, or "changes" since the last listing.',
  group: 'snapshot',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      snapshot_id: z.string().optional().describe('Snapshot id'),
      main_frame_id: z.string().optional().describe('Frame id of the top document'),
      snapshot: z
        .looseObject({
          truncated: z.boolean().describe('More to read: follow cursor'),
          cursor: z.string().optional().describe('Continue with this cursor'),
          refs: z.array(z.looseObject({ ref: z.string().describe('Ref') })).describe('Elements shown'),
        })
        .optional()
        .describe('Snapshot: scope, url, refs, counts, cursor, diff'),
      outline: z.looseObject({}).optional().describe('format "outline": tree or diff'),
    })
    .describe('Listing'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    scope: z
      .enum(['interactive', 'viewport', 'subtree', 'full', 'changes'])
      .default('interactive')
      .describe('subtree needs ref'),
    ref: z.string().optional().describe('Subtree root'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(2_000_000)
      .optional()
      .describe('Budget in chars (default 24000)'),
    cursor: z.string().optional().describe('Cursor of a truncated answer'),
    depth: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('Only lines this many levels deep or less (0 = top)'),
    format: z
      .enum(['lines', 'outline'])
      .default('lines')
      .describe('lines: `[role ref=eN …] name`; outline: `- role "name" [ref=eN]`'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      if (input.format === 'outline') {
        if (input.cursor)
          throw new BrowserError('invalid_request', 'The outline format has no cursor.', {
            hint: 'Read a subtree (scope "subtree" with a ref) or raise max_chars.',
          });
        if (input.scope === 'subtree' && !input.ref)
          throw new BrowserError('invalid_request', 'scope "subtree" needs a ref.');
        const changes = input.scope === 'changes';
        const { outlineSnapshot } = await import('../core/snapshot/render-outline.js');
        const o = await outlineSnapshot(page, {
          scope: input.scope === 'changes' ? 'full' : input.scope,
          ...(input.ref ? { ref: input.ref } : {}),
          diff: changes,
          ...(input.depth !== undefined ? { depth: input.depth } : {}),
          max_chars: input.max_chars ?? ctx.core.config.snapshot_max_chars,
        });
        const body = o.diff
          ? [...o.diff.added.map((l) => `+ ${l}`), ...o.diff.removed.map((l) => `- ${l}`)]
          : [o.tree];
        const text = [
          `Page: ${o.title || o.url}`,
          `URL: ${o.url}`,
          `Generation: ${o.generation}`,
          '<page-content>',
          ...body,
          '</page-content>',
        ].join('\n');
        return { text, data: { page_id: page.id, session_id: page.session.id, outline: o } };
      }
      const { listElements } = await import('../core/snapshot/list-elements.js');
      const { text, data } = await listElements(page, {
        scope: input.scope,
        ...(input.ref ? { ref: input.ref } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
        ...(input.depth !== undefined ? { depth: input.depth } : {}),
        max_chars: input.max_chars ?? ctx.core.config.snapshot_max_chars,
      });
      const { frameIdOf } = await import('../core/snapshot/snapshot.js');
      return {
        text,
        data: {
          page_id: page.id,
          snapshot_id: data.id,
          main_frame_id: frameIdOf(page.raw.mainFrame()),
          snapshot: data,
        },
      };
    });
  },
});

export const findCap = defineCapability({
  name: 'browser_find',
  title: 'Find elements',
  description:
    'Find elements by role (exact), name or text (substrings, any case). Returns every match with its ref.',
  group: 'snapshot',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      matches: z.array(z.looseObject({ ref: z.string().describe('Ref') })).describe('Matches'),
      total: z.number().describe('All matches'),
    })
    .describe('Matches'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    role: z.string().optional().describe('e.g. button, link, textbox'),
    name: z.string().optional().describe('Part of the name'),
    text: z.string().optional().describe('Part of name, text or value'),
    visible_only: z.boolean().default(true).describe('Skip sizeless elements; false: hidden ones too'),
    limit: z.number().int().min(1).max(100).default(20).describe('Most matches'),
  }),
  async handle(input, ctx) {
    if (!input.role && !input.name && !input.text) {
      throw new BrowserError('invalid_request', 'browser_find needs at least one of role, name or text.', {
        hint: 'For example {"role":"button","name":"submit"}.',
      });
    }
    return onPage(ctx, input, async (page) => {
      const { find } = await import('../core/snapshot/find.js');
      const r = await find(page, input);
      const lines = r.matches.map(
        (m) => `[${m.role} ref=${m.ref} actions=${m.actions.join(',')}] ${m.name || m.text}`,
      );
      const text =
        r.matches.length === 0
          ? 'No matches.'
          : `${r.total} match(es)${r.truncated ? `, first ${r.matches.length} shown` : ''}:\n${lines.join('\n')}`;
      return { text, data: { page_id: page.id, matches: r.matches, total: r.total, truncated: r.truncated } };
    });
  },
});
