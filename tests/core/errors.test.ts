import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserError, classifyError, ERROR_CODES } from '../../src/core/errors.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import { harness, refOf, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('errors', () => {
  it('every code has a door mapping and a default hint', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_TABLE[code]).toBeTruthy();
      expect(new BrowserError(code, 'x').hint.length).toBeGreaterThan(10);
    }
  });

  it('classifies driver errors in one place', () => {
    const t = new Error('Waiting failed: 100ms exceeded');
    t.name = 'TimeoutError';
    expect(classifyError(t).code).toBe('timeout');
    expect(classifyError(new Error('Protocol error (Runtime.callFunctionOn): Target closed')).code).toBe(
      'page_closed',
    );
    expect(
      classifyError(new Error('Execution context was destroyed, most likely because of a navigation.')).code,
    ).toBe('stale_ref');
    expect(classifyError(new Error('net::ERR_CONNECTION_REFUSED at http://x')).code).toBe(
      'navigation_failed',
    );
    expect(classifyError(new Error('Connection closed.')).code).toBe('browser_crashed');
    expect(classifyError(new Error('something odd')).code).toBe('unexpected_error');
    expect(classifyError('a string').code).toBe('unexpected_error');
  });

  it('timeout when Chromium does not answer a CDP command in time (a real protocol timeout)', async () => {
    // navigated outside any call, so no call's watch stops the spin once it starts
    const id = (await h.ok('browser_open_page', {})).page_id as string;
    const page = h.rt.core.findPage(id)!;
    await page.cdp.send('Page.navigate', { url: h.server.url('faults/spin-at-load.html') });
    // the page hangs its renderer at load: an evaluation with a short protocol timeout is not answered
    // (the spin starts at the load event, which a loaded machine may deliver late)
    let thrown: unknown;
    const end = Date.now() + scaled(10_000);
    while (!thrown && Date.now() < end) {
      await page.cdp
        .send('Runtime.evaluate', { expression: '0', returnByValue: true }, { timeout: 300 })
        .catch((e: unknown) => void (thrown = e));
    }
    expect((thrown as Error).message).toMatch(/Runtime\.evaluate timed out/);
    const err = classifyError(thrown);
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('The browser did not answer Runtime.evaluate in time.');
    await h.call('browser_close_page', { page_id: id });
  });

  it('action_failed when the page refuses what the action should achieve', async () => {
    const pageId = await h.open('core/stubborn.html');
    const refs = await h.refs(pageId);
    const e = await h.err('browser_check', {
      page_id: pageId,
      ref: refOf(refs, 'checkbox', 'Locked setting'),
      checked: true,
    });
    expect(e.code).toBe('action_failed');
    expect(e.content).toMatch(/did not become checked/);
  });

  it('backend_unavailable when the configured browser does not exist or does not start', async () => {
    const bad = await harness({ executable: '/nonexistent/chrome' });
    try {
      const e = await bad.err('browser_open_page', {});
      expect(e.code).toBe('backend_unavailable');
      expect(e.content).toMatch(/nonexistent/);
      const doc = await bad.ok('browser_doctor', {});
      expect(doc.issues.some((i: any) => /nonexistent/.test(i.what))).toBe(true);
    } finally {
      await bad.close();
    }
    // an executable that is no browser: it launches, exits, and the launch says so
    const notBrowser = await harness({ executable: '/bin/true' });
    try {
      const e = await notBrowser.err('browser_start_session', {});
      expect(e.code).toBe('backend_unavailable');
      expect(e.content).toMatch(/\/bin\/true failed to start/);
    } finally {
      await notBrowser.close();
    }
  });
});
