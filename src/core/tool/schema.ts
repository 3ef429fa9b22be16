/** The `browser` tool's input: one flat object for open / close / run (seed 000). */
import { z } from 'zod';

export const browserToolInput = z.object({
  action: z
    .enum(['open', 'close', 'run'])
    .describe(
      'open: create or reuse a named tab; run: execute JavaScript in it; close: release it (or all tabs)',
    ),
  name: z
    .string()
    .min(1)
    .default('main')
    .describe(
      'Tab name (default "main"); tabs live until closed and are shared by every caller of this brow',
    ),
  url: z.string().optional().describe('open: navigate the tab to this URL (also when reusing it)'),
  viewport: z
    .object({
      width: z.number().int().min(100).max(7680).describe('CSS pixels'),
      height: z.number().int().min(100).max(4320).describe('CSS pixels'),
      scale: z.number().min(0.25).max(4).optional().describe('deviceScaleFactor (default 1)'),
    })
    .optional()
    .describe('open: viewport of the tab (headless default 1365×768 at scale 1.25)'),
  wait_until: z
    .enum(['load', 'domcontentloaded', 'networkidle0', 'networkidle2'])
    .default('networkidle2')
    .describe('open: when a navigation counts as done (default networkidle2)'),
  dialogs: z
    .enum(['accept', 'dismiss'])
    .optional()
    .describe(
      'open: answer alert/confirm/prompt dialogs automatically; omitted = a dialog is dismissed and fails the run going on (dialog_blocking), the tab stays usable',
    ),
  app: z
    .object({
      path: z
        .string()
        .optional()
        .describe('Executable to spawn (or reuse) with remote debugging, e.g. an Electron app'),
      cdp_url: z
        .string()
        .optional()
        .describe('CDP endpoint of a running browser: http://127.0.0.1:9222 or ws://…'),
      args: z.array(z.string()).optional().describe('Extra command-line arguments when spawning app.path'),
      target: z
        .string()
        .optional()
        .describe('Pick the page whose URL or title contains this (case-insensitive)'),
    })
    .optional()
    .describe(
      "open: drive an app or a running browser instead of brow's headless Chromium (needs allow_attach)",
    ),
  code: z
    .string()
    .optional()
    .describe(
      'run: body of an async function with page, browser, tab, display, assert, wait, console in scope; `return` a value to output it',
    ),
  timeout: z.number().default(30).describe('Seconds this call may take (default 30, clamped to 1..30)'),
  all: z.boolean().optional().describe('close: release every tab'),
  kill: z.boolean().optional().describe('close: also end an app brow spawned when its last tab goes'),
});

export type BrowserToolInput = z.output<typeof browserToolInput>;

/** Seconds → milliseconds, clamped to seed 000's 1..30 s. */
export const clampTimeoutMs = (seconds: number): number =>
  Math.round(Math.min(30, Math.max(1, Number.isFinite(seconds) ? seconds : 30)) * 1000);
