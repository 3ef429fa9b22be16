/**
 * Stealth for every door (seed 000's patches, as a session option): a session started with
 * `stealth: true` passes the headless checks of our fixture in every page it opens, a plain one
 * does not, and the config default reaches sessions started implicitly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ stealth: false });
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
    expect(caught.webdriver!.pass).toBe(false);
    expect(caught.userAgent!.pass).toBe(false); // HeadlessChrome in the user agent
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
