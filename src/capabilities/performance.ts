/** Performance insight: record a trace, answer Core Web Vitals and the longest tasks. */
import { z } from 'zod';
import type { PerformanceReport } from '../core/performance/recorder.js';
import { onPage, pageIdField, pageIdOut, sessionIdField, timeoutMs } from './common.js';
import { defineCapability } from './define.js';

const ms = (n: number | null) => (n === null ? 'n/a' : `${n} ms`);

/** The short text a model reads after stop. */
function reportText(pageId: string, r: PerformanceReport): string {
  const lines = [
    `Performance of ${pageId} (${r.url}), recorded ${(r.recorded_ms / 1000).toFixed(1)} s:`,
    `LCP ${ms(r.lcp_ms)}${r.lcp_element ? ` (${r.lcp_element})` : ''}`,
    `CLS ${r.cls} (${r.layout_shifts} shift(s))`,
    `INP ${r.inp_ms === null ? r.inp_note : `${r.inp_ms} ms (${r.inp_note}; ${r.interactions} interaction(s))`}`,
    `TTFB ${ms(r.ttfb_ms)}, FCP ${ms(r.fcp_ms)}`,
  ];
  if (r.long_tasks.length > 0) {
    lines.push('Longest tasks:');
    for (const t of r.long_tasks)
      lines.push(`  ${t.duration_ms} ms at +${t.start_ms} ms${t.what ? ` (${t.what})` : ''}`);
  }
  lines.push(
    r.trace_path ? `Trace: ${r.trace_path} (${Math.round(r.trace_bytes / 1024)} KB)` : 'No trace saved.',
  );
  for (const w of r.warnings) lines.push(`Note: ${w}`);
  return lines.join('\n');
}

export const performanceCap = defineCapability({
  name: 'browser_performance',
  title: 'Record performance',
  description:
    'start records a trace; stop answers Core Web Vitals (LCP, CLS, INP, TTFB, FCP), the longest tasks, and saves the trace.',
  group: 'observe',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: (input) => (input.action === 'start' ? { handoff: true, dialog: true } : {}),
  output: z
    .looseObject({
      page_id: pageIdOut,
      recording: z.boolean().describe('A recording runs'),
    })
    .describe('Recording state, or the vitals and trace path'),
  positional: ['action'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    action: z.enum(['start', 'stop']).describe('start or stop'),
    path: z.string().min(1).optional().describe('Trace file in the workspace (default traces/…)'),
    reload: z.boolean().optional().describe('start: reload to measure loading'),
  }),
  handle: (input, ctx) =>
    onPage(
      ctx,
      input,
      async (page) => {
        const { startRecording, stopRecording } = await import('../core/performance/recorder.js');
        const timeout = timeoutMs(ctx, undefined);
        if (input.action === 'start') {
          const r = await startRecording(page, {
            path: input.path,
            reload: input.reload,
            timeoutMs: timeout,
          });
          return {
            text: `Recording performance of ${page.id}${r.reloaded ? ' (reloaded)' : ''}. Act on the page, then call browser_performance {action: "stop"}.`,
            data: { page_id: page.id, recording: true, url: r.url, reloaded: r.reloaded },
          };
        }
        const r = await stopRecording(page, { path: input.path, timeoutMs: timeout });
        return { text: reportText(page.id, r), data: { page_id: page.id, recording: false, ...r } };
      },
      { watch: 'free' },
    ),
});
