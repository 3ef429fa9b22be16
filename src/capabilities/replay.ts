/** Replay without a model: export a session's action log as a script, and run one on a session. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { sessionIdField, sessionIdOut } from './common.js';
import { defineCapability, gatesOf, type AnyCapability, type CapabilityContext } from './define.js';

export const exportScriptCap = defineCapability({
  name: 'browser_export_script',
  title: 'Export a replay script',
  description: "Turn a session's logged actions into a script that replays them without a model.",
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z
    .looseObject({
      session_id: sessionIdOut,
      steps: z.number().describe('Steps'),
      script: z.string().describe('Script text'),
    })
    .describe('The script'),
  positional: ['format'],
  input: z.object({
    session_id: sessionIdField,
    format: z.enum(['json', 'brow-cli', 'typescript']).default('json').describe('Script form'),
    path: z.string().min(1).optional().describe('Also write it to this workspace file'),
  }),
  async handle(input, ctx) {
    const session = input.session_id
      ? ctx.core.session(input.session_id, ctx.owner)
      : ctx.core.defaultSession(ctx.owner);
    if (!session) {
      throw new BrowserError('session_not_found', 'No session is open to export.', {
        hint: 'Pass the session_id of a live session (browser_list_sessions).',
      });
    }
    const { exportScript, writeScript } = await import('../core/replay/export.js');
    const r = exportScript(session, input.format, await movesPagesTest());
    const path = input.path ? writeScript(ctx.core.config.workspace_root, input.path, r.text) : undefined;
    const head =
      `Replay script (${input.format}, ${r.script.steps.length} steps) of session ${session.id}` +
      (r.skipped ? `; ${r.skipped} failed call(s) left out` : '') +
      (path ? `; written to ${path}` : '') +
      '.';
    return {
      text: `${head}\n${r.text}`,
      data: {
        session_id: session.id,
        format: input.format,
        steps: r.script.steps.length,
        skipped: r.skipped,
        secrets: r.script.secrets ?? [],
        ...(path ? { path } : {}),
        script: r.text,
      },
    };
  },
});

/**
 * A capability a script may run (it declares `replay`), by name. The registry lists this module,
 * so it is read when a call runs, not when the module loads.
 */
async function runnable(tool: string): Promise<AnyCapability | undefined> {
  const { getCapability } = await import('./registry.js');
  const cap = getCapability(tool);
  return cap?.replay ? cap : undefined;
}

/** Does this tool open, move or close pages by itself (its `replay.movesPages`)? */
async function movesPagesTest(): Promise<(tool: string) => boolean> {
  const { getCapability } = await import('./registry.js');
  return (tool) => {
    const r = getCapability(tool)?.replay;
    return !!r && r.movesPages === true;
  };
}

async function callTool(ctx: CapabilityContext, tool: string, input: Record<string, unknown>) {
  const cap = await runnable(tool);
  if (!cap) {
    throw new BrowserError('invalid_request', `A replay cannot run ${tool}.`, {
      hint: 'Scripts hold page, navigation, action, form, wait and dialog steps.',
    });
  }
  const parsed = cap.input.safeParse(input);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    throw new BrowserError('invalid_request', `Invalid input for ${tool}: ${why}.`);
  }
  // each step passes its own tool's gates (a read-only session refuses a replayed click), and is
  // not logged as the replay's own entry
  const { enterPage: _logged, ...outer } = ctx;
  return cap.handle(parsed.data, { ...outer, name: cap.name, gates: gatesOf(cap, parsed.data) });
}

export const replayScriptCap = defineCapability({
  name: 'browser_replay_script',
  title: 'Replay a script',
  description:
    'Run a browser_export_script script step by step on a fresh session; stops at the first step that fails.',
  group: 'sessions',
  tier: 'more',
  replay: false,
  world: 'closed',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  output: z
    .looseObject({
      session_id: sessionIdOut,
      steps: z.array(z.looseObject({})).describe('Step results'),
    })
    .describe('Replayed'),
  positional: ['path'],
  maxRunMs: () => 30 * 60_000,
  input: z.object({
    path: z.string().min(1).optional().describe('Script file in the workspace'),
    script: z
      .union([z.string(), z.looseObject({})])
      .optional()
      .describe('Script text or object (instead of path)'),
    session_id: z.string().min(1).optional().describe('Continue on this session, not a fresh one'),
    secrets: z.record(z.string(), z.string()).optional().describe('BROW_SECRET_n values'),
    keep_session: z.boolean().optional().describe('Keep the fresh session open after'),
  }),
  async handle(input, ctx) {
    const [{ parseScript, checkScript }, { readScript }, { runScript }, { getCapability }] =
      await Promise.all([
        import('../core/replay/script.js'),
        import('../core/replay/export.js'),
        import('../core/replay/run.js'),
        import('./registry.js'),
      ]);
    if ((input.path === undefined) === (input.script === undefined)) {
      throw new BrowserError('invalid_request', 'Give the script as path or as script (one of them).');
    }
    const script =
      typeof input.script === 'object'
        ? checkScript(input.script)
        : parseScript(input.script ?? readScript(ctx.core.config.workspace_root, input.path!));
    const fresh = !input.session_id;
    const session = input.session_id
      ? ctx.core.session(input.session_id, ctx.owner)
      : await ctx.core.startSession({ owner: ctx.owner });
    try {
      const steps = await runScript(script, session, {
        call: (tool, i) => callTool(ctx, tool, i),
        runnable: (tool) => !!getCapability(tool)?.replay,
        page: (id) => ctx.core.findPage(id),
        progress: (done, total, line) => ctx.progress?.(done, total, line),
        ...(input.secrets ? { secrets: input.secrets } : {}),
      });
      return {
        text: [
          `Replayed ${steps.length} step(s) on session ${session.id}: all passed.`,
          ...steps.map((s) => `${s.step}. ${s.what}: ${s.result}`),
        ].join('\n'),
        data: { session_id: session.id, steps },
      };
    } finally {
      if (fresh && !input.keep_session) await session.stop('stopped').catch(() => undefined);
    }
  },
});
