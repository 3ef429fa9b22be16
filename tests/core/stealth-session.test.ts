/**
 * Stealth for every door (seed 000's patches, as a session option): a session started with
 * `stealth: true` passes the headless checks of our fixture in every page it opens, a plain one
 * does not, and the config default reaches sessions started implicitly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ stealth: false, max_sessions: 16 });
});
afterAll(async () => {
  await h?.close();
});

async function checks(sessionId: string): Promise<Record<string, { pass: boolean; detail: string }>> {
  const pageId = await h.open('tool/headless-checks.html', { session_id: sessionId });
  const o = await h.ok('browser_evaluate', { page_id: pageId, expression: 'window.headlessChecks' });
  return o.value;
}

describe('stealth as a session option', () => {
  it('a stealth session passes every headless check in each page; a plain one is caught', async () => {
    const stealthy = await h.ok('browser_start_session', { stealth: true });
    expect(stealthy.stealth).toBe(true);
    for (let i = 0; i < 2; i++) {
      const failed = Object.entries(await checks(stealthy.session_id)).filter(([, c]) => !c.pass);
      expect(failed).toEqual([]);
    }
    const plain = await h.ok('browser_start_session', {});
    expect(plain.stealth).toBe(false);
    const caught = await checks(plain.session_id);
    // every browser is launched without the AutomationControlled blink feature (seed 000)
    expect(caught.webdriver!.pass).toBe(true);
    expect(caught.userAgent!.pass).toBe(false); // HeadlessChrome in the user agent
  });

  it('stealth claims Windows as seed 000 does, in pages, requests and workers alike', async () => {
    const s = await h.ok('browser_start_session', { stealth: true });
    h.server.route('/ua-echo', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(String(req.headers['user-agent']));
    });
    const pageId = (
      await h.ok('browser_open_page', { session_id: s.session_id, url: h.server.url('ua-echo') })
    ).page_id;
    const seen = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `({ header: document.body.innerText, ua: navigator.userAgent, platform: navigator.platform,
        hint: navigator.userAgentData.platform })`,
    });
    expect(seen.value.ua).toMatch(/\(Windows NT 10\.0; Win64; x64\)/);
    expect(seen.value.header).toBe(seen.value.ua);
    expect(seen.value).toMatchObject({ platform: 'Win32', hint: 'Windows' });
  });

  it('canvas reads carry noise of their own per session, the same within one', async () => {
    const hash = async (sessionId: string) => {
      const pageId = await h.open('tool/headless-checks.html', { session_id: sessionId });
      const o = await h.ok('browser_evaluate', {
        page_id: pageId,
        expression: `(() => {
          const c = document.createElement('canvas');
          c.width = 200; c.height = 60;
          const x = c.getContext('2d');
          x.fillStyle = '#f60'; x.fillRect(0, 0, 200, 60);
          x.fillStyle = '#069'; x.font = '18px Arial'; x.fillText('brow fingerprint', 4, 30);
          return c.toDataURL();
        })()`,
      });
      return o.value as string;
    };
    const a = await h.ok('browser_start_session', { stealth: true });
    const b = await h.ok('browser_start_session', { stealth: true });
    const a1 = await hash(a.session_id);
    expect(a1).toMatch(/^data:image\/png;base64,/);
    expect(await hash(a.session_id)).toBe(a1);
    expect(await hash(b.session_id)).not.toBe(a1);
  });

  it('the config default reaches a session open_page starts by itself', async () => {
    const other = await harness({ stealth: true });
    try {
      const pageId = await other.open('tool/headless-checks.html');
      const o = await other.ok('browser_evaluate', { page_id: pageId, expression: 'window.headlessChecks' });
      const failed = Object.entries(o.value as Record<string, { pass: boolean }>).filter(([, c]) => !c.pass);
      expect(failed).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
