import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 8 });
});
afterAll(() => h.close());

const CSV = 'a,b\n1,2\n';
const sha = createHash('sha256').update(CSV).digest('hex');

describe('downloads', () => {
  it('a clicked download lands in the session folder and shows in the effect and in browser_wait', async () => {
    const pageId = await h.open('observe/downloads.html');
    const session = h.rt.core.findPage(pageId)!.session;
    const r = await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(await h.refs(pageId), 'link', 'Download report'),
    });
    expect(r.action.downloads).toHaveLength(1);
    const waited = await h.ok('browser_wait', {
      page_id: pageId,
      condition: 'download',
      value: 'report',
      timeout_ms: 10_000,
    });
    const d = waited.detail.download;
    expect(d).toEqual(
      expect.objectContaining({
        suggested_filename: 'report.csv',
        state: 'completed',
        size: CSV.length,
        sha256: sha,
      }),
    );
    expect(d.mime_type).toBe('text/csv');
    expect(dirname(d.path)).toBe(session.downloadsDir);
    expect(readFileSync(d.path, 'utf8')).toBe(CSV);
    // the effect's record is the same record, completed by now
    expect(r.action.downloads[0].suggested_filename).toBe('report.csv');
    // the page and the session are still there
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.title' })).value).toBe(
      'Downloads',
    );
    expect(session.closed).toBe(false);
  });

  it('sanitises the suggested name', async () => {
    const pageId = await h.open('observe/downloads.html');
    const session = h.rt.core.findPage(pageId)!.session;
    await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(await h.refs(pageId), 'link', 'Download oddly named'),
    });
    const d = (await h.ok('browser_wait', { page_id: pageId, condition: 'download', timeout_ms: 10_000 }))
      .detail.download;
    expect(dirname(d.path)).toBe(session.downloadsDir);
    expect(basename(d.path)).not.toMatch(/^\.|[/\\?]/);
    expect(d.sha256).toBe(sha);
  });

  it('a navigation that turns into a download is reported as a download, not an error', async () => {
    const pageId = await h.open('observe/downloads.html');
    const nav = await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('download?name=x.csv') });
    expect(nav.download).toEqual(
      expect.objectContaining({ suggested_filename: 'x.csv', state: 'completed' }),
    );
    expect(nav.__content).toContain('download');
    expect(readFileSync(nav.download.path, 'utf8')).toBe(CSV);
    // the page stays on its document and usable
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.title' })).value).toBe(
      'Downloads',
    );

    const opened = await h.ok('browser_open_page', { url: h.server.url('download?name=y.csv') });
    expect(opened.page_id).toMatch(/^p/);
    const session = h.rt.core.findPage(opened.page_id)!.session;
    const y = session.downloads.find((x) => x.suggested_filename === 'y.csv');
    expect(y).toBeDefined();
    expect(opened.download).toEqual(expect.objectContaining({ suggested_filename: 'y.csv' }));
    expect(opened.__content).toContain('y.csv');
  });
});
