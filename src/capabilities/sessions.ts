/** Sessions: start, list, stop, keep alive, and the environment report. */
import { z } from 'zod';
import type { Session } from '../core/session/session.js';
import { pageIdField, pageIdOut, sessionIdField, sessionIdOut } from './common.js';
import { defineCapability } from './define.js';

/** What every session can do (seed 001's session `capabilities`). */
const READ_CAPABILITIES = ['navigate', 'snapshot', 'read', 'screenshot', 'observe', 'evaluate_read'];
/** What a session that is not read-only can do besides. */
const WRITE_CAPABILITIES = ['act', 'scripts', 'styles', 'upload', 'download', 'storage', 'network'];

export function sessionRecord(s: Session) {
  const active = s.activePageId ? s.pages.get(s.activePageId) : undefined;
  return {
    session_id: s.id,
    id: s.id,
    backend: s.options.attached ? 'cdp_attach' : 'local_chromium',
    capabilities: s.readOnly ? READ_CAPABILITIES : [...READ_CAPABILITIES, ...WRITE_CAPABILITIES],
    browser_identity: s.host.identity ?? null,
    state: s.closed ? 'closed' : 'open',
    headless: s.options.headless,
    read_only: s.readOnly,
    incognito: s.options.incognito,
    dialog_policy: s.dialogPolicy,
    stealth: s.stealth,
    ...(s.options.profileDir ? { user_data_dir: s.options.profileDir } : {}),
    created_at: s.createdAt,
    last_used_at: s.lastUsed,
    expires_at: s.expiresAt,
    page_ids: [...s.pages.keys()],
    url: active?.url() ?? 'about:blank',
    console_entries: s.console.size,
  };
}

const sessionOut = z
  .looseObject({ session_id: sessionIdOut, page_ids: z.array(z.string()).describe('Its pages') })
  .describe('Session: id, state, options, pages, expiry');

export const startSession = defineCapability({
  name: 'browser_start_session',
  title: 'Start a browser session',
  description:
    'Start an isolated session (own cookies, storage, downloads). Usually not needed: browser_open_page starts one.',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  placement: 'place',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  output: sessionOut,
  input: z.object({
    headless: z.boolean().optional().describe('No window (default true)'),
    read_only: z.boolean().optional().describe('Refuse actions, scripts, style writes'),
    incognito: z.boolean().optional().describe('Keep nothing after (default true)'),
    viewport: z
      .object({
        width: z.number().int().min(100).max(7680).describe('CSS px'),
        height: z.number().int().min(100).max(4320).describe('CSS px'),
      })
      .strict()
      .optional()
      .describe('Default 1280×800'),
    ttl_ms: z
      .number()
      .int()
      .min(1000)
      .max(30 * 86_400_000)
      .optional()
      .describe('Stop after this many ms regardless'),
    dialog_policy: z
      .enum(['accept', 'dismiss', 'report'])
      .optional()
      .describe('JS dialogs; report waits for browser_handle_dialog'),
    stealth: z.boolean().optional().describe('Hide automation tells (headless; default: config stealth)'),
    profile: z.string().min(1).optional().describe('Start from this saved state (browser_save_state)'),
    user_data_dir: z
      .string()
      .min(1)
      .optional()
      .describe('Run in this persistent Chromium profile (a name); kept between runs'),
    save_on_stop: z.boolean().optional().describe('Save state back to profile when stopping'),
  }),
  async handle(input, ctx) {
    const { profile, save_on_stop, ...opts } = input;
    const s = await ctx.core.startSession({ ...opts, owner: ctx.owner });
    const data = sessionRecord(s);
    const text = `Started session ${s.id}${s.readOnly ? ' (read-only)' : ''}.`;
    if (profile === undefined && !save_on_stop) return { text, data };
    const { startFromProfile } = await import('../core/storage/profiles.js');
    const note = await startFromProfile(s, ctx.core.config, profile, save_on_stop === true).catch(
      async (e: unknown) => {
        await s.stop('stopped');
        throw e;
      },
    );
    return { text: `${text} ${note}`, data: { ...data, profile } };
  },
});

export const listSessions = defineCapability({
  name: 'browser_list_sessions',
  title: 'List browser sessions',
  description: 'List live sessions with their pages (pick one, or recover after a disconnect).',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z.object({ sessions: z.array(sessionOut).describe('Sessions') }).describe('Sessions'),
  input: z.object({}),
  async handle(_input, ctx) {
    const sessions = ctx.core.sessionsVisibleTo(ctx.owner);
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
  description: 'Stop a session and close its pages (a stopped one is not an error).',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: z
    .object({ session_id: sessionIdOut, was_running: z.boolean().describe('It was running') })
    .describe('Stopped'),
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
  description: 'Extend the idle lease of a page and its session for a long step (≤ 3600 s a call).',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z.object({ page_id: pageIdOut, expires_at: z.number().describe('Epoch ms') }).describe('Lease'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    seconds: z.number().int().min(1).max(3600).describe('Seconds to keep it alive'),
  }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const extra = Math.max(0, input.seconds * 1000 - ctx.core.config.idle_stop_ms);
    page.session.touch(extra);
    const expires = page.session.expiresAt; // the ttl, when it comes first, ends it sooner
    return {
      text: `Page ${page.id} stays alive until ${new Date(expires).toISOString()}.`,
      data: { page_id: page.id, session_id: page.session.id, expires_at: expires },
    };
  },
});

export const doctorCap = defineCapability({
  name: 'browser_doctor',
  title: 'Check the browser environment',
  description: 'Which Chromium would launch, its version, and what is missing (launches nothing).',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z.looseObject({ ok: z.boolean().describe('Ready to launch') }).describe('Environment report'),
  input: z.object({}),
  async handle(_input, ctx) {
    const [{ doctor }, { consoleUrl }] = await Promise.all([
      import('../core/browser/doctor.js'),
      import('../core/live/console-link.js'),
    ]);
    const r = doctor(ctx.core.config.executable);
    const console_url = await consoleUrl(ctx.core);
    const data = {
      ...r,
      headless_default: ctx.core.config.headless,
      max_sessions: ctx.core.config.max_sessions,
      active_sessions: ctx.core.sessions.size,
      open_tabs: [...ctx.core.sessions.values()].reduce((n, s) => n + s.pages.size, 0),
      allowed_schemes: ctx.core.config.allowed_schemes,
      attach_enabled: ctx.core.config.allow_attach,
      data_dir: ctx.core.dataDir,
      console_url,
    };
    const lines = [
      `Chromium: ${r.chromium_path ?? 'not found'}${r.chromium_version ? ` (${r.chromium_version})` : ''}${r.chromium_source ? ` via ${r.chromium_source}` : ''}`,
      `Node: ${r.node_version}; root: ${r.running_as_root ? 'yes (Chromium runs with --no-sandbox)' : 'no'}`,
      `Display: ${r.display ?? 'none (headless only)'}; ffmpeg: ${r.ffmpeg_path ?? 'missing'}`,
      `Sessions: ${data.active_sessions}/${data.max_sessions}; attach: ${data.attach_enabled ? 'on' : 'off'}`,
      `Web console: ${console_url ?? 'not served by this door (brow serve, brow mcp and the CLI daemon serve one)'}`,
      ...r.issues.map((i) => `- ${i.what} → ${i.enable_how}`),
      'Attach to your own Chrome: start it with --remote-debugging-port=9222 --user-data-dir=/tmp/brow-profile, set allow_attach, then browser_attach_session {cdp_url: "http://127.0.0.1:9222"}.',
    ];
    return { text: lines.join('\n'), data };
  },
});
