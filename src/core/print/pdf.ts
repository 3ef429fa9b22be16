/** Print a page to PDF (Page.printToPDF through puppeteer), written to a file in the workspace. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PaperFormat } from 'puppeteer-core';
import { BrowserError, classifyError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { BrowPage } from '../session/page.js';

export interface PdfOptions {
  path: string;
  format?: PaperFormat | undefined;
  landscape?: boolean | undefined;
  print_background?: boolean | undefined;
}

/** Count the pages of a PDF Chromium wrote (its page objects are not compressed). */
export function pdfPageCount(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []
  ).length;
}

/**
 * What a failed print means. Chromium builds that print to PDF only headless (older ones) answer
 * "PrintToPDF is not implemented" in a window: that becomes capability_unavailable with a way out.
 */
export function pdfError(e: unknown, headless: boolean): BrowserError {
  const msg = e instanceof Error ? e.message : String(e);
  if (/PrintToPDF is not implemented|Printing is not available/i.test(msg)) {
    return new BrowserError(
      'capability_unavailable',
      `This Chromium cannot print to PDF${headless ? '' : ' in a headful session'}.`,
      {
        hint: headless
          ? 'Use a Chromium build with printing, or take a full-page browser_screenshot instead.'
          : 'Start a headless session (browser_start_session {headless: true}), open the page there and save the PDF.',
        cause: e,
      },
    );
  }
  return classifyError(e);
}

/** Save the page as a PDF (current Chromium prints in headful sessions too; a build that cannot is answered with a hint). */
export async function savePdf(
  page: BrowPage,
  opts: PdfOptions,
): Promise<{ path: string; bytes: number; pages: number }> {
  const path = workspacePath(workspaceRoot(page.session.config.workspace_root), opts.path, false);
  const pdf = await page.raw
    .pdf({
      format: opts.format ?? 'A4',
      landscape: opts.landscape ?? false,
      printBackground: opts.print_background ?? false,
      timeout: page.session.config.max_timeout_ms,
    })
    .catch((e: unknown) => {
      throw pdfError(e, page.session.options.headless);
    });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pdf);
  return { path, bytes: pdf.byteLength, pages: pdfPageCount(pdf) };
}
