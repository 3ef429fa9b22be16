/** The page a `browser` tool tab drives in a spawned or connected browser. */
import type { Browser, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';

const SKIP = /request[\s_-]?handler|devtools|background[\s_-]?(page|host)|service[\s_-]?worker/i;

/** The page to drive in an attached browser: by url/title substring, else the first ordinary page. */
export async function pickTarget(browser: Browser, matcher?: string): Promise<Page> {
  const pages = await browser.pages();
  if (pages.length === 0) {
    throw new BrowserError('connection_failed', 'No page targets available on the attached browser', {
      hint: 'Open a window in the app first.',
    });
  }
  const titled = await Promise.all(
    pages.map(async (p) => ({ p, url: p.url(), title: await p.title().catch(() => '') })),
  );
  if (matcher) {
    const m = matcher.toLowerCase();
    const hit = titled.find((t) => t.url.toLowerCase().includes(m) || t.title.toLowerCase().includes(m));
    if (hit) return hit.p;
    const list = titled.map((t) => `- ${t.title || '(untitled)'} (${t.url})`).join('\n');
    throw new BrowserError(
      'invalid_request',
      `No page target matched "${matcher}". Available pages:\n${list}`,
      {
        hint: 'Pass app.target as a substring of one of these titles or URLs.',
      },
    );
  }
  return (titled.find((t) => !SKIP.test(t.url) && !SKIP.test(t.title)) ?? titled[0]!).p;
}
