/**
 * browser_pick: the agent asks a person to point at an element. The page shows the request (a
 * prompt in brow's overlay, out of the page's reach) and a person's click there picks; the
 * console's pick works while the prompt covers the page; a pick nobody asked for waits for
 * browser_read_picks; no pick before the timeout, or a closed page, fails the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSurface } from '../../src/capabilities/live-surface.js';
import { dispatchInput } from '../../src/core/live/input.js';
import { liveOf } from '../../src/core/live/page-live.js';
import { PICK_PROMPT_EXPRESSION } from '../../src/core/live/overlay-script.js';
import type { BrowPage } from '../../src/core/session/page.js';
import { harness, type Harness } from '../helpers.js';
import { corePage, nextEvent, until } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

const prompt = (page: BrowPage) => liveOf(page).evaluate<string | null>(PICK_PROMPT_EXPRESSION);

async function centreOf(page: BrowPage, id: string): Promise<[number, number]> {
  const r = await page.raw.$eval(`#${id}`, (el) => el.getBoundingClientRect().toJSON());
  return [r.x + r.width / 2, r.y + r.height / 2];
}

/** A person's click in the page (trusted input, as the console or a real window sends it). */
async function personClick(page: BrowPage, x: number, y: number): Promise<void> {
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
}

/** Start browser_pick; resolves once it is pending. */
async function startPick(pageId: string, extra: Record<string, unknown> = {}) {
  const requested = nextEvent(h.rt, 'pick-requested', (e) => e.page_id === pageId);
  const call = h.call('browser_pick', { page_id: pageId, instructions: 'Point at Go', ...extra });
  return { call, event: await requested };
}

describe('browser_pick', () => {
  it('shows the request in the page; a click there picks the element, which the page never sees', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const { call, event } = await startPick(pageId);
    expect(event.instructions).toBe('Point at Go');
    expect(await until(() => prompt(page), 5000, 'the prompt')).toMatch(/^Point at Go/);
    const overview = await liveSurface(h.rt.core).overview();
    expect(overview.picks).toMatchObject([
      { page_id: pageId, pick_id: event.pick_id, instructions: 'Point at Go' },
    ]);

    await personClick(page, ...(await centreOf(page, 'go')));
    const out = await call;
    expect(out.ok, out.content).toBe(true);
    expect(out.data).toMatchObject({ pick_id: event.pick_id, element: { tag: 'button', name: 'Go' } });
    expect(out.content).toMatch(/^The person picked e\d+ <button> "Go"/);
    // the click was the pick's: the button's handler did not run
    expect(await page.raw.$eval('#out', (x) => x.textContent)).toBe('nothing yet');
    await until(async () => (await prompt(page)) === null, 5000, 'the prompt to go');
    expect((await liveSurface(h.rt.core).overview()).picks).toEqual([]);
    // a pick that answered a request is the agent's already: not kept for browser_read_picks
    expect((await h.ok('browser_read_picks', { page_id: pageId })).picks).toEqual([]);
    const acted = await h.ok('browser_click', {
      page_id: pageId,
      ref: (out.data.element as { ref: string }).ref,
    });
    expect(acted.action.ok).toBe(true);
  });

  it('the console’s pick answers it while the prompt covers the page', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const { call } = await startPick(pageId);
    await until(() => prompt(page), 5000, 'the prompt');
    const el = await liveSurface(h.rt.core).pick(pageId, ...(await centreOf(page, 'name')));
    expect(el).toMatchObject({ tag: 'input', delivered: true });
    const out = await call;
    expect((out.data.element as { ref: string }).ref).toBe(el.ref);
  });

  it('keeps unprompted picks for browser_read_picks', async () => {
    const pageId = await h.open('live/form.html');
    const page = corePage(h.rt, pageId);
    const el = await liveSurface(h.rt.core).pick(pageId, ...(await centreOf(page, 'go')));
    expect(el.delivered).toBe(false);
    const read = await h.ok('browser_read_picks', { page_id: pageId, clear: false });
    expect(read.picks).toMatchObject([{ page_id: pageId, delivered: false, element: { ref: el.ref } }]);
    expect(read.__content).toMatch(/1 pick\(s\):\n- e\d+ <button> "Go"/);
    await h.ok('browser_read_picks', { page_id: pageId });
    expect((await h.ok('browser_read_picks', { page_id: pageId })).picks).toEqual([]);
  });

  it('fails with timeout when nobody picks, and page_closed when the page closes', async () => {
    const pageId = await h.open('live/form.html');
    const t = await h.call('browser_pick', { page_id: pageId, timeout_ms: 1000 });
    expect(t.ok).toBe(false);
    expect(t.data.error_code).toBe('timeout');
    expect(await prompt(corePage(h.rt, pageId))).toBeNull();

    const { call } = await startPick(pageId);
    await h.ok('browser_close_page', { page_id: pageId });
    const closed = await call;
    expect(closed.data.error_code).toBe('page_closed');
  });
});
