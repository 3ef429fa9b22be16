/** resizeForModel: a small PNG goes as is; a big one is shrunk and encoded by Chromium (no image library). */
import type { Browser, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../src/core/browser/launch.js';
import { imageSize } from '../../src/core/read/image.js';
import { resizeForModel } from '../../src/core/tool/image-resize.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium({ headless: true });
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('model images', () => {
  it('keeps a small PNG as is and shrinks a big one under 1024² and 150 KB', async () => {
    const small = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await resizeForModel(page, small)).toMatchObject({
      mimeType: 'image/png',
      width: 200,
      height: 100,
      data: small,
    });
    // noise does not compress: forces the quality ladder and possibly shrinking
    const raw = Buffer.alloc(2400 * 1600 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const big = await sharp(raw, { raw: { width: 2400, height: 1600, channels: 3 } })
      .png()
      .toBuffer();
    const r = await resizeForModel(page, big);
    expect(r.width).toBeLessThanOrEqual(1024);
    expect(r.height).toBeLessThanOrEqual(1024);
    expect(r.data.length).toBeLessThanOrEqual(150 * 1024);
    expect(r.mimeType).toBe('image/jpeg');
    const meta = await sharp(r.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', r.width, r.height]);
    // the header reader agrees with sharp, for the PNG and the JPEG
    expect(imageSize(big)).toEqual({ width: 2400, height: 1600 });
    expect(imageSize(r.data)).toEqual({ width: r.width, height: r.height });
  }, 60_000);
});
