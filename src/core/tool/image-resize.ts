/**
 * The copy of a screenshot a model sees: fits 1024×1024 and 150 KB. Fast path when it already fits
 * (and is ≤ a quarter of the byte cap); else Chromium shrinks and encodes it (read/image.ts).
 */
import type { Page } from 'puppeteer-core';
import { imageSize, inCanvas, MODEL_MAX_BYTES, MODEL_MAX_SIDE, type Encoded } from '../read/image.js';

/** Resize a PNG taken of `page` for a model. */
export async function resizeForModel(page: Page, png: Buffer): Promise<Encoded> {
  const { width, height } = imageSize(png);
  if (width <= MODEL_MAX_SIDE && height <= MODEL_MAX_SIDE && png.length <= MODEL_MAX_BYTES / 4) {
    return { data: png, mimeType: 'image/png', width, height };
  }
  const cdp = await page.createCDPSession();
  try {
    return (await inCanvas(cdp, png, {})).model;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
