import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 16 });
});
afterAll(() => h.close());

/** A page of dialogs.html in a new session with this dialog policy. */
async function dialogsPage(policy: 'accept' | 'dismiss' | 'report') {
  const s = await h.ok('browser_start_session', { dialog_policy: policy });
  const pageId = await h.open('observe/dialogs.html', { session_id: s.session_id });
  const refs = await h.refs(pageId);
  const click = (name: string) =>
    h.call('browser_click', { page_id: pageId, ref: refOf(refs, 'button', name) });
  const out = async () =>
    (
      await h.ok('browser_evaluate', {
        page_id: pageId,
        expression: 'document.getElementById("out").textContent',
      })
    ).value;
  return { pageId, sessionId: s.session_id as string, refs, click, out };
}

describe('dialogs', () => {
  it('policy accept: the click reports the dialog, accepted; the page goes on', async () => {
    const p = await dialogsPage('accept');
    const r = await p.click('Alert');
    expect(r.ok).toBe(true);
    const effect = (r.data as any).action;
    expect(effect.dialogs).toEqual([
      expect.objectContaining({ type: 'alert', message: 'Hello alert', handled: 'accepted' }),
    ]);
    expect(r.content).toContain('Dialog (alert) "Hello alert": accepted');
    expect(await p.out()).toBe('after alert');
    await p.click('Confirm');
    expect(await p.out()).toBe('confirm true');
  });

  it('policy dismiss: confirm answers false, prompt null', async () => {
    const p = await dialogsPage('dismiss');
    const r = await p.click('Confirm');
    expect((r.data as any).action.dialogs[0].handled).toBe('dismissed');
    expect(await p.out()).toBe('confirm false');
    await p.click('Prompt');
    expect(await p.out()).toBe('prompt null');
  });

  it('policy report: other calls answer dialog_blocking until browser_handle_dialog', async () => {
    const p = await dialogsPage('report');
    const r = await p.click('Alert');
    expect(r.ok).toBe(true);
    expect((r.data as any).action.dialogs).toEqual([
      expect.objectContaining({ type: 'alert', handled: 'pending' }),
    ]);
    expect(r.content).toContain('answer it with browser_handle_dialog');

    const pages = await h.ok('browser_list_pages', { session_id: p.sessionId });
    expect(pages.pages[0].state).toBe('dialog');
    const blocked: [string, Record<string, unknown>][] = [
      ['browser_list_elements', {}],
      ['browser_find', { role: 'button' }],
      ['browser_click', { ref: refOf(p.refs, 'button', 'Confirm') }],
      ['browser_evaluate', { expression: '1' }],
      ['browser_execute', { code: 'return 1' }],
      ['browser_navigate', { url: h.server.url('observe/console.html') }],
    ];
    for (const [name, input] of blocked) {
      const e = await h.err(name, { page_id: p.pageId, ...input });
      expect(e.code, name).toBe('dialog_blocking');
      expect(e.content, name).toContain('Hello alert');
    }
    // reading what was recorded does not touch the page
    await h.ok('browser_read_console', { page_id: p.pageId });

    const answered = await h.ok('browser_handle_dialog', { page_id: p.pageId, accept: true });
    expect(answered.dialog).toEqual(expect.objectContaining({ type: 'alert', handled: 'accepted' }));
    expect(answered.page.state).toBe('open');
    expect(await p.out()).toBe('after alert');
    expect((await h.err('browser_handle_dialog', { page_id: p.pageId, accept: true })).code).toBe(
      'invalid_request',
    );
  });

  it('answers a prompt with text, and a confirm with cancel', async () => {
    const p = await dialogsPage('report');
    await p.click('Prompt');
    const r = await h.ok('browser_handle_dialog', { page_id: p.pageId, accept: true, prompt_text: 'Grace' });
    expect(r.dialog.default_value).toBe('anon');
    expect(r.prompt_text).toBe('Grace');
    expect(r.__content).toContain('with "Grace"');
    expect(await p.out()).toBe('prompt Grace');
    await p.click('Confirm');
    await h.ok('browser_handle_dialog', { page_id: p.pageId, accept: false });
    expect(await p.out()).toBe('confirm false');
  });

  it('a dialog opened by a script answers dialog_blocking instead of hanging', async () => {
    const p = await dialogsPage('report');
    const t0 = Date.now();
    const e = await h.err('browser_evaluate', { page_id: p.pageId, expression: 'alert("from script"), 1' });
    expect(e.code).toBe('dialog_blocking');
    expect(e.content).toContain('from script');
    // hanging would be the evaluate's 30 s: well under that, however loaded the machine
    expect(Date.now() - t0).toBeLessThan(Math.min(scaled(5000), 25_000));
    await h.ok('browser_handle_dialog', { page_id: p.pageId, accept: true });
    const x = await h.err('browser_execute', { page_id: p.pageId, code: 'confirm("sure?"); return 1;' });
    expect(x.code).toBe('dialog_blocking');
    await h.ok('browser_handle_dialog', { page_id: p.pageId, accept: false });
    expect((await h.ok('browser_evaluate', { page_id: p.pageId, expression: '2' })).value).toBe(2);
  });

  it('beforeunload never holds a navigation or a close', async () => {
    const p = await dialogsPage('report');
    await p.click('Arm beforeunload');
    expect(await p.out()).toBe('armed');
    const nav = await h.ok('browser_navigate', {
      page_id: p.pageId,
      url: h.server.url('observe/console.html'),
    });
    expect(nav.page.url).toContain('console.html');
    await h.ok('browser_navigate', { page_id: p.pageId, url: h.server.url('observe/dialogs.html') });
    const refs = await h.refs(p.pageId);
    await h.ok('browser_click', { page_id: p.pageId, ref: refOf(refs, 'button', 'Arm beforeunload') });
    const closed = await h.ok('browser_close_page', { page_id: p.pageId });
    expect(closed.page.state).toBe('closed');
  });

  it('closing a page with an open dialog does not hang', async () => {
    const p = await dialogsPage('report');
    await p.click('Alert');
    await h.ok('browser_close_page', { page_id: p.pageId });
    expect((await h.err('browser_list_elements', { page_id: p.pageId })).code).toBe('page_closed');
  });
});
