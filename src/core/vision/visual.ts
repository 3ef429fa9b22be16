/**
 * browser_visual_query and browser_find_visual, in the core: capture the page as the model sees it
 * (brow's screenshot, labelled for find; nothing is written to disk), ask the configured vision model
 * (one call at a time per core), and for find map the label the model names back to its ref and
 * check that ref is alive in the page's current document. A label that is not on the screenshot is
 * an error, never a made-up ref.
 */
import { locate } from '../actions/locate.js';
import type { BrowCore } from '../core.js';
import { BrowserError } from '../errors.js';
import { screenshot, type ScreenshotResult } from '../read/screenshot.js';
import type { BrowPage } from '../session/page.js';
import { askVision, visionSettings, type VisionImage } from './client.js';
import { findPrompt, parseLabelAnswer, type LabelAnswer } from './prompts.js';
import { visionQueue } from './queue.js';

export { visionSettings } from './client.js';
export { findPrompt, queryPrompt } from './prompts.js';

export interface Capture {
  data: ScreenshotResult;
  image: VisionImage;
}

/** The screenshot's model copy (≤ 1024², JPEG or PNG), labelled when asked; never saved. */
export function captureForModel(
  page: BrowPage,
  opts: { full_page: boolean; labels: boolean },
): Promise<Capture> {
  return screenshot(page, { full_page: opts.full_page, labels: opts.labels });
}

/** Ask the core's vision model about an image, after any call already asking it. */
export function askModel(
  core: BrowCore,
  prompt: string,
  image: VisionImage,
  signal?: AbortSignal,
): Promise<string> {
  const v = visionSettings(core.config);
  return visionQueue(core).run(() => askVision(v, { prompt, image }, signal), signal);
}

/** The find prompt for a labelled capture; ref_not_found when nothing on it is labelled. */
export function findPromptFor(capture: Capture, target: string): string {
  const labels = Object.keys(capture.data.label_to_ref ?? {});
  if (labels.length === 0) {
    throw new BrowserError(
      'ref_not_found',
      'Nothing on the screenshot is labelled: no visible control to point at.',
      {
        hint: 'Scroll the target into view (browser_scroll) or read the page with browser_find / browser_list_elements.',
        details: { target },
      },
    );
  }
  return findPrompt(target, labels);
}

export interface FoundTarget extends LabelAnswer {
  label: string;
  ref: string;
  /** The element's role and accessible name, as its ref records them. */
  role: string;
  name: string;
}

const FIND_INSTEAD =
  'Find the target by text with browser_find or browser_list_elements, or describe it differently; use only refs brow returns.';

/**
 * Read the model's answer, map its label to the ref it tagged on the capture, and check the ref is
 * alive in the current document (stale_ref when the page changed since the capture).
 */
export async function resolveLabel(
  page: BrowPage,
  capture: Capture,
  target: string,
  answer: string,
): Promise<FoundTarget> {
  const map = capture.data.label_to_ref ?? {};
  const found = parseLabelAnswer(answer);
  if (found.label === null) {
    throw new BrowserError(
      'ref_not_found',
      `The vision model did not find "${target}" on the screenshot${found.evidence ? `: ${found.evidence}` : '.'}`,
      { hint: FIND_INSTEAD, details: { target, evidence: found.evidence } },
    );
  }
  const ref = map[found.label];
  if (!ref) {
    const labels = Object.keys(map);
    throw new BrowserError(
      'ref_not_found',
      `The vision model named label "${found.label}", which is not on the screenshot (its labels: ${labels[0]}…${labels[labels.length - 1]}).`,
      { hint: FIND_INSTEAD, details: { target, label: found.label, evidence: found.evidence } },
    );
  }
  const { entry } = await locate(page, ref);
  return { label: found.label, ref, evidence: found.evidence, role: entry.role, name: entry.name };
}
