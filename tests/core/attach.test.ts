import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { listTargets, startDebugChromium, type DebugChromium } from '../chromium-process.js';

let h: Harness;
let person: DebugChromium;
beforeAll(async () => {
  h = await harness({ allow_attach: true });
  person = await startDebugChromium([h.server.url('core/form.html')]);
});
afterAll(async () => {
  await h.close();
  await person.stop();
});

describe('attach to a running browser', () => {
  it('is off unless allow_attach', async () => {
    const off = await harness();
    try {
      expect((await off.err('browser_attach_session', { cdp_url: person.cdpUrl })).code).toBe(
        'attach_disabled',
      );
      expect((await off.err('browser_list_tabs', { cdp_url: person.cdpUrl })).code).toBe('attach_disabled');
    } finally {
      await off.close();
    }
  });

  it('opens its own tab and closes only that one when stopped', async () => {
    const before = await listTargets(person.cdpUrl);
    const a = await h.ok('browser_attach_session', {
      cdp_url: person.cdpUrl,
      url: h.server.url('core/rerender.html'),
    });
    expect(a.adopted).toBe(false);
    expect(a.url).toContain('rerender.html');
    expect((await listTargets(person.cdpUrl)).length).toBe(before.length + 1);
    const snap = await h.ok('browser_list_elements', { page_id: a.page_id });
    expect(snap.__content).toContain('Re-render');
    await h.ok('browser_stop_session', { session_id: a.session_id });
    const after = await listTargets(person.cdpUrl);
    expect(after.map((t) => t.id).sort()).toEqual(before.map((t) => t.id).sort());
  });

  it('adopts a tab by URL substring, once; releasing leaves it open and as it was', async () => {
    const a = await h.ok('browser_attach_session', {
      cdp_url: person.cdpUrl,
      adopt_url_substring: 'form.html',
    });
    expect(a.adopted).toBe(true);
    const tabs = await h.ok('browser_list_tabs', { cdp_url: person.cdpUrl });
    expect(tabs.tabs.find((t: any) => t.url.includes('form.html')).adopted).toBe(true);
    const second = await h.err('browser_attach_session', {
      cdp_url: person.cdpUrl,
      adopt_url_substring: 'form.html',
    });
    expect(second.code).toBe('resource_limit');
    expect(second.content).toMatch(/already adopted/);
    const refs = (await h.ok('browser_list_elements', { page_id: a.page_id })).snapshot.refs;
    const name = refs.find((r: any) => r.accessible_name === 'Full name').ref;
    await h.ok('browser_fill', { page_id: a.page_id, ref: name, value: 'typed by agent' });
    await h.ok('browser_stop_session', { session_id: a.session_id });
    const left = await listTargets(person.cdpUrl);
    expect(left.some((t) => t.url.includes('form.html'))).toBe(true);
    // the person's tab keeps what happened in it; a new adoption works again
    const b = await h.ok('browser_attach_session', {
      cdp_url: person.cdpUrl,
      adopt_url_substring: 'form.html',
    });
    const val = await h.rt.core
      .findPage(b.page_id)!
      .raw.evaluate(() => (document.getElementById('name') as HTMLInputElement).value);
    expect(val).toBe('typed by agent');
    await h.ok('browser_stop_session', { session_id: b.session_id });
    expect(
      (await h.err('browser_attach_session', { cdp_url: person.cdpUrl, adopt_url_substring: 'no-such-tab' }))
        .code,
    ).toBe('page_not_found');
  });

  it('an unreachable endpoint answers connection_failed', async () => {
    expect((await h.err('browser_attach_session', { cdp_url: 'http://127.0.0.1:9' })).code).toBe(
      'connection_failed',
    );
    expect((await h.err('browser_attach_session', { cdp_url: 'ftp://x' })).code).toBe('invalid_request');
  });
});
