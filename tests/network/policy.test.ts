/** The network policy as data: URL patterns and origin lists (no browser). */
import { describe, expect, it } from 'vitest';
import { checkOriginEntries, originVerdict, urlMatcher } from '../../src/core/network/policy.js';

describe('urlMatcher', () => {
  it('globs over the whole URL: ** any characters, * any but /', () => {
    const m = urlMatcher('**/api/*');
    expect(m('https://a.com/api/user')).toBe(true);
    expect(m('https://a.com/api/user?id=1')).toBe(true);
    expect(m('https://a.com/api/v1/user')).toBe(false);
    expect(m('https://a.com/apix/user')).toBe(false);
    expect(urlMatcher('https://a.com/*.png')('https://a.com/logo.png')).toBe(true);
    // regex characters are literal
    expect(urlMatcher('**/a+b(c)*')('https://x.com/a+b(c)1')).toBe(true);
    expect(urlMatcher('**/a+b(c)*')('https://x.com/aab(c)1')).toBe(false);
  });

  it('without * matches URLs that contain it', () => {
    expect(urlMatcher('/tracker')('https://a.com/js/tracker.js')).toBe(true);
    expect(urlMatcher('?x=1')('https://a.com/p?x=1')).toBe(true);
    expect(urlMatcher('/tracker')('https://a.com/track')).toBe(false);
  });
});

describe('originVerdict', () => {
  const allowed = (list: string[], url: string) => originVerdict(url, { allowed: list, blocked: null });
  it('origins need scheme, host and port to agree (ws counts as http)', () => {
    expect(allowed(['http://127.0.0.1:8080'], 'http://127.0.0.1:8080/x')).toBeNull();
    expect(allowed(['http://127.0.0.1:8080'], 'ws://127.0.0.1:8080/socket')).toBeNull();
    expect(allowed(['http://127.0.0.1:8080'], 'http://127.0.0.1:9090/x')).toBe('allowed_origins');
    expect(allowed(['http://127.0.0.1:8080'], 'https://127.0.0.1:8080/x')).toBe('allowed_origins');
    expect(allowed(['https://a.com'], 'https://a.com:443/x')).toBeNull();
  });

  it('hosts match any scheme and port; *.host matches the host and its subdomains', () => {
    expect(allowed(['a.com'], 'http://a.com:81/')).toBeNull();
    expect(allowed(['a.com'], 'https://b.a.com/')).toBe('allowed_origins');
    expect(allowed(['*.a.com'], 'https://b.a.com/')).toBeNull();
    expect(allowed(['*.a.com'], 'https://a.com/')).toBeNull();
    expect(allowed(['*.a.com'], 'https://ba.com/')).toBe('allowed_origins');
    expect(allowed(['localhost:3000'], 'http://localhost:3000/')).toBeNull();
    expect(allowed(['localhost:3000'], 'http://localhost:3001/')).toBe('allowed_origins');
  });

  it('blocked wins over allowed; only http(s) and ws(s) are judged', () => {
    const p = { allowed: ['a.com'], blocked: ['a.com'] };
    expect(originVerdict('https://a.com/', p)).toBe('blocked_origins');
    for (const url of ['data:text/plain,hi', 'blob:https://b.com/1', 'about:blank', 'not a url'])
      expect(originVerdict(url, { allowed: ['a.com'], blocked: null })).toBeNull();
  });

  it('refuses entries it cannot read', () => {
    expect(() =>
      checkOriginEntries('allowed_origins', ['https://a.com', 'a.com', '*.a.com', 'localhost:80']),
    ).not.toThrow();
    for (const bad of ['ftp://a.com', 'a.com/path', 'http://', '**.a.com'])
      expect(() => checkOriginEntries('allowed_origins', [bad]), bad).toThrow(/not an origin or host/);
  });
});
