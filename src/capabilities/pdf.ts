/** Save a page as PDF. */
import { z } from 'zod';
import { onPage, pageIdField, pageIdOut, sessionIdField } from './common.js';
import { READS, defineCapability } from './define.js';

export const savePdfCap = defineCapability({
  name: 'browser_save_pdf',
  title: 'Save as PDF',
  description: 'Print the page to a PDF file in the workspace.',
  group: 'screenshots',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      path: z.string().describe('File'),
      pages: z.number().describe('PDF pages'),
    })
    .describe('Saved PDF'),
  positional: ['path'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    path: z.string().min(1).describe('File in the workspace, e.g. "out/page.pdf"'),
    format: z
      .enum(['Letter', 'Legal', 'Tabloid', 'Ledger', 'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'])
      .optional()
      .describe('Paper (default A4)'),
    landscape: z.boolean().optional().describe('Landscape'),
    print_background: z.boolean().optional().describe('Print backgrounds'),
  }),
  handle: (input, ctx) =>
    onPage(ctx, input, async (page) => {
      const { savePdf } = await import('../core/print/pdf.js');
      const r = await savePdf(page, input);
      return {
        text: `Saved ${page.id} as PDF: ${r.path} (${r.pages} page(s), ${Math.round(r.bytes / 1024)} KB).`,
        data: { page_id: page.id, ...r },
      };
    }),
});
