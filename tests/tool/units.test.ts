/** The browser tool's pure parts, without a browser: selectors, coercions, errors, images, stealth script. */
import { describe, expect, it } from 'vitest';
import { userAgentOverride } from '../../src/core/browser/stealth/user-agent.js';
import { BrowserError } from '../../src/core/errors.js';
import { markdownToText } from '../../src/core/tool/extract.js';
import { deserializeError, serializeError } from '../../src/core/tool/protocol.js';
import { cloneSafe, toDisplay } from '../../src/core/tool/run-code.js';
import { browserToolInput, clampTimeoutMs } from '../../src/core/tool/schema.js';
import { normalizeSelector } from '../../src/core/tool/selectors.js';
import { urlMatches } from '../../src/core/tool/tab-api.js';

describe('selectors', () => {
  it('passes CSS and query handlers through, rewrites legacy p-*/ prefixes', () => {
    expect(normalizeSelector(' #a > b ')).toBe('#a > b');
    expect(normalizeSelector('text/Sign in')).toBe('text/Sign in');
    expect(normalizeSelector('p-text/Sign in')).toBe('text/Sign in');
    expect(normalizeSelector('p-xpath///a')).toBe('xpath///a');
    expect(normalizeSelector('p-pierce/#x')).toBe('pierce/#x');
    expect(normalizeSelector('p-aria/Submit')).toBe('aria/Submit');
  });

  it('refuses other p-*/ prefixes and non-strings', () => {
    expect(() => normalizeSelector('p-role/button')).toThrow(/Unsupported selector prefix "p-role\/"/);
    expect(() => normalizeSelector('')).toThrow(BrowserError);
    expect(() => normalizeSelector(42)).toThrow(/non-empty string \(got number\)/);
  });
});

describe('run values', () => {
  it('display coerces images, strings and JSON, else String()', () => {
    expect(toDisplay({ type: 'image', data: 'AA==', mimeType: 'image/png', extra: 1 })).toEqual({
      type: 'image',
      data: 'AA==',
      mimeType: 'image/png',
    });
    expect(toDisplay('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(toDisplay({ a: [1] })).toEqual({ type: 'text', text: '{\n  "a": [\n    1\n  ]\n}' });
    expect(toDisplay(10n)).toEqual({ type: 'text', text: '10' });
    expect(toDisplay(undefined)).toEqual({ type: 'text', text: 'undefined' });
  });

  it('cloneSafe keeps JSON data, clones what JSON cannot, stringifies the rest', () => {
    expect(cloneSafe({ a: 1, d: undefined })).toEqual({ a: 1 });
    expect(cloneSafe(undefined)).toBeUndefined();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    const copy = cloneSafe(loop) as Record<string, unknown>;
    expect(copy.self).toBe(copy);
    expect(cloneSafe(() => 1)).toBe('() => 1');
    expect(cloneSafe({ evaluate() {}, toString: () => 'JSHandle@x' })).toBe('JSHandle@x');
  });

  it('urlMatches takes substrings, RegExps (also global ones) and predicates', () => {
    expect(urlMatches('https://a.test/x?step=2', '?step=2')).toBe(true);
    const g = /step=\d/g;
    expect(urlMatches('https://a.test/?step=2', g)).toBe(true);
    expect(urlMatches('https://a.test/?step=2', g)).toBe(true);
    expect(urlMatches('https://a.test/', (u: string) => u.endsWith('/'))).toBe(true);
    expect(() => urlMatches('x', 5)).toThrow(BrowserError);
  });

  it('timeout is seconds, default 30, clamped to 1..30', () => {
    expect(clampTimeoutMs(browserToolInput.parse({ action: 'run' }).timeout)).toBe(30_000);
    expect(clampTimeoutMs(0)).toBe(1000);
    expect(clampTimeoutMs(99)).toBe(30_000);
    expect(clampTimeoutMs(2.5)).toBe(2500);
    expect(clampTimeoutMs(Number.NaN)).toBe(30_000);
  });
});

describe('errors across the worker boundary', () => {
  it('keeps a BrowserError code and hint; a thrown error becomes script_error with its type', () => {
    const back = deserializeError(
      serializeError(new BrowserError('stale_ref', 'Element id 3 is stale', { hint: 'observe' })),
    );
    expect(back).toMatchObject({ code: 'stale_ref', message: 'Element id 3 is stale', hint: 'observe' });
    const thrown = new TypeError('bad');
    thrown.stack = 'TypeError: bad\n    at browser-run-7.js:4:9';
    expect(deserializeError(serializeError(thrown))).toMatchObject({
      code: 'script_error',
      message: 'TypeError: bad (code line 4, column 9)',
      details: { error_name: 'TypeError' },
    });
    const timeout = Object.assign(new Error('Waiting failed'), { name: 'TimeoutError' });
    expect(deserializeError(serializeError(timeout)).code).toBe('timeout');
    expect(deserializeError(serializeError('plain'))).toMatchObject({
      code: 'script_error',
      message: 'plain',
    });
    const closed = Object.assign(new Error('Protocol error (Runtime.callFunctionOn): Target closed'), {
      name: 'TargetCloseError',
    });
    expect(deserializeError(serializeError(closed)).code).toBe('page_closed');
  });
});

describe('text and user agent', () => {
  it('markdownToText drops Markdown markup', () => {
    const md =
      '# Title\n\nSome **bold** and [a link](https://x.test).\n\n- one\n- two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```\ncode\n```';
    const text = markdownToText(md);
    expect(text).toContain('Title');
    expect(text).toContain('Some bold and a link.');
    expect(text).not.toMatch(/[#*`]|\]\(/);
  });

  it('userAgentOverride removes HeadlessChrome and describes the real version', () => {
    const ua = userAgentOverride(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'HeadlessChrome/156.0.8078.114',
      ['en-US', 'en'],
    );
    expect(ua.userAgent).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
    expect(ua.acceptLanguage).toBe('en-US,en');
    expect(ua.userAgentMetadata).toMatchObject({
      platform: 'Linux',
      fullVersion: '156.0.8078.114',
      mobile: false,
    });
    expect(ua.userAgentMetadata!.brands!.map((b) => b.brand)).not.toContain('HeadlessChrome');
  });
});
