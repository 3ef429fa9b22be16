/** Running JavaScript in a page: an expression, an async script with state, an init script. */
import { z } from 'zod';
import { onPage, pageIdField, pageIdOut, sessionIdField, timeoutMs } from './common.js';
import { ACTS, defineCapability } from './define.js';

const PREVIEW = 2000;

const preview = (v: unknown): string => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > PREVIEW
    ? `${s.slice(0, PREVIEW)}… (${s.length} chars; the full value is in data.value)`
    : s;
};

export const evaluateCap = defineCapability({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Evaluate a JavaScript expression in the page; returns its value as JSON (a function gets argument). For reads: act through ref tools.',
  group: 'scripts',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  // a read-only session evaluates too: V8 refuses side effects there (scriptError)
  gates: { handoff: true, dialog: true },
  output: z
    .looseObject({
      page_id: pageIdOut,
      value: z.unknown().describe('The value'),
      type: z.string().describe('Its type'),
    })
    .describe('Value'),
  positional: ['expression'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    expression: z
      .string()
      .min(1)
      .describe('Expression (await allowed) or function, e.g. "(arg) => arg.x * 2"'),
    argument: z.unknown().optional().describe('JSON passed to a function'),
    timeout_ms: z.number().int().min(1).max(600_000).optional().describe('ms (default 30000)'),
  }),
  async handle(input, ctx) {
    return onPage(
      ctx,
      input,
      async (page) => {
        const { evaluateExpression } = await import('../core/scripts/evaluate.js');
        const r = await evaluateExpression(page, {
          expression: input.expression,
          argument: input.argument,
          timeoutMs: timeoutMs(ctx, input.timeout_ms),
          signal: ctx.signal,
        });
        const text = r.navigated
          ? `The page navigated while the expression ran (now ${page.url()}); there is no value. Take a fresh snapshot.`
          : `Value (${r.type}${r.truncated ? ', truncated at 50,000 characters' : ''}):\n<page-content>\n${preview(r.value)}\n</page-content>`;
        return {
          text,
          data: {
            page_id: page.id,
            value: r.value,
            type: r.type,
            truncated: r.truncated,
            ...(r.navigated ? { navigated: true, url: page.url() } : {}),
          },
        };
      },
      { watch: 'off' },
    ); // its timeout terminates the script
  },
});

export const executeCap = defineCapability({
  name: 'browser_execute',
  title: 'Run an async script',
  description:
    'Run an async script in the page: await, return, log(…), sleep(ms), waitFor(selector, {timeout}), and a JSON `state` kept across calls.',
  group: 'scripts',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: ACTS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      result: z.unknown().describe('Returned value'),
      state: z.unknown().describe('state'),
    })
    .describe('Result, logs, state'),
  positional: ['code'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    code: z.string().min(1).describe('Async function body; `return` gives the result'),
    timeout_ms: z.number().int().min(1).max(600_000).optional().describe('ms (default 30000)'),
  }),
  async handle(input, ctx) {
    return onPage(
      ctx,
      input,
      async (page) => {
        const { executeScript } = await import('../core/scripts/execute.js');
        const r = await executeScript(page, {
          code: input.code,
          timeoutMs: timeoutMs(ctx, input.timeout_ms),
          signal: ctx.signal,
        });
        const lines = r.navigated
          ? [
              `The script navigated the page to ${r.url}; its result and logs were lost (state is unchanged). Take a fresh snapshot.`,
            ]
          : [
              `Script finished in ${r.duration_ms} ms.`,
              '<page-content>',
              `Result: ${preview(r.result)}${r.result_truncated ? ' (truncated)' : ''}`,
              ...(r.logs.length > 0 ? ['Logs:', ...r.logs.map((l) => `  ${l}`)] : []),
              ...(r.logs_dropped > 0
                ? [`  (${r.logs_dropped} more log calls dropped after ${r.logs.length})`]
                : []),
              '</page-content>',
              `State: ${preview(r.state)}`,
              ...(r.error ? [r.error] : []),
            ];
        return { text: lines.join('\n'), data: { page_id: page.id, ...r } };
      },
      { watch: 'off' },
    ); // its timeout terminates the script
  },
});

export const addInitScriptCap = defineCapability({
  name: 'browser_add_init_script',
  title: 'Add an init script',
  description:
    "Add a script run at the start of every later document of this page, before the page's scripts (reload to apply).",
  group: 'scripts',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: { write: true, handoff: true },
  output: z.object({ page_id: pageIdOut, identifier: z.string().describe('Script id') }).describe('Added'),
  positional: ['source'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    source: z.string().min(1).describe('JavaScript'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { addInitScript } = await import('../core/scripts/init-script.js');
      const identifier = await addInitScript(page, input.source);
      return {
        text: `Init script ${identifier} added to ${page.id}; it runs from the next navigation or reload on.`,
        data: { page_id: page.id, identifier },
      };
    });
  },
});

export const removeInitScriptCap = defineCapability({
  name: 'browser_remove_init_script',
  title: 'Remove an init script',
  description: 'Stop running an init script on later documents of this page.',
  group: 'scripts',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  gates: { write: true, handoff: true },
  output: z
    .object({ page_id: pageIdOut, identifier: z.string().describe('Removed script id') })
    .describe('Removed'),
  positional: ['identifier'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    identifier: z.string().min(1).describe('Id browser_add_init_script returned'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { removeInitScript } = await import('../core/scripts/init-script.js');
      await removeInitScript(page, input.identifier);
      return {
        text: `Init script ${input.identifier} removed from ${page.id}; documents loaded from now on do not run it.`,
        data: { page_id: page.id, identifier: input.identifier },
      };
    });
  },
});
