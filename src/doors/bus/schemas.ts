/** Seed 002's payload shapes for the `browser::*` functions: requests (validated, strict) and responses (documented). */
import { z } from 'zod';

const sessionId = z.string().min(1).describe('Session from browser::sessions::start');
const ref = z.string().min(1).describe('Element ref from the latest browser::snapshot, e.g. "e12"');
const timeoutMs = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Timeout in ms (default 30000, clamped to 120000)');
const cdpUrl = z.string().min(1).describe('CDP endpoint of a running Chrome, e.g. http://127.0.0.1:9222');

const req = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** How long a call waits for a person (handoff, pick). */
const personTimeout = z
  .number()
  .int()
  .min(1000)
  .optional()
  .describe('How long to wait for the person (default 300000)');

export const requests = {
  start: req({
    url: z.string().optional().describe('URL to open in the session (default about:blank)'),
    headful: z.boolean().optional().describe('Show a window (needs a display); default headless'),
    read_only: z
      .boolean()
      .optional()
      .describe('Inspection only: actions, execute and style writes are refused'),
    incognito: z.boolean().optional().describe('Keep nothing after the session ends (default true)'),
    ttl_ms: z
      .number()
      .int()
      .min(1000)
      .optional()
      .describe('Stop the session after this many ms regardless of activity'),
  }),
  none: req({}),
  session: req({ session_id: sessionId }),
  attach: req({
    cdp_url: cdpUrl,
    adopt_url_substring: z
      .string()
      .min(1)
      .optional()
      .describe('Adopt the open tab whose URL contains this text'),
    url: z.string().optional().describe('URL for the fresh tab (ignored when adopting)'),
    read_only: z.boolean().optional().describe('Inspection only'),
  }),
  tabs: req({ cdp_url: cdpUrl }),
  navigate: req({
    session_id: sessionId,
    url: z.string().min(1).describe('Absolute URL to load'),
    timeout_ms: timeoutMs,
  }),
  snapshot: req({
    session_id: sessionId,
    diff: z
      .boolean()
      .optional()
      .describe('Only what changed since the previous snapshot (added/removed lines)'),
    ref: ref.optional().describe("Only this element's subtree (a ref from an earlier snapshot)"),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(2_000_000)
      .optional()
      .describe('Budget of the tree in characters (default: snapshot_max_chars of the configuration)'),
  }),
  act: req({
    session_id: sessionId,
    action: z.enum(['click', 'type', 'press', 'scroll', 'hover', 'select', 'drag']).describe('What to do'),
    ref: ref.optional(),
    x: z.number().min(0).optional().describe('Viewport x in CSS px (click or hover without a ref)'),
    y: z.number().min(0).optional().describe('Viewport y in CSS px (click or hover without a ref)'),
    text: z.string().optional().describe('type: the text to type'),
    key: z
      .string()
      .optional()
      .describe('press: Enter, Tab, Escape, Backspace, Delete, Arrow*, Home, End, PageUp, PageDown, combos'),
    delta_y: z.number().optional().describe('scroll: vertical pixels, positive moves down'),
    value: z.string().optional().describe('select: option value or label'),
    to_ref: z.string().min(1).optional().describe('drag: ref of the drop target'),
    to_x: z.number().optional().describe('drag: drop at this viewport x in CSS px (with to_y)'),
    to_y: z.number().optional().describe('drag: drop at this viewport y in CSS px (with to_x)'),
    offset_x: z.number().optional().describe("drag: move by this many px right from the source's centre"),
    offset_y: z.number().optional().describe("drag: move by this many px down from the source's centre"),
  }),
  screenshot: req({
    session_id: sessionId,
    full_page: z.boolean().optional().describe('The whole page instead of the viewport'),
  }),
  evaluate: req({
    session_id: sessionId,
    expression: z.string().min(1).describe('JavaScript expression; its completion value is returned'),
    timeout_ms: timeoutMs,
  }),
  execute: req({
    session_id: sessionId,
    code: z
      .string()
      .min(1)
      .describe('Async script body: await, return, log(), sleep(ms), waitFor(selector), state'),
    timeout_ms: timeoutMs,
  }),
  console: req({
    session_id: sessionId,
    pattern: z.string().optional().describe('Regular expression on the message text'),
    level: z
      .enum(['log', 'info', 'warning', 'error', 'debug', 'exception'])
      .optional()
      .describe('error includes exceptions'),
    since_seq: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Only entries after this seq (last_seq of an earlier read)'),
    limit: z.number().int().min(1).max(500).optional().describe('Most entries (default 100, newest kept)'),
  }),
  network: req({
    session_id: sessionId,
    pattern: z.string().optional().describe('Regular expression on the URL'),
    failed_only: z.boolean().optional().describe('Only network errors and HTTP status ≥ 400'),
    since_seq: z.number().int().min(0).optional().describe('Only entries after this seq'),
    limit: z.number().int().min(1).max(500).optional().describe('Most entries (default 100, newest kept)'),
  }),
  history: req({
    session_id: sessionId,
    action: z.enum(['back', 'forward', 'reload']).describe('back, forward or reload'),
  }),
  dom: req({
    session_id: sessionId,
    ref: ref.optional(),
    depth: z.number().int().min(0).max(50).optional().describe('Levels below the root (default 3)'),
  }),
  stylesRead: req({
    session_id: sessionId,
    ref,
    properties: z.array(z.string()).optional().describe('CSS properties; ["*"] = all; default a curated 30'),
  }),
  stylesWrite: req({
    session_id: sessionId,
    ref,
    property: z.string().min(1).describe('CSS property'),
    value: z.string().describe('New value ("" removes the inline value)'),
    important: z.boolean().optional().describe('Set with !important'),
  }),
  handoff: req({
    session_id: sessionId,
    instructions: z.string().min(1).describe('What the person should do (CAPTCHA, 2FA, payment…)'),
    timeout_ms: personTimeout,
  }),
  pick: req({
    session_id: sessionId,
    instructions: z.string().min(1).max(2000).optional().describe('What the person should point at'),
    timeout_ms: personTimeout,
  }),
  handoffConfirm: req({
    handoff_id: z.string().min(1).optional().describe('The handoff to resolve'),
    session_id: sessionId.optional().describe('Resolve the one pending handoff of this session'),
  }),
  recordingStart: req({
    session_id: sessionId,
    path: z.string().min(1).describe('Video file inside the workspace'),
    format: z.enum(['webm', 'mp4']).optional().describe('webm (VP9, default) or mp4 (H.264)'),
  }),
};

const entry = z.object({ seq: z.number(), timestamp: z.number() }).catchall(z.unknown());
const page = z.object({ entries: z.array(entry), last_seq: z.number(), dropped: z.number() });

export const responses = {
  start: z.object({
    session_id: z.string(),
    url: z.string(),
    headless: z.boolean(),
    read_only: z.boolean(),
    incognito: z.boolean(),
    error: z.string().optional().describe('The first navigation failed (the session is usable)'),
  }),
  list: z.object({
    sessions: z.array(
      z.object({
        session_id: z.string(),
        url: z.string(),
        title: z.string().optional().describe('Title of the page at url'),
        headless: z.boolean(),
        read_only: z.boolean(),
        incognito: z.boolean(),
        active: z.boolean(),
        ttl_ms: z.number().optional(),
        created_ms: z.number(),
        last_used_ms: z.number(),
        console_entries: z.number(),
      }),
    ),
  }),
  stop: z.object({ ok: z.boolean(), was_running: z.boolean() }),
  attach: z.object({ session_id: z.string(), url: z.string(), read_only: z.boolean(), adopted: z.boolean() }),
  tabs: z.object({
    tabs: z.array(z.object({ url: z.string(), title: z.string().optional(), adopted: z.boolean() })),
  }),
  doctor: z
    .object({
      ok: z.boolean(),
      chromium_path: z.string().optional(),
      chromium_version: z.string().optional(),
      headless_default: z.boolean(),
      max_sessions: z.number(),
      active_sessions: z.number(),
      open_tabs: z.number(),
      browser_running: z.boolean(),
      data_dir: z
        .string()
        .describe('Where sessions keep downloads (a temp dir unless data_dir is configured)'),
      allowed_schemes: z.array(z.string()),
      attach_enabled: z.boolean(),
      recording_available: z.boolean(),
      issues: z.array(z.object({ what: z.string(), enable_how: z.string() })),
    })
    .catchall(z.unknown()),
  navigate: z.object({
    ok: z.boolean(),
    url: z.string(),
    title: z.string().optional(),
    timed_out: z.boolean(),
    error: z.string().optional().describe('Network error or HTTP error status; the page stays usable'),
  }),
  snapshot: z.object({
    url: z.string(),
    title: z.string().optional(),
    tree: z.string().describe('Outline lines `- role "name"[ = value] [ref=eN]` ("" with diff)'),
    truncated: z.boolean(),
    generation: z.number().describe('Bumped by every navigation: refs of an older generation are stale'),
    diff: z
      .object({ added: z.array(z.string()), removed: z.array(z.string()), unchanged: z.number() })
      .optional(),
  }),
  act: z.object({
    ok: z.boolean(),
    detail: z.string(),
    effect: z.record(z.string(), z.unknown()).optional(),
  }),
  screenshot: z.object({
    content: z.array(z.record(z.string(), z.unknown())),
    details: z.object({ session_id: z.string(), url: z.string(), width: z.number(), height: z.number() }),
  }),
  evaluate: z.object({ ok: z.boolean(), value: z.unknown().optional(), error: z.string().optional() }),
  execute: z.object({
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: z.string().optional(),
    logs: z.array(z.string()),
    state: z.record(z.string(), z.unknown()),
  }),
  console: page,
  network: page,
  history: z.object({ ok: z.boolean(), url: z.string(), moved: z.boolean() }),
  dom: z.object({ root: z.record(z.string(), z.unknown()), truncated: z.boolean() }),
  stylesRead: z.object({
    ref: z.string(),
    properties: z.array(z.object({ name: z.string(), value: z.string() })),
    inline_style: z.string().optional(),
  }),
  stylesWrite: z.object({ ok: z.boolean(), inline_style: z.string() }),
  handoff: z.object({
    confirmed: z.boolean(),
    handoff_id: z.string(),
    via: z.enum(['in_page', 'confirm_call', 'timeout']),
    url: z.string(),
    title: z.string().optional(),
    navigated: z.boolean().optional(),
    changes: z.unknown().optional(),
    cookies_added: z.array(z.object({ name: z.string(), domain: z.string() })).optional(),
  }),
  pick: z.object({
    pick_id: z.string(),
    element: z.looseObject({ ref: z.string(), tag: z.string(), role: z.string(), name: z.string() }),
  }),
  handoffConfirm: z.object({ ok: z.boolean(), handoff_id: z.string().optional() }),
  recordingStart: z.object({ ok: z.boolean(), path: z.string(), format: z.enum(['webm', 'mp4']) }),
  recordingStop: z.object({
    ok: z.boolean(),
    path: z.string().optional(),
    duration_ms: z.number(),
    frames: z.number(),
    dropped: z.number().optional(),
  }),
};
