import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
let workspace: string;
beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-ws-'));
  h = await harness({ workspace_root: workspace, max_sessions: 8 });
});
afterAll(async () => {
  await h.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function shot(input: Record<string, unknown>) {
  const o = await h.call('browser_screenshot', input);
  if (!o.ok) throw new Error(o.content);
  expect(o.images).toHaveLength(1);
  const img = Buffer.from(o.images![0]!.data, 'base64');
  const meta = await sharp(img).metadata();
  // every copy for a model fits 1024×1024 and 150 KB
  expect(meta.width).toBeLessThanOrEqual(1024);
  expect(meta.height).toBeLessThanOrEqual(1024);
  expect(img.length).toBeLessThanOrEqual(150 * 1024);
  expect(img.length).toBe((o.data as any).screenshot.bytes);
  expect(o.images![0]!.mimeType).toBe((o.data as any).screenshot.mime_type);
  return { data: o.data as any, content: o.content, meta };
}

describe('browser_screenshot', () => {
  it('viewport: an image for a model', async () => {
    const pageId = await h.open('read/article.html');
    const r = await shot({ page_id: pageId });
    expect(r.data.screenshot).toEqual(expect.objectContaining({ full_page: false, clipped: false }));
    expect(r.data.screenshot.region).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    expect(r.meta.width).toBe(1024);
    expect(r.data.output_path).toBeUndefined();
  });

  it('captures a background tab (which paints no frames until it is in front)', async () => {
    const first = await h.open('read/long.html');
    const second = await h.open('read/article.html');
    for (const pageId of [first, second, first, second]) await shot({ page_id: pageId });
  });

  it('a 30,000 px page full-page: clipped, never failing, says so', async () => {
    const pageId = await h.open('read/tall.html');
    const r = await shot({ page_id: pageId, full_page: true });
    expect(r.data.screenshot.full_page).toBe(true);
    expect(r.data.screenshot.clipped).toBe(true);
    expect(r.data.screenshot.region.height).toBeLessThanOrEqual(16_384);
    expect(r.content).toContain('only the top');
    const saved = await shot({ page_id: pageId, full_page: true, output_path: 'shots/tall.png' });
    expect(saved.data.screenshot.clipped).toBe(true);
    const file = await sharp(readFileSync(saved.data.output_path)).metadata();
    expect(file.height).toBeLessThanOrEqual(16_384);
    expect(file.height).toBe(saved.data.screenshot.height);
  });

  it('labels visible controls and maps labels to refs', async () => {
    const pageId = await h.open('read/tall.html');
    const r = await shot({ page_id: pageId, labels: true });
    const map: Record<string, string> = r.data.label_to_ref;
    expect(Object.keys(map)).toEqual(['A1', 'A2', 'A3']);
    const refs = await h.refs(pageId);
    expect(map.A1).toBe(refOf(refs, 'button', 'Top button'));
    expect(map.A2).toBe(refOf(refs, 'link', 'Jump to middle'));
    expect(map.A3).toBe(refOf(refs, 'textbox', 'Search'));
    expect(r.content).toContain(`A1=${map.A1}`);
    // the labels are drawn on the image, not in the page
    expect(
      (await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.body.children.length' }))
        .value,
    ).toBe(1);
    const plain = await h.call('browser_screenshot', { page_id: pageId });
    const labelled = await h.call('browser_screenshot', { page_id: pageId, labels: true });
    const image = (o: typeof plain) => (o.ok ? o.images?.[0]?.data : undefined);
    expect(image(plain)).toBeTruthy();
    expect(image(plain)).not.toBe(image(labelled));
  });

  it('one ref, scaled', async () => {
    const pageId = await h.open('read/tall.html');
    const ref = refOf(await h.refs(pageId, 'full'), 'button', 'Middle button');
    const r = await shot({ page_id: pageId, ref, scale: 2, output_path: 'shots/button.png' });
    expect(r.data.screenshot.ref).toBe(ref);
    const file = await sharp(readFileSync(r.data.output_path)).metadata();
    expect(file.width).toBe(Math.round(r.data.screenshot.region.width * 2));
  });

  it('one ref inside an out-of-process frame nested in a same-origin frame', async () => {
    const pageId = await h.open('core/frames.html');
    let refs: any[] = [];
    await eventually(
      async () => {
        refs = await h.refs(pageId, 'full');
        return refs.some((r) => r.accessible_name === 'Leaf button same');
      },
      3000,
      100,
    );
    const leaf = refs.find((r) => r.accessible_name === 'Leaf button same');
    const r = await shot({ page_id: pageId, ref: leaf.ref });
    const region = r.data.screenshot.region;
    // the snapshot's box and the capture agree to within rounding
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(region[k] - leaf.bounding_box[k])).toBeLessThanOrEqual(1);
    }
  });

  it('a ref without a visible box is not_interactable', async () => {
    const pageId = await h.open('read/structure.html');
    const outline: string = (await h.ok('browser_read_html', { page_id: pageId })).html;
    const secret = /<p ref=(e\d+) id="secret"/.exec(outline)![1]!;
    const e = await h.err('browser_screenshot', { page_id: pageId, ref: secret });
    expect(e.code).toBe('not_interactable');
  });

  it('saves inside the workspace in the format of the extension', async () => {
    const pageId = await h.open('read/article.html');
    for (const [path, format] of [
      ['out/page.png', 'png'],
      ['out/page.jpg', 'jpeg'],
      ['out/page.jpeg', 'jpeg'],
      ['out/page.webp', 'webp'],
    ] as const) {
      const r = await shot({
        page_id: pageId,
        output_path: path,
        ...(format !== 'png' ? { quality: 60 } : {}),
      });
      expect(r.data.output_path).toBe(join(workspace, path));
      expect((await sharp(readFileSync(r.data.output_path)).metadata()).format).toBe(format);
      expect((await sharp(readFileSync(r.data.output_path)).metadata()).width).toBe(1280);
    }
  });

  it('refuses paths outside the workspace, unknown extensions and misplaced quality', async () => {
    const pageId = await h.open('read/article.html');
    const outside = await h.err('browser_screenshot', { page_id: pageId, output_path: '../escape.png' });
    expect(outside.code).toBe('path_not_allowed');
    const abs = await h.err('browser_screenshot', {
      page_id: pageId,
      output_path: join(tmpdir(), 'elsewhere.png'),
    });
    expect(abs.code).toBe('path_not_allowed');
    expect(existsSync(join(tmpdir(), 'elsewhere.png'))).toBe(false);
    expect((await h.err('browser_screenshot', { page_id: pageId, output_path: 'x.gif' })).code).toBe(
      'invalid_request',
    );
    expect((await h.err('browser_screenshot', { page_id: pageId, quality: 50 })).code).toBe(
      'invalid_request',
    );
    expect(
      (await h.err('browser_screenshot', { page_id: pageId, output_path: 'x.png', quality: 50 })).code,
    ).toBe('invalid_request');
    expect((await h.err('browser_screenshot', { page_id: pageId, scale: 5 })).code).toBe('invalid_request');
  });

  it('answers dialog_blocking while a dialog is open', async () => {
    const s = await h.ok('browser_start_session', { dialog_policy: 'report' });
    const pageId = await h.open('observe/dialogs.html', { session_id: s.session_id });
    await h.ok('browser_click', { page_id: pageId, ref: refOf(await h.refs(pageId), 'button', 'Alert') });
    for (const name of ['browser_screenshot', 'browser_read_page', 'browser_read_html', 'browser_read_dom']) {
      expect((await h.err(name, { page_id: pageId })).code, name).toBe('dialog_blocking');
    }
    await h.ok('browser_handle_dialog', { page_id: pageId, accept: true });
    await shot({ page_id: pageId });
  });
});
