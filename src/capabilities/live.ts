/** Live sessions: hand a page to a person and back, and record what a page shows. */
import { z } from 'zod';
import type { HandoffResult } from '../core/live/handoff.js';
import { workspacePath, workspaceRoot } from '../core/paths.js';
import type { OutlineDiff } from '../core/snapshot/diff.js';
import { BrowserError } from '../core/errors.js';
import { pageIdField, pageIdOut, sessionIdField } from './common.js';
import { defineCapability } from './define.js';
import { heartbeat, seconds } from './progress.js';

// the core is loaded on the first call, so reading these declarations (the CLI client does) stays light
const handoffs = () => import('../core/live/handoff.js');
const recorder = () => import('../core/live/recorder.js');

/** A person needs time: handoffs wait 5 minutes by default, at most 30. */
const HANDOFF_DEFAULT_MS = 300_000;
const HANDOFF_MAX_MS = 1_800_000;

function renderHandoff(
  r: HandoffResult,
  renderDiff: (d: OutlineDiff) => string,
  consoleUrl: string | null,
): string {
  const how = {
    in_page: 'the person clicked Continue in the page',
    confirm_call: 'a confirm call resolved it',
    timeout: 'nobody continued before the timeout',
    cancelled: 'the call was cancelled',
  }[r.via];
  const lines = [
    `Handoff ${r.handoff_id} ${r.confirmed ? 'confirmed' : 'not confirmed'}: ${how} after ${(r.waited_ms / 1000).toFixed(1)} s.`,
    `Now at ${r.url}${r.title ? ` — ${r.title}` : ''}${r.navigated ? ` (navigated from ${r.url_before}; old refs are stale)` : ''}.`,
  ];
  if (r.cookies_added.length) lines.push(`Cookies added: ${r.cookies_added.map((c) => c.name).join(', ')}`);
  if (r.cookies_changed.length)
    lines.push(`Cookies changed: ${r.cookies_changed.map((c) => c.name).join(', ')}`);
  if (r.changes) lines.push(renderDiff(r.changes));
  if (consoleUrl) lines.push(`Web console (the person's view of this page): ${consoleUrl}`);
  lines.push('Verify the step actually landed before going on: read the page.');
  return lines.join('\n');
}

export const handoffCap = defineCapability({
  name: 'browser_handoff',
  title: 'Hand the page to a person',
  description:
    'Pause for a step only a person can do (CAPTCHA, 2FA, SSO): shows your instructions and a Continue button in the page and the web console, and waits. Returns what changed.',
  group: 'live',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  output: z
    .looseObject({
      handoff_id: z.string().describe('Handoff id'),
      confirmed: z.boolean().describe('The person continued'),
      url: z.string().describe('URL now'),
      console_url: z.string().nullable().describe('Web console for the person'),
    })
    .describe('How it ended'),
  positional: ['instructions'],
  maxRunMs: (input) => input.timeout_ms ?? HANDOFF_DEFAULT_MS,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    instructions: z.string().min(1).max(2000).describe('What the person should do'),
    timeout_ms: z.number().int().min(1000).max(HANDOFF_MAX_MS).optional().describe('ms (default 300000)'),
  }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const [{ handoff }, { renderDiff }, { consoleUrl }] = await Promise.all([
      handoffs(),
      import('../core/snapshot/diff.js'),
      import('../core/live/console-link.js'),
    ]);
    const url = await consoleUrl(ctx.core, page.id);
    const timeoutMs = input.timeout_ms ?? HANDOFF_DEFAULT_MS;
    const where = url
      ? `open the brow console at ${url} and click Continue there (or in the page)`
      : 'click Continue in the page (brow serves no web console here)';
    // progress starts once the handoff is pending: whoever reads the first line can confirm it
    let stop = (): void => undefined;
    try {
      const r = await handoff(page, {
        instructions: input.instructions,
        timeoutMs,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onPending: (info) => {
          stop = heartbeat(
            ctx,
            timeoutMs,
            (ms) =>
              `Waiting for a person (${seconds(ms)} of ${seconds(timeoutMs)}, handoff ${info.handoff_id}): ${input.instructions} — ${where}.`,
          );
        },
      });
      return { text: renderHandoff(r, renderDiff, url), data: { ...r, console_url: url } };
    } finally {
      stop();
    }
  },
});

export const confirmHandoffCap = defineCapability({
  name: 'browser_confirm_handoff',
  title: 'Confirm a handoff',
  description:
    'Resolve a pending handoff as if the person clicked Continue: by handoff_id, or the one in session_id.',
  group: 'live',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: z
    .looseObject({
      handoff_id: z.string().describe('Handoff id'),
      resolved: z.boolean().describe('Was pending'),
    })
    .describe('Confirmed'),
  positional: ['handoff_id'],
  input: z.object({
    handoff_id: z.string().min(1).optional().describe('From browser_handoff'),
    session_id: z.string().min(1).optional().describe('Its session'),
  }),
  async handle(input, ctx) {
    const { confirmHandoff } = await handoffs();
    const r = confirmHandoff(ctx.core, input, ctx.owner);
    return {
      text: r.resolved
        ? `Handoff ${r.handoff_id} confirmed.`
        : `Handoff ${r.handoff_id} had already ended (${r.via}).`,
      data: { ok: true, ...r },
    };
  },
});

export const startRecordingCap = defineCapability({
  name: 'browser_start_recording',
  title: 'Start recording a page',
  description:
    'Record the viewport to a video file (webm or mp4, 15 fps, ffmpeg) until browser_stop_recording.',
  group: 'live',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  output: z.looseObject({ page_id: pageIdOut, path: z.string().describe('File') }).describe('Recording'),
  positional: ['path'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    path: z.string().min(1).describe('File in the workspace, e.g. "runs/a.webm"'),
    format: z.enum(['webm', 'mp4']).optional().describe('webm (VP9, default) or mp4'),
  }),
  async handle(input, ctx) {
    const format = input.format ?? (input.path.toLowerCase().endsWith('.mp4') ? 'mp4' : 'webm');
    const path = workspacePath(workspaceRoot(ctx.core.config.workspace_root), input.path, false);
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const { startRecording } = await recorder();
    await startRecording(page, path, format);
    return {
      text: `Recording ${page.id} to ${path} (${format}, 15 fps). Stop with browser_stop_recording.`,
      data: { ok: true, page_id: page.id, session_id: page.session.id, path, format },
    };
  },
});

export const stopRecordingCap = defineCapability({
  name: 'browser_stop_recording',
  title: 'Stop recording',
  description: 'Stop the page’s recording and finish the file (path, duration, frames).',
  group: 'live',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  output: z
    .looseObject({ path: z.string().describe('File'), duration_ms: z.number().describe('Length, ms') })
    .describe('Recorded'),
  input: z.object({ page_id: pageIdField, session_id: sessionIdField }),
  async handle(input, ctx) {
    const { endedRecording, recorderOf, stopRecording } = await recorder();
    const ended = input.page_id
      ? endedRecording(ctx.core.sessionsVisibleTo(ctx.owner), input.page_id)
      : undefined;
    let pending = ended;
    if (!pending) {
      let page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
      if (!input.page_id && !recorderOf(page)) {
        // no page named: the session's recording, wherever it is
        page = [...page.session.pages.values()].find((p) => recorderOf(p)) ?? page;
      }
      if (!recorderOf(page) && !input.page_id) {
        throw new BrowserError(
          'invalid_request',
          `Nothing is being recorded in session ${page.session.id}.`,
          {
            hint: 'Start one with browser_start_recording.',
          },
        );
      }
      pending = stopRecording(page);
    }
    // ffmpeg finishing a long recording can take a while
    const stop = heartbeat(ctx, undefined, (ms) => `Finishing the recording (${seconds(ms)}).`);
    const r = await pending.finally(stop);
    return {
      text: `Recorded ${r.path}: ${(r.duration_ms / 1000).toFixed(1)} s, ${r.frames} frames${r.dropped ? `, ${r.dropped} dropped (ffmpeg was behind)` : ''}.`,
      data: { ok: true, ...r },
    };
  },
});

/** One line for a picked element: ref, tag, name. */
function describePick(e: { ref: string; tag: string; name: string; text: string }): string {
  const label = e.name || e.text.slice(0, 60);
  return `${e.ref} <${e.tag}>${label ? ` "${label}"` : ''}`;
}

const pickedOut = z
  .looseObject({
    ref: z.string().describe('Ref to act on'),
    tag: z.string().describe('Tag'),
    role: z.string().describe('Role'),
    name: z.string().describe('Name'),
  })
  .describe('Picked element: ref, tag, role, name, attributes, outer_html, text, bounds, url');

export const pickCap = defineCapability({
  name: 'browser_pick',
  title: 'Ask a person to pick an element',
  description:
    'Ask the person to point at an element in the web console (its URL is in the progress and the answer); waits, then returns its ref and record.',
  group: 'live',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: false },
  output: z
    .looseObject({ page_id: pageIdOut, pick_id: z.string().describe('Pick id'), element: pickedOut })
    .describe('The pick'),
  positional: ['instructions'],
  maxRunMs: (input) => input.timeout_ms ?? HANDOFF_DEFAULT_MS,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    instructions: z.string().min(1).max(2000).optional().describe('What to point at'),
    timeout_ms: z.number().int().min(1000).max(HANDOFF_MAX_MS).optional().describe('ms (default 300000)'),
  }),
  async handle(input, ctx) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const [{ requestPick }, { consoleUrl }] = await Promise.all([
      import('../core/live/pick.js'),
      import('../core/live/console-link.js'),
    ]);
    const url = await consoleUrl(ctx.core, page.id);
    const instructions = input.instructions ?? 'Point at the element the agent should use.';
    const timeoutMs = input.timeout_ms ?? HANDOFF_DEFAULT_MS;
    const where = url
      ? `open the brow console at ${url} and click Pick, then the element (or click it in the page)`
      : 'click it in the page (brow serves no web console here)';
    const stop = heartbeat(
      ctx,
      timeoutMs,
      (ms) =>
        `Waiting for a person to pick (${seconds(ms)} of ${seconds(timeoutMs)}): ${instructions} — ${where}.`,
    );
    try {
      const r = await requestPick(page, {
        instructions,
        timeoutMs,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      return {
        text: `The person picked ${describePick(r.element)} on ${page.id} after ${(r.waited_ms / 1000).toFixed(1)} s. Act on it with its ref.`,
        data: { page_id: page.id, session_id: page.session.id, ...r, console_url: url },
      };
    } finally {
      stop();
    }
  },
});

export const readPicksCap = defineCapability({
  name: 'browser_read_picks',
  title: 'Read the picks a person made',
  description:
    'Elements a person picked in the web console on their own, oldest first (with refs); read ones are cleared unless clear is false.',
  group: 'live',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: false },
  output: z
    .looseObject({
      picks: z
        .array(z.looseObject({ page_id: pageIdOut, element: pickedOut }))
        .describe('Picks: page_id, session_id, picked_at, delivered, element'),
    })
    .describe('Picks'),
  input: z.object({
    session_id: z.string().min(1).optional().describe('Only this session (default: all yours)'),
    page_id: z.string().min(1).optional().describe('Only this page'),
    clear: z.boolean().default(true).describe('Forget the picks read (default true)'),
  }),
  async handle(input, ctx) {
    const { readPicks } = await import('../core/live/pick.js');
    const picks = readPicks(
      ctx.core,
      { session_id: input.session_id, page_id: input.page_id, keep: !input.clear },
      ctx.owner,
    );
    const lines = picks.map(
      (p) => `- ${describePick(p.element)} on ${p.page_id} at ${new Date(p.picked_at).toISOString()}`,
    );
    return {
      text: picks.length
        ? `${picks.length} pick(s):\n${lines.join('\n')}`
        : 'No picks: nobody picked an element in the web console since the last read.',
      data: { picks },
    };
  },
});
