/** browser_add_init_script / browser_remove_init_script: scripts run at the start of every new document of a page. */
import { Script } from 'node:vm';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { slot } from '../state-bag.js';

/** The identifiers of the init scripts brow added to a page (Chromium does not say which exist). */
const added = slot('init-scripts', () => new Set<string>());

/** Add `source` to run before the page's own scripts on every later navigation; returns its id. */
export async function addInitScript(page: BrowPage, source: string): Promise<string> {
  try {
    // compile only (never run) in Node, so a syntax error is reported now, not on the next load
    new Script(source, { filename: 'init-script.js' });
  } catch (e) {
    throw new BrowserError(
      'script_injection_failed',
      `The init script does not parse, so it was not added: ${(e as Error).message}`,
    );
  }
  const { identifier } = await page.raw.evaluateOnNewDocument(source);
  page.state.get(added).add(identifier);
  return identifier;
}

/** Remove an init script this page was given; script_not_found for any other identifier. */
export async function removeInitScript(page: BrowPage, identifier: string): Promise<void> {
  const ids = page.state.get(added);
  if (!ids.has(identifier)) {
    const known = [...ids];
    throw new BrowserError('script_not_found', `Page ${page.id} has no init script "${identifier}".`, {
      hint:
        known.length > 0
          ? `Its init scripts: ${known.join(', ')}.`
          : 'This page has no init scripts; browser_add_init_script returns the identifier to remove.',
      details: { identifiers: known },
    });
  }
  await page.raw.removeScriptToEvaluateOnNewDocument(identifier);
  ids.delete(identifier);
}
