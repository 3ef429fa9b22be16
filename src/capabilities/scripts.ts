/** Running JavaScript in a page: an expression, an async script with state, an init script. */
import { z } from 'zod';
import { onPage, pageIdField, sessionIdField, timeoutMs } from './common.js';
import { defineCapability } from './define.js';

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
    'Evaluate a JavaScript expression in the page and return its value as JSON (a function is called with argument). For reads; interact through ref tools. Read-only sessions refuse expressions that may change the page.',
  group: 'scripts',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  positional: ['expression'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    expression: z
      .string()
      .min(1)
      .describe(
        'A JavaScript expression (top-level await allowed), or a function such as "(arg) => arg.x * 2"',
      ),
    argument: z.unknown().optional().describe('JSON value passed to the expression when it is a function'),
    timeout_ms: z.number().int().min(1).optional().describe('Give up after this many ms (default 30000)'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { evaluateExpression } = await import('../core/scripts/evaluate.js');
      const r = await evaluateExpression(page, {
        expression: input.expression,
        argument: input.argument,
        timeoutMs: timeoutMs(ctx, input.timeout_ms),
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
    });
  },
});

export const executeCap = defineCapability({
  name: 'browser_execute',
  title: 'Run an async script',
  description:
    'Run a multi-step async script in the page: top-level await and return, log(...), sleep(ms), waitFor(selector, {timeout}), and a JSON `state` object kept for the session across calls. Refused in read-only sessions.',
  group: 'scripts',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  positional: ['code'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    code: z
      .string()
      .min(1)
      .describe(
        'Body of an async function; `return` gives the result, e.g. "await waitFor(\'#list\'); return state.n = (state.n ?? 0) + 1"',
      ),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Stop the script after this many ms (default 30000)'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { executeScript } = await import('../core/scripts/execute.js');
      const r = await executeScript(page, { code: input.code, timeoutMs: timeoutMs(ctx, input.timeout_ms) });
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
    });
  },
});

export const addInitScriptCap = defineCapability({
  name: 'browser_add_init_script',
  title: 'Add an init script',
  description:
    "Add a script that runs at the start of every later document of this page, before the page's own scripts; navigate or reload to apply it. Refused in read-only sessions.",
  group: 'scripts',
  annotations: { readOnly: false, destructive: false, idempotent: false },
  positional: ['source'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    source: z.string().min(1).describe('JavaScript source to run at document start'),
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
