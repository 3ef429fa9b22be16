/**
 * The copy of a screenshot a model sees: fits 1024×1024 and 150 KB. Fast path when it already
 * fits (and is ≤ a quarter of the byte cap); else resize (Lanczos3), keep the smallest of
 * PNG/JPEG/WebP, walk a JPEG/WebP quality ladder, then shrink the dimensions.
 */
import sharp, { type Sharp } from 'sharp';

export interface ResizeOptions {
  maxWidth: number;
  maxHeight: number;
  maxBytes: number;
  jpegQuality: number;
}

export interface ResizedImage {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

export const MODEL_IMAGE: ResizeOptions = {
  maxWidth: 1024,
  maxHeight: 1024,
  maxBytes: 150 * 1024,
  jpegQuality: 70,
};

const LADDER = [60, 50, 40, 30];

async function encodeAll(img: Sharp, quality: number, withPng: boolean): Promise<ResizedImage[]> {
  const make = async (mimeType: ResizedImage['mimeType']): Promise<ResizedImage> => {
    const pipeline = img.clone();
    const out =
      mimeType === 'image/png'
        ? pipeline.png({ compressionLevel: 9, palette: true })
        : mimeType === 'image/jpeg'
          ? pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true })
          : pipeline.webp({ quality });
    const { data, info } = await out.toBuffer({ resolveWithObject: true });
    return { data, mimeType, width: info.width, height: info.height };
  };
  const kinds: ResizedImage['mimeType'][] = withPng
    ? ['image/png', 'image/jpeg', 'image/webp']
    : ['image/jpeg', 'image/webp'];
  return Promise.all(kinds.map(make));
}

const smallest = (list: ResizedImage[]): ResizedImage =>
  list.reduce((a, b) => (b.data.length < a.data.length ? b : a));

/** Resize a PNG for a model. */
export async function resizeForModel(png: Buffer, opts: ResizeOptions = MODEL_IMAGE): Promise<ResizedImage> {
  const meta = await sharp(png).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= opts.maxWidth && height <= opts.maxHeight && png.length <= opts.maxBytes / 4) {
    return { data: png, mimeType: 'image/png', width, height };
  }
  const fit = (w: number, h: number) =>
    sharp(png).resize({ width: w, height: h, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' });
  let best = smallest(await encodeAll(fit(opts.maxWidth, opts.maxHeight), opts.jpegQuality, true));
  if (best.data.length <= opts.maxBytes) return best;
  for (const q of LADDER) {
    best = smallest(await encodeAll(fit(opts.maxWidth, opts.maxHeight), q, false));
    if (best.data.length <= opts.maxBytes) return best;
  }
  let w = best.width;
  let h = best.height;
  while (w > 64 && h > 64) {
    w = Math.round(w * 0.75);
    h = Math.round(h * 0.75);
    best = smallest(await encodeAll(fit(w, h), LADDER[LADDER.length - 1]!, false));
    if (best.data.length <= opts.maxBytes) return best;
  }
  return best;
}
