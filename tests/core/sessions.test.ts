import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 2 });
});
afterAll(() => h.close());

describe('sessions and pages', () => {
  it('open_page creates a default session and reuses it', async () => {
    const a = await h.ok('browser_open_page', { url: h.server.url('core/form.html') });
    expect(a.page_id).toMatch(/^p-[0-9a-f]{6}-\d+$/);
    expect(a.session_id).toMatch(/^s-[0-9a-f]{6}-\d+$/);
    expect(a.page.title).toBe('Form fixture');
    const b = await h.ok('browser_open_page', {});
    expect(b.session_id).toBe(a.session_id);
    expect(b.page.url).toBe('about:blank');
    const pages = await h.ok('browser_list_pages', { session_id: a.session_id });
    expect(pages.pages.map((p: any) => p.page_id)).toEqual(expect.arrayContaining([a.page_id, b.page_id]));
    const active = pages.pages.find((p: any) => p.active);
    expect(active.page_id).toBe(b.page_id);
    await h.ok('browser_activate_page', { page_id: a.page_id });
    const again = await h.ok('browser_list_pages', { session_id: a.session_id });
    expect(again.pages.find((p: any) => p.active).page_id).toBe(a.page_id);
    // each page has a window of its own, so the one not in front keeps painting (and can be captured)
    const second = h.rt.core.findPage(b.page_id)!;
    expect(await second.raw.evaluate(() => document.visibilityState)).toBe('visible');
    await h.ok('browser_close_page', { page_id: b.page_id });
    expect((await h.err('browser_list_elements', { page_id: b.page_id })).code).toBe('page_closed');
    expect((await h.err('browser_list_elements', { page_id: 'p-000000-1' })).code).toBe('page_not_found');
  });

  it('sessions are isolated: cookies do not cross', async () => {
    const s1 = await h.ok('browser_start_session', {});
    const p1 = await h.open('core/form.html', { session_id: s1.session_id });
    await h.ok('browser_stop_session', { session_id: s1.session_id });
    expect(p1).toBeTruthy();
    const s2 = await h.ok('browser_start_session', {});
    const p2 = await h.open('core/form.html', { session_id: s2.session_id });
    // a cookie set in one context is invisible in a fresh one
    const runtime = h.rt.core;
    await runtime.findPage(p2)!.raw.evaluate(() => (document.cookie = 'k=v'));
    const s3 = await h.ok('browser_start_session', {}).catch(() => null);
    expect(s3).toBeNull(); // cap of 2 reached (default session + s2)
    const other = [...runtime.sessions.values()].find((s) => s.id !== s2.session_id)!;
    const p3 = await other.openPage();
    await p3.raw.goto(h.server.url('core/form.html'));
    expect(await p3.raw.evaluate(() => document.cookie)).toBe('');
    await h.ok('browser_stop_session', { session_id: s2.session_id });
  });

  it('max_sessions answers resource_limit and stop is idempotent', async () => {
    const live = [...h.rt.core.sessions.keys()];
    const extra: string[] = [];
    for (let i = live.length; i < 2; i++) extra.push((await h.ok('browser_start_session', {})).session_id);
    const e = await h.err('browser_start_session', {});
    expect(e.code).toBe('resource_limit');
    expect(e.content).toMatch(/Stop a session/);
    const id = extra[0] ?? live[0]!;
    expect((await h.ok('browser_stop_session', { session_id: id })).was_running).toBe(true);
    expect((await h.ok('browser_stop_session', { session_id: id })).was_running).toBe(false);
    expect((await h.err('browser_stop_session', { session_id: 's-nope-1' })).code).toBe('session_not_found');
    expect((await h.err('browser_open_page', { session_id: id })).code).toBe('session_closed');
    for (const s of extra.slice(1)) await h.ok('browser_stop_session', { session_id: s });
  });

  it('keep_alive extends the lease and list_sessions reports it', async () => {
    const pageId = await h.open('core/form.html');
    const k = await h.ok('browser_keep_alive', { page_id: pageId, seconds: 3600 });
    expect(k.expires_at).toBeGreaterThan(Date.now() + 3500_000);
    const list = await h.ok('browser_list_sessions', {});
    expect(list.sessions.some((s: any) => s.page_ids.includes(pageId))).toBe(true);
    expect((await h.err('browser_keep_alive', { page_id: pageId, seconds: 99999 })).code).toBe(
      'invalid_request',
    );
  });

  it('popups and target=_blank join their session with opener_page_id', async () => {
    const pageId = await h.open('core/popup.html');
    const refs = await h.refs(pageId);
    const link = refs.find((r) => r.role === 'link').ref;
    const effect = await h.ok('browser_click', { page_id: pageId, ref: link });
    expect(effect.action.opened_pages.length).toBe(1);
    expect(effect.action.opened_pages[0].opener_page_id).toBe(pageId);
    const btn = refs.find((r) => r.accessible_name === 'Open a popup').ref;
    const e2 = await h.ok('browser_click', { page_id: pageId, ref: btn });
    expect(e2.action.opened_pages[0].opener_page_id).toBe(pageId);
    const popupId = e2.action.opened_pages[0].page_id;
    const snap = await h.ok('browser_list_elements', { page_id: popupId });
    expect(snap.__content).toMatch(/Re-render/);
  });

  it("a caller with an identity cannot reach another caller's pages or sessions", async () => {
    const a = await h.rt.invoke(
      'browser_open_page',
      { url: h.server.url('core/form.html') },
      { owner: 'client-a' },
    );
    expect(a.ok).toBe(true);
    const pageId = a.data.page_id as string;
    const sessionId = a.data.session_id as string;
    const b = await h.rt.invoke('browser_list_elements', { page_id: pageId }, { owner: 'client-b' });
    expect(b.ok ? 'ok' : b.data.error_code).toBe('page_not_found');
    const bs = await h.rt.invoke('browser_stop_session', { session_id: sessionId }, { owner: 'client-b' });
    expect(bs.ok ? 'ok' : bs.data.error_code).toBe('session_not_found');
    const listed = await h.rt.invoke('browser_list_pages', {}, { owner: 'client-b' });
    expect(JSON.stringify(listed.data)).not.toContain(pageId);
    // without a page id, client-b does not fall through to client-a's page
    const none = await h.rt.invoke('browser_list_elements', {}, { owner: 'client-b' });
    expect(none.ok ? none.data.page_id : 'refused').not.toBe(pageId);
    // the owner itself, and callers without an identity (CLI, library), can
    expect((await h.rt.invoke('browser_list_elements', { page_id: pageId }, { owner: 'client-a' })).ok).toBe(
      true,
    );
    expect((await h.rt.invoke('browser_list_elements', { page_id: pageId })).ok).toBe(true);
    await h.rt.invoke('browser_stop_session', { session_id: sessionId }, { owner: 'client-a' });
  });

  it('idle sessions stop by themselves', async () => {
    const h2 = await harness({ idle_stop_ms: 1500 });
    try {
      const s = await h2.ok('browser_start_session', {});
      const t0 = Date.now();
      const gone = await eventually(
        async () =>
          !(await h2.ok('browser_list_sessions', {})).sessions.some(
            (x: { session_id: string }) => x.session_id === s.session_id,
          ),
        10_000,
      );
      expect(gone).toBe(true);
      // it stopped by itself, and not before it had been idle idle_stop_ms
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
      expect((await h2.err('browser_open_page', { session_id: s.session_id })).code).toBe('session_closed');
    } finally {
      await h2.close();
    }
  });

  it('a crashed browser answers browser_crashed/session_closed and the next session launches a fresh one', async () => {
    const h2 = await harness();
    try {
      const pageId = await h2.open('core/form.html');
      const proc = h2.rt.core.findPage(pageId)!.session.host.browser.process();
      proc?.kill('SIGKILL');
      // brow hears of it when the browser's connection drops: wait for that, not a fixed time
      let code = '';
      await eventually(async () => {
        const r = await h2.call('browser_list_elements', { page_id: pageId });
        code = r.ok ? 'ok' : String((r.data as { error_code?: string }).error_code);
        return code === 'browser_crashed';
      }, 10_000);
      expect(code).toBe('browser_crashed');
      const fresh = await h2.open('core/form.html');
      expect((await h2.ok('browser_list_elements', { page_id: fresh })).__content).toMatch(/Full name/);
    } finally {
      await h2.close();
    }
  });
});
