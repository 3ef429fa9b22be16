/** Handoff through invoke(): banner, confirm call, timeout, Continue in the page, navigation, handoff_pending. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchInput } from '../../src/core/live/input.js';
import { callGated, harness, type Harness } from '../helpers.js';
import { continueRect, corePage, nextEvent, until } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

/** Start a handoff without waiting for it; resolves once the banner shows. */
async function startHandoff(pageId: string, extra: Record<string, unknown> = {}) {
  const requested = nextEvent(h.rt, 'handoff-requested', (e) => e.page_id === pageId);
  const call = h.call('browser_handoff', {
    page_id: pageId,
    instructions: 'Tick the box, then Continue',
    ...extra,
  });
  const event = await requested;
  return { call, event, handoffId: String(event.handoff_id) };
}

describe('handoff', () => {
  it('shows a banner the page and the snapshot cannot see, and a confirm call ends it', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const resolved = nextEvent(h.rt, 'handoff-resolved', (e) => e.page_id === pageId);
    const { call, event, handoffId } = await startHandoff(pageId);
    expect(event.instructions).toBe('Tick the box, then Continue');
    expect(await continueRect(page)).not.toBeNull();

    // out of the page's reach and out of the outline
    const seen = await page.raw.evaluate(() => {
      const host = document.documentElement.lastElementChild as HTMLElement;
      return { shadow: host.shadowRoot, text: document.documentElement.innerText };
    });
    expect(seen.shadow).toBeNull();
    expect(seen.text).not.toMatch(/Continue/);
    const snap = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    expect(snap.__content).not.toMatch(/Continue|your turn|Tick the box/);
    const listed = await h.ok('browser_list_pages');
    expect(listed.pages.find((p: any) => p.page_id === pageId).state).toBe('handoff');

    const confirmed = await h.ok('browser_confirm_handoff', { handoff_id: handoffId });
    expect(confirmed).toMatchObject({ ok: true, handoff_id: handoffId, resolved: true });
    const out = await call;
    expect(out.ok).toBe(true);
    expect(out.data).toMatchObject({
      confirmed: true,
      handoff_id: handoffId,
      via: 'confirm_call',
      navigated: false,
    });
    expect(out.data.url).toBe(h.server.url('live/form.html'));
    expect((await resolved).via).toBe('confirm_call');
    await until(async () => (await continueRect(page)) === null, 5000, 'banner gone');
    // a late confirm is answered, not refused
    expect(await h.ok('browser_confirm_handoff', { handoff_id: handoffId })).toMatchObject({
      resolved: false,
      via: 'confirm_call',
    });
    // and the page is the agent's again
    await h.ok('browser_click', {
      page_id: pageId,
      ref: (await h.refs(pageId)).find((r) => r.accessible_name === 'Go').ref,
    });
  });

  it('ends with via=timeout when nobody continues', async () => {
    const pageId = await h.open('live/form.html');
    const t0 = Date.now();
    const out = await h.call('browser_handoff', {
      page_id: pageId,
      instructions: 'Nobody is there',
      timeout_ms: 1000,
    });
    expect(out.ok).toBe(true);
    expect(out.data).toMatchObject({ confirmed: false, via: 'timeout' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(corePage(h.rt, pageId).handoffId).toBeNull();
  });

  it('ends with via=in_page when the person clicks Continue, and survives their navigation', async () => {
    const pageId = await h.open('live/captcha.html');
    const page = corePage(h.rt, pageId);
    const { call } = await startHandoff(pageId);
    const click = async (x: number, y: number) => {
      for (const event of ['down', 'up'] as const) {
        await dispatchInput(page, {
          type: 'mouse',
          event,
          x,
          y,
          button: 'left',
          buttons: event === 'down' ? 1 : 0,
          click_count: 1,
          modifiers: 0,
        });
      }
    };
    // the person ticks the box (sets a cookie) and follows the link: a new document
    const box = await h
      .ok('browser_evaluate', {
        page_id: pageId,
        expression: 'JSON.stringify(document.getElementById("human").getBoundingClientRect())',
      })
      .catch(() => null);
    expect(box).toBeNull(); // the agent cannot even evaluate meanwhile
    const rect = await page.raw.$eval('#human', (el) => el.getBoundingClientRect().toJSON());
    await click(rect.x + rect.width / 2, rect.y + rect.height / 2);
    const link = await page.raw.$eval('#next', (el) => el.getBoundingClientRect().toJSON());
    const navigated = nextEvent(h.rt, 'navigated', (e) => e.page_id === pageId);
    await click(link.x + 5, link.y + link.height / 2);
    await navigated;
    // the banner is shown again on the new document
    const cont = await until(() => continueRect(page), 5000, 'banner on the new document');
    await click(cont.x + cont.width / 2, cont.y + cont.height / 2);
    const out = await call;
    expect(out.ok).toBe(true);
    expect(out.data).toMatchObject({ confirmed: true, via: 'in_page', navigated: true, title: 'Signed in' });
    expect(out.data.url).toBe(h.server.url('live/done.html'));
    expect(out.data.cookies_added).toEqual([{ name: 'captcha_pass', domain: '127.0.0.1' }]);
    expect(JSON.stringify(out)).not.toContain('secret-value');
    expect((out.data as any).changes.added.join('\n')).toMatch(/Welcome back/);
    expect(out.content).toMatch(/Cookies added: captcha_pass/);
  });

  it('shows its banner on a page with a strict CSP and Trusted Types', async () => {
    const pageId = await h.open('live/strict.html');
    const page = corePage(h.rt, pageId);
    const { call, handoffId } = await startHandoff(pageId);
    const rect = await until(() => continueRect(page), 5000, 'the banner');
    expect(rect.width).toBeGreaterThan(20);
    await h.ok('browser_confirm_handoff', { handoff_id: handoffId });
    expect((await call).data.via).toBe('confirm_call');
  });

  it('confirms by session_id, and refuses what is not pending', async () => {
    const pageId = await h.open('live/form.html');
    const sessionId = corePage(h.rt, pageId).session.id;
    expect((await h.err('browser_confirm_handoff', { session_id: sessionId })).code).toBe('invalid_request');
    expect((await h.err('browser_confirm_handoff', { handoff_id: 'h-nope-1' })).code).toBe('invalid_request');
    expect((await h.err('browser_confirm_handoff', {})).code).toBe('invalid_request');
    const { call } = await startHandoff(pageId);
    // a second handoff on the same page is refused while one is pending
    expect((await h.err('browser_handoff', { page_id: pageId, instructions: 'again' })).code).toBe(
      'handoff_pending',
    );
    await h.ok('browser_confirm_handoff', { session_id: sessionId });
    expect((await call).data.via).toBe('confirm_call');
  });

  it('does not hold the page lock while it waits: reads go on, every acting capability answers handoff_pending', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const refs = await h.refs(pageId);
    const ref = refs.find((r) => r.role === 'textbox').ref;
    const { call, handoffId } = await startHandoff(pageId);
    // reads still work
    await h.ok('browser_list_elements', { page_id: pageId });
    await h.ok('browser_read_console', { page_id: pageId });
    // every capability gated on a handoff (declared: src/capabilities/define.ts Gates) answers
    // handoff_pending; tests/core/gates.test.ts checks which capabilities declare it
    const where = { page_id: pageId, session_id: page.session.id, ref };
    const answers = await callGated(h, where, 'handoff');
    expect(Object.keys(answers).length).toBeGreaterThan(20);
    const wrong = Object.entries(answers).filter(([, code]) => code !== 'handoff_pending');
    expect(wrong).toEqual([]);
    await h.ok('browser_confirm_handoff', { handoff_id: handoffId });
    expect((await call).ok).toBe(true);
  });

  it('refuses a handoff on a read-only session', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const page = await h.ok('browser_open_page', {
      session_id: s.session_id,
      url: h.server.url('live/form.html'),
    });
    expect((await h.err('browser_handoff', { page_id: page.page_id, instructions: 'x' })).code).toBe(
      'read_only',
    );
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('ends when the page closes under it', async () => {
    const pageId = await h.open('live/form.html');
    const { call } = await startHandoff(pageId);
    await h.ok('browser_close_page', { page_id: pageId });
    const out = await call;
    expect(out.ok).toBe(false);
    expect(out.data.error_code).toBe('page_closed');
  });
});
