/** browser_save_pdf: a PDF file in the workspace (headless), refused outside it and in a headful session. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfError, pdfPageCount } from '../../src/core/print/pdf.js';
import { harness, type Harness } from '../helpers.js';
import { startXvfb, type Xvfb } from '../xvfb.js';

let h: Harness;
let workspace: string;
beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-ws-'));
  h = await harness({ workspace_root: workspace });
});
afterAll(() => h.close());

describe('browser_save_pdf', () => {
  it('writes a PDF of the page: %PDF, one page per printed section, landscape and paper size honoured', async () => {
    const page = await h.open('storage/print.html');
    const r = await h.ok('browser_save_pdf', {
      page_id: page,
      path: 'out/report.pdf',
      print_background: true,
    });
    expect(r.path).toBe(join(workspace, 'out', 'report.pdf'));
    const bytes = readFileSync(r.path);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.pages).toBe(3);
    expect(pdfPageCount(bytes)).toBe(3);
    expect(r.__content).toMatch(/3 page\(s\)/);

    const wide = await h.ok('browser_save_pdf', {
      page_id: page,
      path: 'out/wide.pdf',
      format: 'Letter',
      landscape: true,
    });
    // Letter landscape: 792 × 612 pt
    expect(readFileSync(wide.path).toString('latin1')).toMatch(/\/MediaBox\s*\[0 0 792 612\]/);
  });

  it('refuses a path outside the workspace', async () => {
    const page = await h.open('storage/print.html');
    const e = await h.err('browser_save_pdf', { page_id: page, path: '../outside.pdf' });
    expect(e.code).toBe('path_not_allowed');
    expect(existsSync(join(workspace, '..', 'outside.pdf'))).toBe(false);
  });
});

describe('browser_save_pdf in a headful session', () => {
  let xvfb: Xvfb | null = null;
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env.DISPLAY;
    xvfb = await startXvfb('1280x900x24');
    process.env.DISPLAY = xvfb.display;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = saved;
    xvfb?.stop();
  });

  // Chromium 156 prints in a window too; builds that do not answer "PrintToPDF is not implemented"
  it('prints in a window as well (this Chromium can)', async () => {
    const s = await h.ok('browser_start_session', { headless: false });
    const page = await h.open('storage/print.html', { session_id: s.session_id });
    const r = await h.ok('browser_save_pdf', { page_id: page, path: 'headful.pdf' });
    expect(readFileSync(r.path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.pages).toBe(3);
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('a Chromium that cannot print headful is answered capability_unavailable with a hint', () => {
    const refused = new Error('Protocol error (Page.printToPDF): PrintToPDF is not implemented');
    const e = pdfError(refused, false);
    expect(e.code).toBe('capability_unavailable');
    expect(e.hint).toMatch(/headless session/);
    expect(pdfError(refused, true).hint).toMatch(/screenshot/);
    expect(pdfError(new Error('Protocol error: Target closed'), false).code).toBe('page_closed');
  });
});
