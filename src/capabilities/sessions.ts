/** Sessions: start, list, stop, keep alive, and the environment report. */
import { z } from 'zod';
import type { Session } from '../core/session/session.js';
import { pageIdField, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

export function sessionRecord(s: Session) {
  const active = s.activePageId ? s.pages.get(s.activePageId) : undefined;
  return {
    session_id: s.id,
    state: s.closed ? 'closed' : 'open',
    headless: s.options.headless,
    read_only: s.readOnly,
    incognito: s.options.incognito,
    dialog_policy: s.dialogPolicy,
    created_at: s.createdAt,
    last_used_at: s.lastUsed,
    expires_at: s.lastUsed + s.config.idle_stop_ms,
    page_ids: [...s.pages.keys()],
    url: active?.url() ?? 'about:blank',
    console_entries: s.console.size,
  };
}

export const startSession = defineCapability({
  name: 'browser_start_session',
  title: 'Start a browser session',
  description:
    'Start an isolated browser session (own cookies, storage, downloads). Most tasks can skip this: browser_open_page starts a default session.',
  group: 'sessions',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    headless: z.boolean().optional().describe('Run without a window (default true; headful needs a display)'),
    read_only: z
      .boolean()
      .optional()
      .describe('Inspection only: actions, scripts and style writes are refused'),
    incognito: z.boolean().optional().describe('Keep nothing after the session ends (default true)'),
    viewport: z
      .object({
        width: z.number().int().min(100).max(7680).describe('Viewport width in CSS px'),
        height: z.number().int().min(100).max(4320).describe('Viewport height in CSS px'),
      })
      .strict()
      .optional()
      .describe('Viewport of new pages (default 1280×800)'),
    ttl_ms: z
      .number()
      .int()
      .min(1000)
      .optional()
      .describe('Stop the session after this many ms regardless of activity'),
    dialog_policy: z
      .enum(['accept', 'dismiss', 'report'])
      .optional()
      .describe(
        'JavaScript dialogs: accept, dismiss, or report and wait for browser_handle_dialog (default report)',
      ),
  }),
  async handle(input, ctx) {
    const s = await ctx.core.startSession({ ...input, owner: ctx.owner });
    const data = sessionRecord(s);
    return { text: `Started session ${s.id}${s.readOnly ? ' (read-only)' : ''}.`, data };
  },
});

export const listSessions = defineCapability({
  name: 'browser_list_sessions',
  title: 'List browser sessions',
  description: 'List live sessions with their pages. Use it to pick a session or recover after a disconnect.',
  group: 'sessions',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({}),
  async handle(_input, ctx) {
    const sessions = [...ctx.core.sessions.values()].filter(
      (s) => ctx.owner === null || s.options.owner === null || s.options.owner === ctx.owner,
    );
    const data = { sessions: sessions.map(sessionRecord) };
    const text =
      sessions.length === 0
        ? 'No sessions.'
        : sessions
            .map(
              (s) =>
                `${s.id}${s.readOnly ? ' (read-only)' : ''}: ${s.pages.size} page(s)${s.activePageId ? `, active ${s.activePageId}` : ''}`,
            )
            .join('\n');
    return { text, data };
  },
});

export const stopSession = defineCapability({
  name: 'browser_stop_session',
  title: 'Stop a browser session',
  description: 'Stop a session and close its pages. Idempotent: stopping a stopped session is not an error.',
  group: 'sessions',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  positional: ['session_id'],
  input: z.object({
    session_id: z.string().min(1).describe('Session to stop'),
  }),
  async handle(input, ctx) {
    const wasRunning = await ctx.core.stopSession(input.session_id, ctx.owner);
    return {
      text: wasRunning
        ? `Stopped session ${input.session_id}.`
        : `Session ${input.session_id} was already stopped.`,
      data: { session_id: input.session_id, was_running: wasRunning },
    };
  },
});

export const keepAlive = defineCapability({
  name: 'browser_keep_alive',
  title: 'Keep a page alive',
  description:
    'Extend the idle lease of a page and its session for a known long step (at most 3600 s per call).',
  group: 'sessions',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    seconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .describe('How long to keep it alive without calls, in seconds'),
  }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const extra = Math.max(0, input.seconds * 1000 - ctx.core.config.idle_stop_ms);
    page.session.touch(extra);
    const expires = Date.now() + Math.max(input.seconds * 1000, ctx.core.config.idle_stop_ms);
    return {
      text: `Page ${page.id} stays alive until ${new Date(expires).toISOString()}.`,
      data: { page_id: page.id, session_id: page.session.id, expires_at: expires },
    };
  },
});

export const doctorCap = defineCapability({
  name: 'browser_doctor',
  title: 'Check the browser environment',
  description:
    'Report which Chromium would launch, its version, and what is missing, without launching anything.',
  group: 'sessions',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({}),
  async handle(_input, ctx) {
    const { doctor } = await import('../core/browser/doctor.js');
    const r = doctor(ctx.core.config.executable);
    const data = {
      ...r,
      headless_default: ctx.core.config.headless,
      max_sessions: ctx.core.config.max_sessions,
      active_sessions: ctx.core.sessions.size,
      open_tabs: [...ctx.core.sessions.values()].reduce((n, s) => n + s.pages.size, 0),
      allowed_schemes: ctx.core.config.allowed_schemes,
      attach_enabled: ctx.core.config.allow_attach,
    };
    const lines = [
      `Chromium: ${r.chromium_path ?? 'not found'}${r.chromium_version ? ` (${r.chromium_version})` : ''}${r.chromium_source ? ` via ${r.chromium_source}` : ''}`,
      `Node: ${r.node_version}; root: ${r.running_as_root ? 'yes (Chromium runs with --no-sandbox)' : 'no'}`,
      `Display: ${r.display ?? 'none (headless only)'}; ffmpeg: ${r.ffmpeg_path ?? 'missing'}`,
      `Sessions: ${data.active_sessions}/${data.max_sessions}; attach: ${data.attach_enabled ? 'on' : 'off'}`,
      ...r.issues.map((i) => `- ${i.what} → ${i.enable_how}`),
      'Attach to your own Chrome: start it with --remote-debugging-port=9222 --user-data-dir=/tmp/brow-profile, set allow_attach, then browser_attach_session {cdp_url: "http://127.0.0.1:9222"}.',
    ];
    return { text: lines.join('\n'), data };
  },
});
