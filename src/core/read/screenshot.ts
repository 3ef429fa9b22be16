/**
 * browser_screenshot: the viewport, the full page or one ref, as an image a model can take
 * (≤ 1024×1024, ≤ 150 KB), optionally labelled with refs and saved at full resolution.
 * A page too tall for one capture is clipped and says so; a capture never fails for size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { boxInPage, locate } from '../actions/locate.js';
import { withDeadline } from '../deadline.js';
import { BrowserError, classifyError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import { sendRacingDialog } from '../scripts/evaluate.js';
import type { BrowPage } from '../session/page.js';
import { labelBoxes } from './labels.js';
import {
  formatOf,
  imageSize,
  inCanvas,
  modelCapture,
  MODEL_MAX_SIDE,
  type Encoded,
  type SaveFormat,
} from './image.js';

/** The tallest (and widest) region captured at once, in CSS px and in device px. */
export const MAX_CAPTURE_SIDE = 16_384;

export interface ScreenshotInput {
  full_page: boolean;
  ref?: string | undefined;
  labels: boolean;
  output_path?: string | undefined;
  scale?: number | undefined;
  quality?: number | undefined;
}

interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenshotResult {
  page_id: string;
  session_id: string;
  screenshot: {
    /** The captured region in image pixels (at capture scale). */
    width: number;
    height: number;
    full_page: boolean;
    clipped: boolean;
    /** Bytes of the image returned to the model. */
    bytes: number;
    mime_type: string;
    image_width: number;
    image_height: number;
    scale: number;
    ref?: string;
    /** The page region captured, in CSS px of the document. */
    region: Region;
  };
  label_to_ref?: Record<string, string>;
  output_path?: string;
  saved_bytes?: number;
}

/** Check the inputs that do not need the page; returns the save format and absolute path. */
export function checkOutput(
  page: BrowPage,
  input: ScreenshotInput,
): { path: string; format: SaveFormat } | null {
  if (input.quality !== undefined && !input.output_path) {
    throw new BrowserError(
      'invalid_request',
      'quality only applies with output_path (the model copy picks its own).',
      {
        hint: 'Drop quality, or save the image with output_path ending in .jpg or .webp.',
      },
    );
  }
  if (!input.output_path) return null;
  const format = formatOf(input.output_path);
  if (!format) {
    throw new BrowserError(
      'invalid_request',
      `"${input.output_path}" does not end in .png, .jpg, .jpeg or .webp.`,
      {
        hint: 'The file format comes from the extension: .png (lossless), .jpg/.jpeg or .webp.',
      },
    );
  }
  if (format === 'png' && input.quality !== undefined) {
    throw new BrowserError('invalid_request', 'quality is invalid for .png (PNG is lossless).', {
      hint: 'Drop quality, or save as .jpg or .webp.',
    });
  }
  const root = workspaceRoot(page.session.config.workspace_root);
  return { path: workspacePath(root, input.output_path, false), format };
}

interface Metrics {
  scrollX: number;
  scrollY: number;
  width: number;
  height: number;
  scrollWidth: number;
  scrollHeight: number;
}

const metricsOf = (page: BrowPage) =>
  sendRacingDialog(
    page,
    page.raw.evaluate(() => {
      const s = document.scrollingElement ?? document.documentElement;
      return {
        scrollX,
        scrollY,
        width: innerWidth,
        height: innerHeight,
        scrollWidth: Math.max(s.scrollWidth, innerWidth),
        scrollHeight: Math.max(s.scrollHeight, innerHeight),
      };
    }),
  ) as Promise<Metrics>;

/** The region of a ref's element, in document CSS px (scrolled into view first). */
async function refRegion(page: BrowPage, ref: string): Promise<Region> {
  const box = await boxInPage(await locate(page, ref), { scroll: true });
  if (box.width < 1 || box.height < 1) {
    throw new BrowserError('not_interactable', `${ref} has no visible box to capture.`, {
      hint: 'It may be hidden or empty; screenshot its container or the viewport instead.',
    });
  }
  const m = await metricsOf(page);
  return { x: box.x + m.scrollX, y: box.y + m.scrollY, width: box.width, height: box.height };
}

/**
 * Capture a region, encoded by Chromium (PNG unless asked otherwise); a capture Chromium refuses as
 * too large is retried smaller (and reported clipped).
 */
async function capture(
  page: BrowPage,
  region: Region,
  scale: number,
  beyond: boolean,
  format: SaveFormat = 'png',
  quality?: number,
): Promise<{ data: Buffer; region: Region; clipped: boolean }> {
  let r = region;
  let clipped = false;
  const timeoutMs = page.session.config.default_timeout_ms;
  for (;;) {
    try {
      const shot = page.cdp.send('Page.captureScreenshot', {
        format,
        ...(quality !== undefined ? { quality } : {}),
        clip: { ...r, scale },
        captureBeyondViewport: beyond,
        fromSurface: true,
      });
      const late = () =>
        new BrowserError('timeout', `Chromium did not deliver the screenshot within ${timeoutMs} ms.`);
      const { data } = await sendRacingDialog(page, withDeadline(shot, timeoutMs, late));
      return { data: Buffer.from(data, 'base64'), region: r, clipped };
    } catch (e) {
      if (e instanceof BrowserError) throw e;
      const err = classifyError(e);
      if (err.code !== 'unexpected_error') throw err; // closed, crashed, navigated
      const tooLarge = /too large|unable to capture/i.test(err.message);
      if (!tooLarge || r.height <= 1000) {
        throw new BrowserError(
          'screenshot_failed',
          `Chromium could not capture the screenshot: ${err.message}`,
          {
            cause: e,
            details: { region: r, scale },
          },
        );
      }
      // Chromium refuses regions it cannot allocate: halve the height and say so
      r = { ...r, height: Math.floor(r.height / 2) };
      clipped = true;
    }
  }
}

/**
 * A background tab paints no frames, so a capture of it waits forever: bring it to the front
 * first (the tab that was in front goes to the background).
 */
async function showTab(page: BrowPage): Promise<void> {
  const state = await sendRacingDialog(
    page,
    page.raw.evaluate(() => document.visibilityState),
  );
  if (state !== 'visible') await page.raw.bringToFront();
}

/** Take the screenshot; returns the data and the model's image. */
export async function screenshot(
  page: BrowPage,
  input: ScreenshotInput,
): Promise<{ data: ScreenshotResult; image: { data: string; mimeType: string } }> {
  const out = checkOutput(page, input);
  await showTab(page);
  const asked = input.scale ?? 1;
  let region: Region;
  let fullPage = false;
  if (input.ref) region = await sendRacingDialog(page, refRegion(page, input.ref));
  else {
    const m = await metricsOf(page);
    fullPage = input.full_page;
    region = fullPage
      ? { x: 0, y: 0, width: m.scrollWidth, height: m.scrollHeight }
      : { x: m.scrollX, y: m.scrollY, width: m.width, height: m.height };
  }
  // without a file to save, capture only the pixels the model copy keeps
  const fit = Math.min(
    MODEL_MAX_SIDE / Math.min(region.width, MAX_CAPTURE_SIDE),
    MODEL_MAX_SIDE / Math.min(region.height, MAX_CAPTURE_SIDE),
  );
  const scale = out ? asked : Math.min(asked, fit);
  const maxCss = Math.floor(Math.min(MAX_CAPTURE_SIDE, MAX_CAPTURE_SIDE / scale));
  let clipped = false;
  if (region.height > maxCss || region.width > maxCss) {
    region = { ...region, width: Math.min(region.width, maxCss), height: Math.min(region.height, maxCss) };
    clipped = true;
  }
  const beyond = fullPage || !!input.ref;
  let labelMap: Record<string, string> | undefined;
  let file: Buffer | undefined;
  let copy: Encoded;
  if (input.labels) {
    // labels are drawn on the captured image (never in the page), so the copies are made from it
    const shot = await capture(page, region, scale, beyond);
    region = shot.region;
    clipped ||= shot.clipped;
    const m = await metricsOf(page);
    // image pixels per CSS px: the scale asked, times the device pixel ratio when it is above 1
    const px = (scale * imageSize(shot.data).width) / Math.round(region.width * scale) || scale;
    const { boxes, map } = await labelBoxes(page, region, px, m);
    labelMap = map;
    const drawn = await sendRacingDialog(
      page,
      inCanvas(page.cdp, shot.data, {
        boxes,
        labelScale: px,
        ...(out ? { file: { format: out.format, quality: input.quality } } : {}),
      }),
    );
    file = drawn.file;
    copy = drawn.model;
  } else {
    // Chromium scales and encodes: the file in its format, the model copy as small as it must be
    const take = async (format: SaveFormat, quality: number | undefined, s: number) => {
      const shot = await capture(page, region, s, beyond, format, quality);
      region = shot.region;
      clipped ||= shot.clipped;
      return shot.data;
    };
    const q = page.session.config.screenshot_quality;
    if (out)
      file = await take(out.format, out.format === 'png' ? undefined : (input.quality ?? q ?? 85), scale);
    copy = await modelCapture(take, region.width, region.height, scale, q);
  }
  const data: ScreenshotResult = {
    page_id: page.id,
    session_id: page.session.id,
    screenshot: {
      width: Math.round(region.width * scale),
      height: Math.round(region.height * scale),
      full_page: fullPage,
      clipped,
      bytes: 0,
      mime_type: '',
      image_width: 0,
      image_height: 0,
      scale,
      ...(input.ref ? { ref: input.ref } : {}),
      region,
    },
    ...(labelMap ? { label_to_ref: labelMap } : {}),
  };
  if (out && file) {
    try {
      mkdirSync(dirname(out.path), { recursive: true });
      writeFileSync(out.path, file);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? String(e);
      throw new BrowserError(
        'screenshot_failed',
        `The screenshot could not be saved to ${out.path} (${why}).`,
        {
          cause: e,
          hint: 'Save it under another output_path in the workspace (a folder that is not a file, and writable).',
          details: { output_path: out.path },
        },
      );
    }
    data.output_path = out.path;
    data.saved_bytes = file.length;
  }
  Object.assign(data.screenshot, {
    bytes: copy.data.length,
    mime_type: copy.mimeType,
    image_width: copy.width,
    image_height: copy.height,
  });
  return { data, image: { data: copy.data.toString('base64'), mimeType: copy.mimeType } };
}
