/** Pages: open, list, activate, close. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import type { NavigationResult } from '../core/session/navigate.js';
import type { Session } from '../core/session/session.js';
import {
  pageIdField,
  pageIdOut,
  pageOut,
  pageRecord,
  sessionIdField,
  sessionIdOut,
  timeoutMs,
} from './common.js';
import { defineCapability, type CapabilityContext } from './define.js';

// the core is loaded on the first call, so reading these declarations (the CLI client does) stays light
const navigation = () => import('../core/session/navigate.js');

/** The caller's session: the named one, else its default, else a new default session. */
async function sessionFor(ctx: CapabilityContext, sessionId?: string): Promise<Session> {
  if (sessionId) return ctx.core.session(sessionId, ctx.owner);
  const mine = [...ctx.core.sessions.values()].filter((s) => !s.closed && s.options.owner === ctx.owner);
  const last = ctx.core.defaultSession(ctx.owner);
  if (last && mine.includes(last)) return last;
  return mine.pop() ?? ctx.core.startSession({ owner: ctx.owner });
}

/** brow stopped a page's script during the call (or, in a page record, in its current document). */
/** What open, activate, close and navigate answer. */
const pageAnswer = z
  .looseObject({ page_id: pageIdOut, session_id: sessionIdOut, page: pageOut })
  .describe('The page');

export const openPage = defineCapability({
  name: 'browser_open_page',
  title: 'Open a page',
  description:
    'Open a new page (tab) at a URL and wait for it to load (starts a session if none). Returns page_id for later calls.',
  group: 'pages',
  tier: 'core',
  replay: { log: true, movesPages: true },
  world: 'open',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  output: pageAnswer,
  positional: ['url'],
  input: z.object({
    url: z.string().default('about:blank').describe('URL (http, https)'),
    session_id: sessionIdField,
    wait_until: z
      .enum(['commit', 'domcontentloaded', 'load', 'networkidle'])
      .default('load')
      .describe('When it counts as opened'),
    timeout_ms: z.number().int().min(1).max(600_000).optional().describe('ms (default 30000)'),
  }),
  async handle(input, ctx) {
    const { checkUrl, navigate, safeTitle, scriptStopText } = await navigation();
    const since = Date.now();
    checkUrl(input.url, ctx.core.config.allowed_schemes);
    const session = await sessionFor(ctx, input.session_id);
    const page = await session.openPage();
    ctx.core.notePage(page, ctx.owner);
    let status: number | null = null;
    let download: NavigationResult['download'];
    if (input.url !== 'about:blank') {
      try {
        const nav = await page.exclusive(
          () => navigate(page, input.url, input.wait_until, timeoutMs(ctx, input.timeout_ms)),
          { watch: 'free' },
        );
        status = nav.status;
        download = nav.download;
      } catch (e) {
        if (e instanceof BrowserError) e.details.page_id = page.id;
        throw e;
      }
    }
    const title = await safeTitle(page);
    const record = { ...pageRecord(page), title };
    const stopped = page.scriptStoppedSince(since);
    return {
      text:
        `Opened page ${page.id} in session ${session.id}: ${page.url()}${title ? ` — ${title}` : ''}` +
        (download
          ? `\nThe URL was a download: ${download.suggested_filename} → ${download.path} (${download.state}).`
          : '') +
        (stopped ? `\n${scriptStopText(stopped)}` : ''),
      data: {
        page_id: page.id,
        session_id: session.id,
        status,
        ...(download ? { download } : {}),
        ...(stopped ? { script_stopped: stopped } : {}),
        page: record,
      },
    };
  },
});

export const listPages = defineCapability({
  name: 'browser_list_pages',
  title: 'List pages',
  description: 'List open pages (of one session, or of all yours) to reuse one.',
  group: 'pages',
  tier: 'core',
  replay: { log: false },
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z.object({ pages: z.array(pageOut).describe('Pages') }).describe('Pages'),
  input: z.object({ session_id: sessionIdField }),
  async handle(input, ctx) {
    const { safeTitle, scriptStopText } = await navigation();
    const sessions = input.session_id
      ? [ctx.core.session(input.session_id, ctx.owner)]
      : ctx.core.sessionsVisibleTo(ctx.owner);
    const pages = await Promise.all(
      sessions
        .flatMap((s) => [...s.pages.values()])
        .map(async (p) => {
          const title = await safeTitle(p, 500);
          const stopped = p.scriptStoppedInDocument();
          return { ...pageRecord(p), title, ...(stopped ? { script_stopped: stopped } : {}) };
        }),
    );
    const text =
      pages.length === 0
        ? 'No pages are open.'
        : pages
            .map(
              (p) =>
                `${p.page_id}${p.active ? ' (active)' : ''}: ${p.url}${p.title ? ` — ${p.title}` : ''}` +
                (p.readiness === 'complete' ? '' : ` (${p.readiness})`) +
                (p.script_stopped ? ` — ${scriptStopText(p.script_stopped)}` : ''),
            )
            .join('\n');
    return { text, data: { pages, ...(input.session_id ? { session_id: input.session_id } : {}) } };
  },
});

export const activatePage = defineCapability({
  name: 'browser_activate_page',
  title: 'Activate a page',
  description: 'Bring a page to the front and make it the default page of its session.',
  group: 'pages',
  tier: 'more',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: false, destructive: false, idempotent: true },
  output: pageAnswer,
  positional: ['page_id'],
  input: z.object({ page_id: z.string().min(1).describe('Page'), session_id: sessionIdField }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    await page.exclusive(() => page.raw.bringToFront());
    page.session.activePageId = page.id;
    return {
      text: `Page ${page.id} is active: ${page.url()}`,
      data: { page_id: page.id, session_id: page.session.id, page: pageRecord(page) },
    };
  },
});

export const closePage = defineCapability({
  name: 'browser_close_page',
  title: 'Close a page',
  description: 'Close a page (tab). beforeunload handlers never keep it open.',
  group: 'pages',
  tier: 'core',
  replay: { log: true, movesPages: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: pageAnswer,
  positional: ['page_id'],
  input: z.object({ page_id: pageIdField, session_id: sessionIdField }),
  async handle(input, ctx) {
    // a crashed page can still be closed
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner, { crashed: 'allow' });
    await page.close();
    return {
      text: `Closed page ${page.id}.`,
      data: { page_id: page.id, session_id: page.session.id, page: pageRecord(page) },
    };
  },
});
