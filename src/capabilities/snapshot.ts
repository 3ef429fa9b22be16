/** Looking at a page as an outline with refs. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { onPage, pageIdField, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

export const listElementsCap = defineCapability({
  name: 'browser_list_elements',
  title: 'List page elements',
  description:
    'The page as an outline whose refs feed actions: "interactive" (default) for controls, "viewport" for what is on screen, "full", "subtree" of a ref, or "changes" since the last listing.',
  group: 'snapshot',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    scope: z
      .enum(['interactive', 'viewport', 'subtree', 'full', 'changes'])
      .default('interactive')
      .describe('interactive | viewport | subtree (needs ref) | full | changes'),
    ref: z.string().optional().describe('Root of the subtree for scope "subtree"'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(2_000_000)
      .optional()
      .describe('Answer budget in characters (default 24000)'),
    cursor: z.string().optional().describe('Continue a truncated listing: the cursor it returned'),
    format: z
      .enum(['lines', 'outline'])
      .default('lines')
      .describe(
        'lines (default): one bracketed line per element; outline: `- role "name" [ref=eN]` lines (with "changes": added/removed lines)',
      ),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      page.assertNoDialog();
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
        max_chars: input.max_chars ?? ctx.core.config.snapshot_max_chars,
      });
      return { text, data: { page_id: page.id, snapshot_id: data.id, snapshot: data } };
    });
  },
});

export const findCap = defineCapability({
  name: 'browser_find',
  title: 'Find elements',
  description:
    'Find elements by role, name or text (case-insensitive substring; role exact). Returns every match with its ref; it never picks one for you.',
  group: 'snapshot',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    role: z.string().optional().describe('ARIA role, e.g. button, link, textbox'),
    name: z.string().optional().describe('Part of the accessible name'),
    text: z.string().optional().describe('Part of the name, text or value'),
    visible_only: z.boolean().default(true).describe('Skip elements with no size on screen'),
    limit: z.number().int().min(1).max(100).default(20).describe('Most matches to return'),
  }),
  async handle(input, ctx) {
    if (!input.role && !input.name && !input.text) {
      throw new BrowserError('invalid_request', 'browser_find needs at least one of role, name or text.', {
        hint: 'For example {"role":"button","name":"submit"}.',
      });
    }
    return onPage(ctx, input, async (page) => {
      page.assertNoDialog();
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
