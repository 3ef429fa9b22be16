/**
 * The console's manners (issue 16): it opens on the page the agent used last (or the one a link
 * names), a still page reads "idle", event rows say what happened on which ref and page and how it
 * ended, and a resolved handoff takes its toast with it.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/doors/http/server.js';
import { harness, refOf, type Harness } from '../helpers.js';
import { personBrowser, serveConsole } from './console-helpers.js';
import { nextEvent, until } from './helpers.js';

let h: Harness;
let server: RunningServer;
let person: Browser;
let first: string;
let last: string;

const selected = (ui: Page) =>
  ui.$eval('.page[aria-current="true"]', (b) => (b as HTMLElement).dataset.pageId ?? null).catch(() => null);
const eventRows = (ui: Page) => ui.$$eval('#pane-events .msg', (xs) => xs.map((x) => x.textContent ?? ''));

beforeAll(async () => {
  h = await harness();
  server = await serveConsole(h.rt);
  person = await personBrowser();
  first = await h.open('live/form.html');
  last = await h.open('live/form.html');
  // the agent used the second page last (the console used to open on the first)
  await h.ok('browser_list_elements', { page_id: first });
  await h.ok('browser_list_elements', { page_id: last });
});
afterAll(async () => {
  await person?.close();
  await server?.close();
  await h?.close();
});

describe('console polish', () => {
  it('opens on the page the agent used last, or the one the link names', async () => {
    const ui = await person.newPage();
    await ui.goto(`${server.url}/`);
    expect(await until(() => selected(ui), 10_000, 'a selection')).toBe(last);
    await ui.goto(`${server.url}/?page=${first}`);
    await until(async () => (await selected(ui)) === first, 10_000, 'the linked page');
    await ui.close();
  });

  it('says idle on a still page, event rows name the action, ref and page, a resolved handoff clears its toast', async () => {
    const ui = await person.newPage();
    await ui.goto(`${server.url}/?page=${last}`);
    await until(async () => (await selected(ui)) === last, 10_000, 'the page');
    await until(
      () => ui.$eval('#viewport', (el) => Number((el as HTMLElement).dataset.seq ?? 0) > 0),
      15_000,
      'a first frame',
    );
    // a still page sends no frames: "idle", never "0.0 fps"
    const stats = await until(
      async () => {
        const t = await ui.$eval('#stats', (x) => x.textContent ?? '');
        return t.startsWith('idle') ? t : null;
      },
      15_000,
      'idle',
    );
    expect(stats).not.toMatch(/0\.0 fps/);

    const go = refOf(await h.refs(last), 'button', 'Go');
    await h.ok('browser_click', { page_id: last, ref: go });
    await until(
      async () => (await eventRows(ui)).some((r) => r.startsWith(`agent click ${go} on ${last}`)),
      10_000,
      'the action row',
    );
    // and the row of its end says how it went
    await until(
      async () =>
        (await eventRows(ui)).some((r) =>
          new RegExp(`^agent click ${go} on ${last} → (completed|dispatched|no_change)`).test(r),
        ),
      10_000,
      'the action outcome row',
    );

    const requested = nextEvent(h.rt, 'handoff-requested', (e) => e.page_id === last);
    const call = h.call('browser_handoff', { page_id: last, instructions: 'Check, then Continue' });
    const handoffId = String((await requested).handoff_id);
    await until(
      async () =>
        /A person is needed: Check, then Continue/.test(await ui.$eval('#toast', (t) => t.textContent ?? '')),
      10_000,
      'the toast',
    );
    expect(await ui.$eval('#toast', (t) => (t as HTMLElement).hidden)).toBe(false);
    await h.ok('browser_confirm_handoff', { handoff_id: handoffId });
    expect((await call).ok).toBe(true);
    // the row and the toast's end come from one event: once the row shows, the toast is gone
    await until(
      async () =>
        (await eventRows(ui)).some((r) => r === `handoff ${handoffId} on ${last} → confirmed (confirm_call)`),
      10_000,
      'the resolved row',
    );
    expect(await ui.$eval('#toast', (t) => (t as HTMLElement).hidden)).toBe(true);
    expect(
      (await eventRows(ui)).some((r) =>
        r.startsWith(`handoff ${handoffId} on ${last}: Check, then Continue`),
      ),
    ).toBe(true);
    await ui.close();
  });
});
