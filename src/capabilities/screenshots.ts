/** Screenshots: what the page looks like, for a model (small) and optionally saved at full resolution. */
import { z } from 'zod';
import { onPage, pageIdField, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

export const screenshotCap = defineCapability({
  name: 'browser_screenshot',
  title: 'Take a screenshot',
  description:
    'An image of the viewport, the full page or one ref, sized for a model (≤ 1024×1024, ≤ 150 KB). labels=true draws a tag on every visible control and returns label_to_ref; output_path saves full resolution inside the workspace (.png, .jpg, .webp). Prefer browser_read_page or browser_list_elements unless layout is the question.',
  group: 'screenshots',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    full_page: z
      .boolean()
      .default(false)
      .describe('The whole page instead of the viewport (very tall pages are clipped)'),
    ref: z.string().optional().describe('Capture only this element'),
    labels: z
      .boolean()
      .default(false)
      .describe('Draw a label (A1, A2…) on each visible control; returns label_to_ref'),
    output_path: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Also save the full-resolution image here (inside the workspace; format from .png/.jpg/.jpeg/.webp)',
      ),
    scale: z.number().min(0.5).max(3).optional().describe('Capture scale, 0.5..3 (default 1)'),
    quality: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('JPEG/WebP quality of the saved file, 1..100 (only with output_path; not for .png)'),
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
