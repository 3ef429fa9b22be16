/**
 * browser_screenshot on a page whose device pixel ratio is above 1 (as an attached desktop Chrome on
 * a HiDPI screen has): Chromium captures more pixels than the scale asks, and the model copy must
 * still fit 1024×1024.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await harness();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('screenshot at a device pixel ratio of 2', () => {
  it('the model copy still fits 1024×1024, its size is what the image says, and labels land on their elements', async () => {
    const pageId = await h.open('read/tall.html');
    const page = h.rt.core.findPage(pageId)!;
    await page.cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 1280,
      height: 800,
      deviceScaleFactor: 2,
      mobile: false,
    });
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'devicePixelRatio' })).value).toBe(
      2,
    );
    const r = await h.call('browser_screenshot', { page_id: pageId });
    expect(r.ok, r.content).toBe(true);
    const img = Buffer.from(r.ok ? r.images![0]!.data : '', 'base64');
    const meta = await sharp(img).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1024);
    const shot = (r.data as { screenshot: { image_width: number; image_height: number } }).screenshot;
    expect([meta.width, meta.height]).toEqual([shot.image_width, shot.image_height]);
    expect(img.length).toBeLessThanOrEqual(150 * 1024);

    // labels land on their elements: the tag of "Top button" (left 20, top 20 CSS px) sits just above
    // its box, so near the copy's top-left corner (1280 CSS px → 1024 px) the tag's magenta shows
    const labelled = await h.call('browser_screenshot', { page_id: pageId, labels: true });
    expect(labelled.ok, labelled.content).toBe(true);
    const copy = sharp(Buffer.from(labelled.ok ? labelled.images![0]!.data : '', 'base64'));
    const { data, info } = await copy.raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels).subarray(0, 3),
    ];
    const [red, green] = at(17, 5);
    expect(red).toBeGreaterThan(150);
    expect(green).toBeLessThan(100);
  });
});
