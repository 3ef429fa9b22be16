/** browser_cookies: get, set and clear a session's cookies; filters by name and URL; sessions do not share them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** What the page's document.cookie shows (httpOnly ones never do). */
const docCookie = (page: string) => h.rt.core.findPage(page)!.raw.evaluate(() => document.cookie);

describe('browser_cookies', () => {
  it('sets cookies by url and by domain, reads them back filtered, and clears some or all', async () => {
    const page = await h.open('storage/account.html');
    const origin = h.server.origin;
    const set = await h.ok('browser_cookies', {
      page_id: page,
      action: 'set',
      cookies: [
        { name: 'a', value: '1', url: `${origin}/` },
        { name: 'b', value: '2', url: `${origin}/`, httpOnly: true, sameSite: 'Strict' },
        { name: 'c', value: '3', domain: '127.0.0.1', path: '/storage', expires: Date.now() / 1000 + 3600 },
        { name: 'other', value: 'x', url: 'http://example.test/' },
      ],
    });
    expect(set.count).toBe(4);
    expect(set.__content).toMatch(/Set 4 cookie\(s\) in session s[\w-]*: a, b, c, other\./);
    await h.ok('browser_navigate', { page_id: page, url: h.server.url('storage/account.html') });
    // the page sees the ones it may: not httpOnly b, not example.test's
    expect((await docCookie(page)).split('; ').sort()).toEqual(['a=1', 'c=3']);

    const all = await h.ok('browser_cookies', { page_id: page, action: 'get' });
    expect(all.count).toBe(4);
    const b = all.cookies.find((c: any) => c.name === 'b');
    expect(b).toMatchObject({ value: '2', httpOnly: true, sameSite: 'Strict', session: true });
    expect(all.cookies.find((c: any) => c.name === 'c')).toMatchObject({ path: '/storage', session: false });
    expect(all.__content).toMatch(/b=2 \(127\.0\.0\.1\/, httpOnly, session\)/);

    const forRoot = await h.ok('browser_cookies', { page_id: page, action: 'get', urls: [`${origin}/`] });
    expect(forRoot.cookies.map((c: any) => c.name).sort()).toEqual(['a', 'b']);
    const forPage = await h.ok('browser_cookies', {
      page_id: page,
      action: 'get',
      urls: [h.server.url('storage/account.html')],
    });
    expect(forPage.cookies.map((c: any) => c.name).sort()).toEqual(['a', 'b', 'c']);
    const byName = await h.ok('browser_cookies', { page_id: page, action: 'get', name: 'other' });
    expect(byName.cookies).toHaveLength(1);

    const one = await h.ok('browser_cookies', { page_id: page, action: 'clear', name: 'a' });
    expect(one.count).toBe(1);
    const left = await h.ok('browser_cookies', { page_id: page, action: 'get' });
    expect(left.cookies.map((c: any) => c.name).sort()).toEqual(['b', 'c', 'other']);
    const rest = await h.ok('browser_cookies', { page_id: page, action: 'clear' });
    expect(rest.count).toBe(3);
    expect((await h.ok('browser_cookies', { page_id: page, action: 'get' })).__content).toBe('No cookies.');
  });

  it("keeps each session's cookies to itself", async () => {
    const s1 = await h.ok('browser_start_session', {});
    const s2 = await h.ok('browser_start_session', {});
    await h.ok('browser_cookies', {
      session_id: s1.session_id,
      action: 'set',
      cookies: [{ name: 'mine', value: 'v', url: `${h.server.origin}/` }],
    });
    expect((await h.ok('browser_cookies', { session_id: s1.session_id, action: 'get' })).count).toBe(1);
    expect((await h.ok('browser_cookies', { session_id: s2.session_id, action: 'get' })).count).toBe(0);
    for (const s of [s1, s2]) await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('refuses incomplete cookies with a hint, and a session that does not exist', async () => {
    const s = await h.ok('browser_start_session', {});
    const none = await h.err('browser_cookies', { session_id: s.session_id, action: 'set' });
    expect(none.code).toBe('invalid_request');
    const nowhere = await h.err('browser_cookies', {
      session_id: s.session_id,
      action: 'set',
      cookies: [{ name: 'n', value: 'v' }],
    });
    expect(nowhere.code).toBe('invalid_request');
    expect(nowhere.content).toMatch(/cookies\[0\] \(n\) has neither url nor domain/);
    const insecure = await h.err('browser_cookies', {
      session_id: s.session_id,
      action: 'set',
      cookies: [{ name: 'n', value: 'v', url: `${h.server.origin}/`, sameSite: 'None', secure: false }],
    });
    expect(insecure.code).toBe('invalid_request');
    const refused = await h.err('browser_cookies', {
      session_id: s.session_id,
      action: 'set',
      cookies: [{ name: 'n', value: 'v', url: 'data:text/plain,x' }],
    });
    expect(refused.code).toBe('invalid_request');
    expect(refused.content).toMatch(/Chromium refused the cookies/);
    // a read-only session reads its cookies and changes none
    const ro = await h.ok('browser_start_session', { read_only: true });
    expect((await h.ok('browser_cookies', { session_id: ro.session_id, action: 'get' })).count).toBe(0);
    for (const action of ['set', 'clear']) {
      const refusedRo = await h.err('browser_cookies', {
        session_id: ro.session_id,
        action,
        cookies: [{ name: 'n', value: 'v', url: `${h.server.origin}/` }],
      });
      expect(refusedRo.code).toBe('read_only');
    }
    const gone = await h.err('browser_cookies', { session_id: 's_missing', action: 'get' });
    expect(gone.code).toBe('session_not_found');
  });
});
