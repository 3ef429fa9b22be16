/** tab.screenshot() (where files go, the model copy's limits) and tab.extract() (readable Markdown / text). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { scaled } from '../scale.js';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;
let workspace: string;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-tool-shots-'));
  h = await toolHarness({ workspace_root: workspace });
  await h.toolOk({ action: 'open', url: h.server.url('tool/tab.html'), wait_until: 'load' });
}, 180_000);

afterAll(async () => {
  await h?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const failure = async (code: string) => {
  const o = await h.tool({ action: 'run', code });
  expect(o.ok).toBe(false);
  return o.data as Record<string, any>;
};

describe('tab.screenshot', () => {
  it('by default writes the model copy to the temp dir and shows it', async () => {
    const o = await h.run('return tab.screenshot();');
    const rec = o.data.value as Record<string, any>;
    expect(rec.dest.startsWith(tmpdir())).toBe(true);
    expect(existsSync(rec.dest)).toBe(true);
    expect(rec.width).toBeLessThanOrEqual(1024);
    expect(rec.height).toBeLessThanOrEqual(1024);
    expect(rec.bytes).toBeLessThanOrEqual(150 * 1024);
    expect(readFileSync(rec.dest).length).toBe(rec.bytes);
    expect(o.data.screenshots).toEqual([rec]);
    expect(o.images).toHaveLength(1);
    expect(o.images![0]!.mimeType).toBe(rec.mimeType);
    expect(o.content).toMatch(/^Screenshot saved to \S+ \(\d+×\d+, \d+ KB\)\n/);
    rmSync(rec.dest);
  });

  it('save writes the full-resolution PNG inside the workspace; the model copy still fits', async () => {
    const o = await h.run(`return tab.screenshot({ save: 'shots/full.png', fullPage: true });`);
    const rec = o.data.value as Record<string, any>;
    expect(rec).toMatchObject({ dest: join(workspace, 'shots/full.png'), mimeType: 'image/png' });
    const meta = await sharp(join(workspace, 'shots/full.png')).metadata();
    // full page at scale 1.25: taller than the viewport, wider than the model copy
    expect([meta.width, meta.height]).toEqual([rec.width, rec.height]);
    expect(rec.height).toBeGreaterThan(768 * 1.25);
    const img = Buffer.from(o.images![0]!.data, 'base64');
    const small = await sharp(img).metadata();
    expect(Math.max(small.width!, small.height!)).toBeLessThanOrEqual(1024);
    expect(img.length).toBeLessThanOrEqual(150 * 1024);
  });

  it('selector captures one element; silent records without showing', async () => {
    const o = await h.run(`return tab.screenshot({ selector: '#save', save: 'save.png', silent: true });`);
    const rec = o.data.value as Record<string, any>;
    expect(o.images ?? []).toHaveLength(0);
    expect(o.data.screenshots).toEqual([rec]);
    expect(rec.width).toBeLessThan(200);
    expect(rec.height).toBeLessThan(100);
  });

  it('refuses a save path outside the workspace and a selector that matches nothing', async () => {
    expect((await failure(`await tab.screenshot({ save: '../escape.png' })`)).error_code).toBe(
      'path_not_allowed',
    );
    const e = await h.tool({
      action: 'run',
      code: `await tab.screenshot({ selector: '#nothing' })`,
    });
    // at once, not at the run's timeout (issue 15)
    expect(e.data.error_code).toBe('action_failed');
    expect(e.data.message).toMatch(/No element matches #nothing/);
  });

  it(
    'a configured screenshot_dir gets full-resolution, timestamped files',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'brow-tool-shotdir-'));
      const rt = new BrowRuntime({ screenshot_dir: dir });
      try {
        // in steps: its browser's launch and its worker's start under one call, the page's load under
        // the next, so a loaded machine's slow start does not eat the time the page has to load
        const started = await rt.invoke('browser', { action: 'open' });
        expect(started.ok, started.content).toBe(true);
        const opened = await rt.invoke('browser', { action: 'open', url: h.server.url('tool/tab.html') });
        expect(opened.ok, opened.content).toBe(true);
        const o = await rt.invoke('browser', { action: 'run', code: 'return tab.screenshot();' });
        expect(o.ok).toBe(true);
        const rec = o.data.value as Record<string, any>;
        expect(readdirSync(dir)).toEqual([expect.stringMatching(/^screenshot-\d{4}-\d\d-\d\dT.+\.png$/)]);
        expect(rec).toMatchObject({ mimeType: 'image/png', width: 1706, height: 960 });
      } finally {
        await rt.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    scaled(120_000),
  );
});

describe('tab.extract', () => {
  it('returns the article as Markdown: ATX headings, "-" bullets, GFM tables, fenced code', async () => {
    await h.run(`await tab.goto(${JSON.stringify(h.server.url('tool/article.html'))});`);
    const r = (await h.run('return tab.extract();')).data.value as Record<string, any>;
    expect(r).toMatchObject({ url: h.server.url('tool/article.html'), title: 'Field notes on tide pools' });
    expect(r.contentLength).toBeGreaterThan(300);
    const md = r.markdown as string;
    expect(md).toMatch(/^# Field notes on tide pools/m);
    expect(md).toMatch(/^## What lives there/m);
    expect(md).toMatch(/^- Anemones$/m);
    expect(md).toMatch(/^\| Creature \| Zone \|$/m);
    expect(md).toMatch(/^```\n?low tide: 06:12/m);
    expect(md).not.toMatch(/Coast club|Home/);
  });

  it('format "text" drops the markup', async () => {
    const r = (await h.run(`return tab.extract('text');`)).data.value as Record<string, any>;
    expect(r.markdown).toBeUndefined();
    expect(r.text).toMatch(/Tide pools are rocky hollows/);
    expect(r.text).not.toMatch(/^#|\]\(|```/m);
    expect((await failure(`await tab.extract('pdf')`)).error_code).toBe('invalid_request');
  });

  it('returns null for a page with nothing to read', async () => {
    await h.run(`await page.setContent('<html><body></body></html>');`);
    expect((await h.run('return tab.extract();')).content).toBe('null');
  });
});
