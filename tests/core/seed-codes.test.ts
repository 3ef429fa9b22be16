/**
 * Seed 001's error codes, each provoked where its situation happens in brow: page_expired,
 * snapshot_failed, screenshot_failed, version_mismatch (script_injection_failed and
 * script_not_found: tests/read/scripts.test.ts; backend_unavailable: tests/core/errors.test.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';
import { startDebugChromium } from '../chromium-process.js';

let h: Harness;
const workspace = mkdtempSync(join(tmpdir(), 'brow-codes-'));
beforeAll(async () => {
  h = await harness({ workspace_root: workspace, allow_attach: true });
});
afterAll(() => h.close());

describe("seed 001's error codes", () => {
  it('page_expired: a page of a session that reached its ttl_ms', async () => {
    // the ttl outlasts opening the page on a loaded machine
    const s = await h.ok('browser_start_session', { ttl_ms: scaled(3000) });
    const pageId = await h.open('core/stubborn.html', { session_id: s.session_id });
    const deadline = Date.now() + scaled(30_000);
    while (Date.now() < deadline && (await h.call('browser_list_pages', { session_id: s.session_id })).ok) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const e = await h.err('browser_list_elements', { page_id: pageId });
    expect(e.code).toBe('page_expired');
    expect(e.content).toMatch(/ttl_ms/);
    expect(e.data).toMatchObject({ page_id: pageId, closed_reason: 'ttl' });
    // the session itself reads as closed, as before
    expect((await h.err('browser_list_pages', { session_id: s.session_id })).code).toBe('session_closed');
  });

  it('snapshot_failed: a document whose every element fails to walk; the page stays usable', async () => {
    const pageId = await h.open('core/deep.html');
    const e = await h.err('browser_list_elements', { page_id: pageId });
    expect(e.code).toBe('snapshot_failed');
    expect(e.content).toMatch(/nest deeper/);
    expect(e.content).toMatch(/browser_find/);
    const title = await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.title' });
    expect(title.value).toBe('Deep page');
  });

  it('screenshot_failed: a capture that cannot be saved; the page stays usable', async () => {
    const pageId = await h.open('core/stubborn.html');
    writeFileSync(join(workspace, 'taken'), 'a file, not a folder');
    const e = await h.err('browser_screenshot', { page_id: pageId, output_path: 'taken/shot.png' });
    expect(e.code).toBe('screenshot_failed');
    expect(e.content).toMatch(/could not be saved .*taken/);
    const ok = await h.ok('browser_screenshot', { page_id: pageId, output_path: 'shots/shot.png' });
    expect(ok.saved_bytes).toBeGreaterThan(100);
  });

  it('version_mismatch: a state file written by another version of brow', async () => {
    await h.open('core/stubborn.html');
    const sessionId = (await h.ok('browser_list_pages', {})).session_id;
    await h.ok('browser_save_state', { session_id: sessionId, path: 'state.json' });
    const file = join(workspace, 'state.json');
    const saved = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, brow_state: 2 }));
    const e = await h.err('browser_load_state', { session_id: sessionId, path: 'state.json' });
    expect(e.code).toBe('version_mismatch');
    expect(e.content).toMatch(/format 2/);
  });

  it('version_mismatch: an attached tab set up by another brow build', async () => {
    const person = await startDebugChromium([h.server.url('core/old-brow.html')]);
    try {
      // the tab must have its document before brow adopts it: a document that starts after the
      // adoption gets this brow's script first (seen in CI: the tab then listed without an error)
      const loadedDeadline = Date.now() + 30_000;
      for (;;) {
        const targets = (await (await fetch(`${person.cdpUrl}/json/list`)).json()) as { title: string }[];
        if (targets.some((t) => t.title === 'Set up by another brow')) break;
        if (Date.now() > loadedDeadline) throw new Error("the person's tab did not load old-brow.html");
        await new Promise((r) => setTimeout(r, 100));
      }
      const a = await h.ok('browser_attach_session', {
        cdp_url: person.cdpUrl,
        adopt_url_substring: 'old-brow.html',
      });
      // and wait for it to finish loading
      const deadline = Date.now() + 30_000;
      for (;;) {
        const o = await h.call('browser_evaluate', {
          page_id: a.page_id,
          expression: `location.href.includes('old-brow.html') && document.readyState === 'complete'`,
        });
        if (o.ok && o.data.value === true) break;
        if (Date.now() > deadline) throw new Error(`the tab did not load: ${o.content}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const e = await h.err('browser_list_elements', { page_id: a.page_id });
      expect(e.code).toBe('version_mismatch');
      expect(e.content).toMatch(/another brow build/);
      // a reload gives the document this brow's script
      await h.ok('browser_history', { page_id: a.page_id, action: 'reload' });
      const snap = await h.ok('browser_list_elements', { page_id: a.page_id });
      expect(snap.__content).toContain('Old tab');
      await h.ok('browser_stop_session', { session_id: a.session_id });
    } finally {
      await person.stop();
    }
  });

  it('an SVG document (no body) is read and listed without an error', async () => {
    const pageId = await h.open('core/doc.svg');
    const read = await h.call('browser_read_page', { page_id: pageId });
    expect(read.ok, read.content).toBe(true);
    const snap = await h.ok('browser_list_elements', { page_id: pageId });
    expect(snap.__content).toMatch(/\[link ref=e\d+ .*\] Link/);
  });
});
