/**
 * CONTRIBUTING's extension points of a session, held to what it says: a page setup runs before a
 * page is reachable by any call, a stop hook runs before the pages close and cannot hold a stop past
 * its 5 s bound, and one hook's failure does not stop the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const sessionOf = (id: string) => h.rt.core.sessions.get(id)!;

describe('session extension points', () => {
  it("a page setup runs for every page before it is listed, opened or adopted by the page's own script", async () => {
    const { session_id } = await h.ok('browser_start_session', {});
    const session = sessionOf(session_id);
    const listedDuringSetup: boolean[] = [];
    session.pageSetups.add(async (page) => {
      listedDuringSetup.push(session.pages.has(page.id));
      await page.raw.evaluateOnNewDocument(() => {
        (window as unknown as { setUp: boolean }).setUp = true;
      });
    });
    const opened = await h.open('core/form.html', { session_id });
    // the setup's script reaches the first document only if the setup ran before the navigation
    const first = await h.ok('browser_evaluate', { page_id: opened, expression: 'window.setUp === true' });
    expect(first.value).toBe(true);
    // a popup the page opens gets the setup too, before it is listed
    await h.ok('browser_evaluate', { page_id: opened, expression: "window.open('about:blank'); 1" });
    let pages: unknown[] = [];
    const both = await eventually(async () => {
      pages = (await h.ok('browser_list_pages', { session_id })).pages;
      return pages.length === 2;
    }, 10_000);
    expect(both).toBe(true);
    expect(listedDuringSetup).toEqual([false, false]);
    await h.ok('browser_stop_session', { session_id });
  });

  it('a stop hook runs before the pages close; a hung one is cut at its bound and a failing one does not stop the rest', async () => {
    const { session_id } = await h.ok('browser_start_session', {});
    const session = sessionOf(session_id);
    const pageId = await h.open('core/form.html', { session_id });
    const page = h.rt.core.findPage(pageId)!;
    const seen: string[] = [];
    session.stopHooks.add(async (reason) => {
      // still open: a hook can save what the pages hold
      seen.push(`first ${reason} ${await page.raw.title()}`);
    });
    session.stopHooks.add(() => new Promise<void>(() => undefined)); // never settles
    session.stopHooks.add(async () => {
      throw new Error('a hook that fails');
    });
    session.stopHooks.add(async () => void seen.push('last'));
    const stopped = await h.ok('browser_stop_session', { session_id });
    expect(stopped.was_running).toBe(true);
    expect(seen).toEqual(['first stopped Form fixture', 'last']);
    expect(session.closed).toBe(true);
    expect(h.rt.core.sessions.has(session_id)).toBe(false);
  });
});
