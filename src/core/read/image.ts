/**
 * Image work for screenshots, done by Chromium rather than an image library in Node: the capture
 * itself scales and encodes (Page.captureScreenshot's clip.scale, format and quality), and what a
 * capture cannot do — drawing labels, shrinking an image already taken — runs on an OffscreenCanvas
 * in an isolated world of the page (the page's scripts can neither see nor touch it; its DOM is
 * never changed).
 */
import type { CDPSession } from 'puppeteer-core';

export const MODEL_MAX_SIDE = 1024;
export const MODEL_MAX_BYTES = 150 * 1024;
/** JPEG qualities the model copy walks down before it shrinks (by 0.75 a step). */
export const MODEL_QUALITIES = [80, 65, 50, 38];

export interface Encoded {
  data: Buffer;
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
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

/** Width and height of a PNG or a JPEG, read from its header (0×0 when it is neither). */
export function imageSize(b: Buffer): { width: number; height: number } {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47) {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // walk the markers to the first start-of-frame (C0–CF, except DHT C4, JPG C8 and DAC CC)
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) return { width: 0, height: 0 };
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + b.readUInt16BE(i + 2);
    }
  }
  return { width: 0, height: 0 };
}

/** Takes the same region again in another format, quality or scale. */
export type Recapture = (format: 'jpeg', quality: number, scale: number) => Promise<Buffer>;

/**
 * The copy a model sees, captured by Chromium at the size and quality it needs: JPEG down the quality
 * ladder, then smaller, until it fits MODEL_MAX_BYTES. `width`×`height` is the region at scale 1.
 */
export async function modelCapture(
  capture: Recapture,
  width: number,
  height: number,
  scale: number,
  /** The first quality tried (configuration screenshot_quality); lower steps of the ladder follow. */
  top?: number,
): Promise<Encoded> {
  const ladder = top ? [top, ...MODEL_QUALITIES.filter((x) => x < top)] : MODEL_QUALITIES;
  let s = Math.min(scale, MODEL_MAX_SIDE / width, MODEL_MAX_SIDE / height);
  for (let q = 0; ;) {
    const data = await capture('jpeg', ladder[q]!, s);
    const size = imageSize(data);
    const over = Math.max(size.width, size.height) / MODEL_MAX_SIDE;
    // a device pixel ratio above 1 (an attached desktop Chrome) gives more pixels than the scale asked
    if (over > 1) {
      s /= over;
      continue;
    }
    if (data.length <= MODEL_MAX_BYTES || (size.width <= 64 && size.height <= 64)) {
      return { data, mimeType: 'image/jpeg', ...size };
    }
    if (++q === ladder.length) {
      q = 0;
      s *= 0.75;
    }
  }
}

export interface LabelBox {
  label: string;
  /** Image pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CanvasJob {
  /** Outlines and tags ("A1") to draw on the image; `labelScale` sizes their lines and text. */
  boxes?: LabelBox[];
  labelScale?: number;
  /** Also encode the (labelled) image at full size in this format. */
  file?: { format: SaveFormat; quality?: number | undefined };
}

interface CanvasArgs extends CanvasJob {
  png: string;
  maxSide: number;
  maxBytes: number;
  qualities: number[];
}

interface CanvasResult {
  file?: string;
  model: { data: string; width: number; height: number };
}

/** Runs in the page's isolated world: self-contained (serialised). */
async function canvasWork(a: CanvasArgs): Promise<CanvasResult> {
  const bin = atob(a.png);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const W = bitmap.width;
  const H = bitmap.height;
  const canvas = new OffscreenCanvas(W, H);
  const g = canvas.getContext('2d')!;
  g.drawImage(bitmap, 0, 0);
  const scale = Math.max(1, a.labelScale ?? 1);
  const font = Math.round(11 * scale);
  const pad = Math.round(2 * scale);
  g.font = `bold ${font}px "DejaVu Sans Mono", monospace`;
  g.textBaseline = 'alphabetic';
  for (const b of a.boxes ?? []) {
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
    g.strokeStyle = '#e0115f';
    g.lineWidth = scale;
    g.strokeRect(b.x + 0.5, b.y + 0.5, Math.max(1, b.width - 1), Math.max(1, b.height - 1));
    g.fillStyle = '#e0115f';
    g.fillRect(tx, ty, tagW, tagH);
    g.fillStyle = '#fff';
    g.fillText(b.label, tx + pad, ty + pad + font * 0.85);
  }
  const base64 = async (blob: Blob) => {
    const buf = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const out: Partial<CanvasResult> = {};
  if (a.file) {
    const quality = a.file.format === 'png' ? undefined : (a.file.quality ?? 85) / 100;
    out.file = await base64(await canvas.convertToBlob({ type: `image/${a.file.format}`, quality }));
  }
  for (let s = Math.min(1, a.maxSide / W, a.maxSide / H); ; s *= 0.75) {
    const w = Math.max(1, Math.round(W * s));
    const h = Math.max(1, Math.round(H * s));
    const small = new OffscreenCanvas(w, h);
    const sg = small.getContext('2d')!;
    sg.fillStyle = '#fff';
    sg.fillRect(0, 0, w, h);
    sg.imageSmoothingQuality = 'high';
    sg.drawImage(canvas, 0, 0, w, h);
    for (const q of a.qualities) {
      const blob = await small.convertToBlob({ type: 'image/jpeg', quality: q / 100 });
      if (blob.size <= a.maxBytes || (w <= 64 && h <= 64)) {
        out.model = { data: await base64(blob), width: w, height: h };
        return out as CanvasResult;
      }
    }
  }
}

/**
 * Draw labels on a PNG and/or re-encode it, in Chromium: the file (when asked) at full size, and the
 * model copy (≤ MODEL_MAX_SIDE², ≤ MODEL_MAX_BYTES, JPEG) from the same drawing.
 */
export async function inCanvas(
  cdp: CDPSession,
  png: Buffer,
  job: CanvasJob,
): Promise<{ file?: Buffer; model: Encoded }> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const world = await cdp.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: 'brow-canvas',
  });
  const args: CanvasArgs = {
    ...job,
    png: png.toString('base64'),
    maxSide: MODEL_MAX_SIDE,
    maxBytes: MODEL_MAX_BYTES,
    qualities: MODEL_QUALITIES,
  };
  const res = await cdp.send('Runtime.callFunctionOn', {
    functionDeclaration: canvasWork.toString(),
    executionContextId: world.executionContextId,
    arguments: [{ value: args }],
    awaitPromise: true,
    returnByValue: true,
  });
  if (res.exceptionDetails) {
    throw new Error(
      `Drawing the screenshot failed: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`,
    );
  }
  const r = res.result.value as CanvasResult;
  return {
    ...(r.file !== undefined ? { file: Buffer.from(r.file, 'base64') } : {}),
    model: {
      data: Buffer.from(r.model.data, 'base64'),
      mimeType: 'image/jpeg',
      width: r.model.width,
      height: r.model.height,
    },
  };
}
