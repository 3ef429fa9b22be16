/** Attach to a person's running Chrome over CDP (off unless allow_attach). */
import { z } from 'zod';
import { pageIdOut, pageRecord, sessionIdOut, timeoutMs } from './common.js';
import { defineCapability } from './define.js';

const cdpUrl = z.string().min(1).describe('CDP endpoint: http://127.0.0.1:9222 or ws://…');

export const attachSession = defineCapability({
  name: 'browser_attach_session',
  title: "Attach to a person's browser",
  description:
    'Bind a session to a running Chrome over CDP: a fresh tab, or adopt one by URL substring. Stopping closes only a tab brow opened. Needs allow_attach.',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  placement: 'place',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  output: z
    .looseObject({
      session_id: sessionIdOut,
      page_id: pageIdOut,
      adopted: z.boolean().describe('Adopted a tab'),
    })
    .describe('Attached'),
  positional: ['cdp_url'],
  input: z.object({
    cdp_url: cdpUrl,
    adopt_url_substring: z.string().min(1).optional().describe('Adopt the tab whose URL contains this'),
    url: z.string().optional().describe('URL for a fresh tab'),
    read_only: z.boolean().optional().describe('Refuse actions, scripts, style writes'),
  }),
  async handle(input, ctx) {
    const { session, adopted } = await ctx.core.attachSession({ ...input, owner: ctx.owner });
    const page = session.pages.values().next().value!;
    if (input.url && !adopted) {
      const { navigate } = await import('../core/session/navigate.js');
      await page.exclusive(() => navigate(page, input.url!, 'load', timeoutMs(ctx, undefined)));
    }
    ctx.core.notePage(page, ctx.owner);
    return {
      text: `${adopted ? 'Adopted' : 'Opened'} tab ${page.id} (${page.url()}) in session ${session.id} attached to ${input.cdp_url}${session.readOnly ? ' (read-only)' : ''}.`,
      data: {
        session_id: session.id,
        page_id: page.id,
        url: page.url(),
        read_only: session.readOnly,
        adopted,
        page: pageRecord(page),
      },
    };
  },
});

export const listTabs = defineCapability({
  name: 'browser_list_tabs',
  title: 'List tabs of a running browser',
  description:
    'List the tabs of a running Chrome at a CDP endpoint, and which are adopted. Needs allow_attach.',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  placement: 'place',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z
    .object({ tabs: z.array(z.looseObject({ url: z.string().describe('URL') })).describe('Tabs') })
    .describe('Tabs'),
  positional: ['cdp_url'],
  input: z.object({ cdp_url: cdpUrl }),
  async handle(input, ctx) {
    const tabs = await ctx.core.listTabs(input.cdp_url);
    const text =
      tabs.length === 0
        ? 'No tabs.'
        : tabs
            .map((t) => `${t.adopted ? '[adopted] ' : ''}${t.url}${t.title ? ` — ${t.title}` : ''}`)
            .join('\n');
    return { text, data: { tabs } };
  },
});
