/** Image work for screenshots (sharp): the copy a model sees, saved files, and drawn labels. */
import sharp from 'sharp';

export const MODEL_MAX_SIDE = 1024;
export const MODEL_MAX_BYTES = 150 * 1024;

export interface Encoded {
  data: Buffer;
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
}

/** A copy that fits MODEL_MAX_SIDE² and MODEL_MAX_BYTES: JPEG down a quality ladder, then smaller. */
export async function modelCopy(png: Buffer): Promise<Encoded> {
  const meta = await sharp(png).metadata();
  let width = meta.width ?? MODEL_MAX_SIDE;
  let height = meta.height ?? MODEL_MAX_SIDE;
  const fit = Math.min(1, MODEL_MAX_SIDE / width, MODEL_MAX_SIDE / height);
  width = Math.max(1, Math.round(width * fit));
  height = Math.max(1, Math.round(height * fit));
  for (let shrink = 1; ; shrink *= 0.75) {
    const w = Math.max(1, Math.round(width * shrink));
    const h = Math.max(1, Math.round(height * shrink));
    const resized = await sharp(png).resize(w, h, { fit: 'fill', kernel: 'lanczos3' }).toBuffer();
    for (const quality of [80, 65, 50, 38]) {
      const data = await sharp(resized).jpeg({ quality, mozjpeg: true }).toBuffer();
      if (data.length <= MODEL_MAX_BYTES || (w <= 64 && h <= 64))
        return { data, mimeType: 'image/jpeg', width: w, height: h };
    }
  }
}

export type SaveFormat = 'png' | 'jpeg' | 'webp';

/** The file format an output path asks for, by its extension; null when it names none we write. */
export function formatOf(path: string): SaveFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (ext === 'png') return 'png';
  if (ext === 'jpg' || ext === 'jpeg') return 'jpeg';
  if (ext === 'webp') return 'webp';
  return null;
}

/** Full-resolution bytes in the saved format (PNG lossless; JPEG/WebP at `quality`, default 85). */
export function encodeForFile(png: Buffer, format: SaveFormat, quality?: number): Promise<Buffer> {
  if (format === 'png') return Promise.resolve(png);
  const q = quality ?? 85;
  return format === 'jpeg'
    ? sharp(png).jpeg({ quality: q }).toBuffer()
    : sharp(png).webp({ quality: q }).toBuffer();
}

export interface LabelBox {
  label: string;
  /** Image pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Draw an outline and a tag ("A1") on each box; the page itself is never touched. */
export async function drawLabels(png: Buffer, boxes: LabelBox[], scale: number): Promise<Buffer> {
  if (boxes.length === 0) return png;
  const meta = await sharp(png).metadata();
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  const font = Math.round(11 * Math.max(1, scale));
  const pad = Math.round(2 * Math.max(1, scale));
  const parts: string[] = [];
  for (const b of boxes) {
    const tagW = Math.round(b.label.length * font * 0.62 + pad * 2);
    const tagH = font + pad * 2;
    const tx = Math.min(Math.max(0, b.x), Math.max(0, W - tagW));
    // above the box when there is room, else below it, else over its top edge
    const ty =
      b.y - tagH >= 0
        ? b.y - tagH
        : b.y + b.height + tagH <= H
          ? b.y + b.height
          : Math.min(Math.max(0, b.y), Math.max(0, H - tagH));
    parts.push(
      `<rect x="${b.x + 0.5}" y="${b.y + 0.5}" width="${Math.max(1, b.width - 1)}" height="${Math.max(1, b.height - 1)}" fill="none" stroke="#e0115f" stroke-width="${Math.max(1, scale)}"/>`,
      `<rect x="${tx}" y="${ty}" width="${tagW}" height="${tagH}" fill="#e0115f"/>`,
      `<text x="${tx + pad}" y="${ty + pad + font * 0.85}" font-family="DejaVu Sans Mono, monospace" font-size="${font}" font-weight="bold" fill="#fff">${xml(b.label)}</text>`,
    );
  }
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join('')}</svg>`,
  );
  return sharp(png)
    .composite([{ input: svg, top: 0, left: 0 }])
    .png()
    .toBuffer();
}
