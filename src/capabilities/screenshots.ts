/** Screenshots: what the page looks like, for a model (small) and optionally saved at full resolution. */
import { z } from 'zod';
import { onPage, pageIdField, pageIdOut, sessionIdField } from './common.js';
import { READS, defineCapability } from './define.js';

export const screenshotCap = defineCapability({
  name: 'browser_screenshot',
  title: 'Take a screenshot',
  description:
    'An image of the viewport, full page or a ref, sized for a model (≤ 1024², ≤ 150 KB); labels tag controls (label_to_ref). Prefer reading unless layout matters.',
  group: 'screenshots',
  tier: 'core',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  gates: READS,
  output: z
    .looseObject({
      page_id: pageIdOut,
      screenshot: z.looseObject({}).describe('Region, size, type'),
      label_to_ref: z.record(z.string(), z.string()).optional().describe('Label → ref'),
    })
    .describe('Screenshot (the image is content)'),
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    full_page: z.boolean().default(false).describe('Whole page (very tall ones clipped)'),
    ref: z.string().optional().describe('Capture only this element'),
    labels: z.boolean().default(false).describe('Label visible controls (A1…)'),
    output_path: z
      .string()
      .min(1)
      .optional()
      .describe('Also save full size here (.png/.jpg/.webp, in the workspace)'),
    scale: z.number().min(0.5).max(3).optional().describe('Capture scale (default 1)'),
    quality: z.number().int().min(1).max(100).optional().describe('Saved JPEG/WebP quality'),
  }),
  async handle(input, ctx) {
    return onPage(ctx, input, async (page) => {
      const { screenshot } = await import('../core/read/screenshot.js');
      const { data, image } = await screenshot(page, input);
      const s = data.screenshot;
      const what = input.ref ? `element ${input.ref}` : s.full_page ? 'full page' : 'viewport';
      const lines = [
        `Screenshot of ${page.id} (${what}, ${s.region.width}×${s.region.height} CSS px) → ${s.image_width}×${s.image_height} ${s.mime_type.replace('image/', '').toUpperCase()}, ${Math.round(s.bytes / 1024)} KB.`,
      ];
      if (s.clipped) {
        lines.push(
          `The page is taller (or wider) than one capture allows: only the top ${s.region.height} × ${s.region.width} CSS px were captured. Scroll and take a viewport screenshot for the rest.`,
        );
      }
      if (data.label_to_ref) {
        const entries = Object.entries(data.label_to_ref);
        lines.push(
          entries.length
            ? `Labels: ${entries.map(([l, r]) => `${l}=${r}`).join(', ')}`
            : 'Labels: no visible controls.',
        );
      }
      if (data.output_path)
        lines.push(`Saved full resolution to ${data.output_path} (${data.saved_bytes} bytes).`);
      return { text: lines.join('\n'), data: { ...data }, images: [image] };
    });
  },
});
