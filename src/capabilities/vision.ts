/**
 * Seed 001's visual tools: a configured vision model (vision.* in the configuration, any
 * OpenAI-compatible chat-completions server with image input) reads a screenshot. Unconfigured they
 * answer capability_unavailable with how to configure one. The page is held only while it is
 * captured (and while a found ref is checked), not while the model thinks.
 */
import { z } from 'zod';
import { onPage, pageIdField, pageIdOut, sessionIdField } from './common.js';
import { READS, defineCapability } from './define.js';

const annotations = { readOnly: true, destructive: false, idempotent: true };

/** The longest vision.timeout_ms, plus the capture: the model call ends itself sooner. */
const maxRunMs = () => 660_000;

const screenshotOut = z.looseObject({}).describe('The image the model read');

export const visualQueryCap = defineCapability({
  name: 'browser_visual_query',
  title: 'Ask about what the page looks like',
  description:
    'A vision model answers a question about a screenshot (layout, images, charts, canvas); no file is written.',
  group: 'screenshots',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations,
  gates: READS,
  maxRunMs,
  output: z
    .looseObject({
      page_id: pageIdOut,
      screenshot: screenshotOut,
      analysis: z.string().describe("The model's answer"),
    })
    .describe('Visual analysis'),
  positional: ['query'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    query: z.string().min(1).max(4000).describe('Question, e.g. "What does the chart show?"'),
    full_page: z.boolean().default(false).describe('Whole page, not the viewport'),
  }),
  async handle(input, ctx) {
    const vision = await import('../core/vision/visual.js');
    vision.visionSettings(ctx.core.config);
    let page!: Parameters<typeof vision.captureForModel>[0];
    const capture = await onPage(ctx, input, (p) => {
      page = p;
      return vision.captureForModel(p, { full_page: input.full_page, labels: false });
    });
    const analysis = await vision.askModel(
      ctx.core,
      vision.queryPrompt(input.query),
      capture.image,
      ctx.signal,
    );
    const s = capture.data.screenshot;
    const what = s.full_page ? 'full page' : 'viewport';
    return {
      text: `Visual analysis of ${page.id} (${what}, ${s.region.width}×${s.region.height} CSS px):\n${analysis}`,
      data: { ...capture.data, analysis },
    };
  },
});

export const findVisualCap = defineCapability({
  name: 'browser_find_visual',
  title: 'Find an element by how it looks',
  description:
    'A vision model picks the labelled control matching a visual description; answers its validated ref. Only when text or structure fails.',
  group: 'screenshots',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations,
  gates: READS,
  maxRunMs,
  output: z
    .looseObject({
      page_id: pageIdOut,
      document_generation: z.number().describe('Document of the ref'),
      target: z.string().describe('As asked'),
      label: z.string().describe('Label the model named'),
      ref: z.string().describe('Its ref, checked live'),
      evidence: z.string().describe("The model's reason"),
    })
    .describe('The element found'),
  positional: ['target'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    target: z.string().min(1).max(1000).describe('What it looks like, e.g. "the red trash icon"'),
  }),
  async handle(input, ctx) {
    const vision = await import('../core/vision/visual.js');
    vision.visionSettings(ctx.core.config);
    let page!: Parameters<typeof vision.captureForModel>[0];
    const capture = await onPage(ctx, input, (p) => {
      page = p;
      return vision.captureForModel(p, { full_page: false, labels: true });
    });
    const prompt = vision.findPromptFor(capture, input.target);
    const answer = await vision.askModel(ctx.core, prompt, capture.image, ctx.signal);
    const found = await page.exclusive(async () => ({
      ...(await vision.resolveLabel(page, capture, input.target, answer)),
      document_generation: page.documentGeneration,
    }));
    const what = [found.role, found.name && `"${found.name}"`].filter(Boolean).join(' ');
    return {
      text: `"${input.target}" is ${found.label} → ref ${found.ref}${what ? ` (${what})` : ''}. ${found.evidence}`.trim(),
      data: {
        ...capture.data,
        document_generation: found.document_generation,
        target: input.target,
        label: found.label,
        ref: found.ref,
        evidence: found.evidence,
        role: found.role,
        name: found.name,
      },
    };
  },
});
