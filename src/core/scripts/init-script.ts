/** browser_add_init_script: a script that runs at the start of every new document of a page. */
import { Script } from 'node:vm';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';

/** Add `source` to run before the page's own scripts on every later navigation; returns its id. */
export async function addInitScript(page: BrowPage, source: string): Promise<string> {
  if (page.session.readOnly) {
    throw new BrowserError('read_only', `Session ${page.session.id} is read-only; init scripts are refused.`);
  }
  page.assertNoHandoff();
  try {
    // compile only (never run) in Node, so a syntax error is reported now, not on the next load
    new Script(source, { filename: 'init-script.js' });
  } catch (e) {
    throw new BrowserError('script_error', `The init script does not parse: ${(e as Error).message}`);
  }
  const { identifier } = await page.raw.evaluateOnNewDocument(source);
  return identifier;
}
