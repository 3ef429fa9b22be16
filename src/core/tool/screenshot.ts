/**
 * `tab.screenshot({selector?, fullPage?, save?, silent?})`: capture a PNG, make the model copy,
 * write one file and record it. `save` → the full-resolution PNG at that path (inside the
 * workspace root); else a configured screenshot_dir → full-resolution, timestamped; else the
 * resized copy in the OS temp dir.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { workspacePath } from '../paths.js';
import type { DisplayItem, ScreenshotRecord, WorkerSettings } from './protocol.js';
import { imageSize } from '../read/image.js';
import { resizeForModel } from './image-resize.js';

export interface ScreenshotOptions {
  /** Only this element (then fullPage is ignored). */
  selector?: unknown;
  fullPage?: boolean;
  /** Where to write the full-resolution PNG (relative to the workspace root). */
  save?: string;
  /** Record and save, but add nothing to the output. */
  silent?: boolean;
}

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Where the file goes and which bytes it gets. */
function destination(
  settings: WorkerSettings,
  opts: ScreenshotOptions,
  modelExt: string,
): { dest: string; full: boolean } {
  if (opts.save !== undefined) {
    if (typeof opts.save !== 'string' || opts.save === '') {
      throw new BrowserError('invalid_request', 'screenshot save must be a non-empty path.');
    }
    return { dest: workspacePath(settings.workspaceRoot, opts.save, false), full: true };
  }
  if (settings.screenshotDir) {
    const dir = isAbsolute(settings.screenshotDir)
      ? settings.screenshotDir
      : resolve(settings.workspaceRoot, settings.screenshotDir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return { dest: join(dir, `screenshot-${stamp}-${randomBytes(2).toString('hex')}.png`), full: true };
  }
  return {
    dest: join(tmpdir(), `brow-shot-${Date.now()}-${randomBytes(4).toString('hex')}.${modelExt}`),
    full: false,
  };
}

/** Capture, persist and describe one screenshot. */
export async function takeScreenshot(
  page: Page,
  settings: WorkerSettings,
  opts: ScreenshotOptions,
  element: ElementHandle<Element> | null,
): Promise<{ record: ScreenshotRecord; displays: DisplayItem[] }> {
  const png = Buffer.from(
    element
      ? await element.screenshot({ type: 'png' })
      : await page.screenshot({ type: 'png', fullPage: opts.fullPage === true }),
  );
  const model = await resizeForModel(page, png);
  const { dest, full } = destination(settings, opts, EXT[model.mimeType] ?? 'png');
  await mkdir(dirname(dest), { recursive: true });
  let record: ScreenshotRecord;
  if (full) {
    await writeFile(dest, png);
    record = { dest, mimeType: 'image/png', bytes: png.length, ...imageSize(png) };
  } else {
    await writeFile(dest, model.data);
    record = {
      dest,
      mimeType: model.mimeType,
      bytes: model.data.length,
      width: model.width,
      height: model.height,
    };
  }
  const displays: DisplayItem[] = opts.silent
    ? []
    : [
        {
          type: 'text',
          text: `Screenshot saved to ${dest} (${record.width}×${record.height}, ${Math.ceil(record.bytes / 1024)} KB)`,
        },
        { type: 'image', data: model.data.toString('base64'), mimeType: model.mimeType },
      ];
  return { record, displays };
}
