/** Navigation: go to a URL, back/forward/reload, wait for a condition. */
import { z } from 'zod';
import {
  onPage,
  pageIdField,
  pageIdOut,
  pageOut,
  pageRecord,
  sessionIdField,
  timeoutField,
  timeoutMs,
} from './common.js';
import { defineCapability } from './define.js';
import { heartbeat, seconds, untilAborted } from './progress.js';

export const navigateCap = defineCapability({
  name: 'browser_navigate',
  title: 'Navigate a page',
  description:
    'Load a URL in an existing page. A network or HTTP error fails with navigation_failed; the page stays usable.',
  group: 'navigation',
  tier: 'core',
  replay: { log: true, movesPages: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: { handoff: true, dialog: true },
  output: z
    .looseObject({
      page_id: pageIdOut,
      status: z.number().nullable().describe('HTTP status'),
      page: pageOut,
    })
    .describe('Where the page is'),
  positional: ['url'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    url: z.string().min(1).describe('Absolute URL (http, https)'),
    wait_until: z
      .enum(['commit', 'domcontentloaded', 'load', 'networkidle'])
      .default('domcontentloaded')
      .describe('When it counts as done'),
    timeout_ms: timeoutField,
  }),
  async handle(input, ctx) {
    return onPage(
      ctx,
      input,
      async (page) => {
        const { navigate, scriptStopText } = await import('../core/session/navigate.js');
        const since = Date.now();
        const r = await navigate(page, input.url, input.wait_until, timeoutMs(ctx, input.timeout_ms));
        // the call's watchdog may also have stopped the new document's script (watch: 'free')
        const stopped = page.scriptStoppedSince(since) ?? r.script_stopped;
        const text =
          (r.download
            ? `The URL was a download: ${r.download.suggested_filename} → ${r.download.path} (${r.download.state}).`
            : `Navigated ${page.id} to ${r.url}${r.title ? ` — ${r.title}` : ''}${r.status ? ` (HTTP ${r.status})` : ''}. Take a fresh snapshot; old refs are stale.`) +
          (stopped ? `\n${scriptStopText(stopped)}` : '');
        return {
          text,
          data: {
            page_id: page.id,
            session_id: page.session.id,
            status: r.status,
            ...(r.download ? { download: r.download } : {}),
            ...(stopped ? { script_stopped: stopped } : {}),
            page: { ...pageRecord(page), title: r.title },
          },
        };
      },
      { watch: 'free' },
    ); // a hung page's script is stopped so the navigation goes through
  },
});

export const historyCap = defineCapability({
  name: 'browser_history',
  title: 'Go back, forward or reload',
  description: 'Move through the page history or reload it.',
  group: 'navigation',
  tier: 'core',
  replay: { log: true, movesPages: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: { handoff: true, dialog: true },
  output: z
    .looseObject({
      page_id: pageIdOut,
      url: z.string().describe('URL now'),
      moved: z.boolean().describe('It moved'),
    })
    .describe('Where the page is'),
  positional: ['action'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    action: z.enum(['back', 'forward', 'reload']).describe('Where to'),
    timeout_ms: timeoutField,
  }),
  async handle(input, ctx) {
    return onPage(
      ctx,
      input,
      async (page) => {
        const { history, scriptStopText } = await import('../core/session/navigate.js');
        const since = Date.now();
        const r = await history(page, input.action, timeoutMs(ctx, input.timeout_ms));
        const stopped = page.scriptStoppedSince(since) ?? r.script_stopped;
        return {
          text:
            (r.moved
              ? `${input.action}: now at ${r.url}`
              : `${input.action}: the page did not move (${r.url}).`) +
            (stopped ? `\n${scriptStopText(stopped)}` : ''),
          data: {
            page_id: page.id,
            url: r.url,
            moved: r.moved,
            title: r.title,
            ...(stopped ? { script_stopped: stopped } : {}),
          },
        };
      },
      { watch: 'free' },
    );
  },
});

export const waitCap = defineCapability({
  name: 'browser_wait',
  title: 'Wait for a condition',
  description:
    'Wait for text, a URL, a ref state, a load state, a download, an event, or (last resort) a time. A timeout says what was seen.',
  group: 'navigation',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z
    .looseObject({ page_id: pageIdOut, waited_ms: z.number().describe('ms waited') })
    .describe('Satisfied'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    condition: z
      .enum(['time', 'url', 'load_state', 'text', 'ref', 'download', 'event'])
      .describe('What to wait for'),
    value: z
      .string()
      .optional()
      .describe('url: substring, glob or /regex/; text; ref; download: name part; event: type'),
    state: z
      .string()
      .optional()
      .describe(
        'load_state: commit…networkidle; text/ref: visible|hidden|attached|detached(|enabled|disabled)',
      ),
    duration_ms: z.number().int().min(0).max(120_000).optional().describe('condition=time: ms'),
    timeout_ms: z.number().int().min(1).max(600_000).default(30_000).describe('Give up after ms'),
  }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    // waits do not take the page lock: an action may be what they wait for
    const { waitFor } = await import('../core/session/wait.js');
    const limit = timeoutMs(ctx, input.timeout_ms);
    const what = `${input.condition}${input.value ? ` "${input.value}"` : ''}`;
    const stop = heartbeat(ctx, limit, (ms) => `Waiting for ${what} (${seconds(ms)} of ${seconds(limit)}).`);
    // a caller that cancels or goes away ends the wait at once
    const r = await untilAborted(
      page.whileAlive(waitFor(page, { ...input, timeout_ms: limit, signal: ctx.signal })),
      ctx.signal,
    ).finally(stop);
    return {
      text: `Wait for ${input.condition}${input.value ? ` "${input.value}"` : ''} satisfied after ${r.waited_ms} ms.`,
      data: { page_id: page.id, ...r },
    };
  },
});
