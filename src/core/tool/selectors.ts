/**
 * Selectors the tab helpers take: CSS, puppeteer's query handlers (`aria/`, `text/`, `xpath/`,
 * `pierce/`, and `::-p-…` pseudo-elements), and the legacy `p-text/`, `p-xpath/`, `p-pierce/`,
 * `p-aria/` prefixes (rewritten). Any other `p-…/` prefix is an error, not a CSS guess.
 */
import { BrowserError } from '../errors.js';

const LEGACY = new Set(['text', 'xpath', 'pierce', 'aria']);

/** The selector puppeteer understands, or invalid_request. */
export function normalizeSelector(selector: unknown): string {
  if (typeof selector !== 'string' || selector.trim() === '') {
    throw new BrowserError(
      'invalid_request',
      `A selector must be a non-empty string (got ${describe(selector)}).`,
      {
        hint: 'Pass CSS ("#id", "button.primary") or "text/Sign in", "aria/Submit[role=\\"button\\"]", "xpath///a", "pierce/#inner".',
      },
    );
  }
  const s = selector.trim();
  const legacy = /^p-([a-z-]+)\//i.exec(s);
  if (legacy) {
    const kind = legacy[1]!.toLowerCase();
    if (!LEGACY.has(kind)) {
      throw new BrowserError('invalid_request', `Unsupported selector prefix "p-${legacy[1]}/" in "${s}".`, {
        hint: 'Use CSS or one of the prefixes text/, aria/, xpath/, pierce/.',
      });
    }
    return `${kind}/${s.slice(legacy[0].length)}`;
  }
  return s;
}

/** Is the selector one of puppeteer's text queries (gets the custom actionability loop for click)? */
export const isTextSelector = (s: string): boolean => s.startsWith('text/');

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'an empty string';
  return typeof v;
}
