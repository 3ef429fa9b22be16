/**
 * Canvas and font fingerprints: every read of a 2D canvas's pixels (getImageData, toDataURL,
 * toBlob) flips the lowest bit of a few pixels, chosen from the tab's secret, so a drawing hashes
 * the same within a tab and differently between tabs, as on two machines. Reads of a canvas the
 * page never drew on pass through.
 */
import type { StealthPatch } from './types.js';

export const canvas: StealthPatch = (u, o, win) => {
  let seed = 0;
  for (let i = 0; i < o.secret.length; i++) seed = (Math.imul(seed, 31) + o.secret.charCodeAt(i)) | 0;
  /** Flip low bits of up to 8 pixels of an RGBA buffer, the same ones for the same size. */
  const noise = (data: Uint8ClampedArray) => {
    const pixels = data.length >> 2;
    if (pixels === 0) return;
    let x = seed ^ pixels;
    for (let k = 0; k < 8; k++) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      const p = ((x >>> 8) % pixels) * 4;
      if (data[p + 3] !== 0) data[p] = data[p]! ^ 1;
    }
  };
  const ctx2d = win.CanvasRenderingContext2D?.prototype;
  if (!ctx2d) return;
  u.replaceMethod(ctx2d, 'getImageData', (native, self, args) => {
    const img = u.apply(native, self, args) as ImageData;
    noise(img.data);
    return img;
  });
  /** A copy of the canvas with the noise in it (the page's own canvas is left as drawn). */
  const noisyCopy = (c: HTMLCanvasElement): HTMLCanvasElement | null => {
    if (!c.width || !c.height) return null;
    const ctx = c.getContext('2d');
    if (!ctx) return null;
    const copy = win.document.createElement('canvas') as HTMLCanvasElement;
    copy.width = c.width;
    copy.height = c.height;
    const cctx = copy.getContext('2d')!;
    cctx.putImageData(ctx.getImageData(0, 0, c.width, c.height), 0, 0);
    return copy;
  };
  const canvasProto = win.HTMLCanvasElement.prototype;
  for (const key of ['toDataURL', 'toBlob']) {
    u.replaceMethod(canvasProto, key, (native, self, args) => {
      let copy: HTMLCanvasElement | null = null;
      try {
        copy = noisyCopy(self as HTMLCanvasElement);
      } catch {
        copy = null; // a WebGL or tainted canvas: as it is
      }
      return u.apply(native, copy ?? self, args);
    });
  }
};
