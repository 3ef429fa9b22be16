/**
 * docs/code-mode.md lists the fields of a page record and of an action's opened_pages entries; every
 * answer that carries one has them all (issue 34: activate, close, a dialog's answer and attach
 * lacked `title`). The field lists are read from the doc itself, so the doc and the answers agree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDebugChromium, type DebugChromium } from '../chromium-process.js';
import { ROOT } from '../doors/helpers.js';
import { harness, refOf, type Harness } from '../helpers.js';

const doc = readFileSync(join(ROOT, 'docs/code-mode.md'), 'utf8').replace(/\s+/g, ' ');
const fields = (re: RegExp) =>
  re
    .exec(doc)![1]!
    .split(',')
    .map((f) => f.trim());
/** `pages {page_id, …}` under Records. */
const PAGE_FIELDS = fields(/pages `\{([^}]*)\}`/);
/** `opened_pages [{page_id, …}]` in the action record. */
const OPENED_FIELDS = fields(/opened_pages \[\{([^}]*)\}\]/);

let h: Harness;
let person: DebugChromium;
beforeAll(async () => {
  h = await harness({ allow_attach: true, max_sessions: 8 });
  person = await startDebugChromium(['about:blank']);
});
afterAll(async () => {
  await h?.close();
  await person?.stop();
});

function hasPageRecord(where: string, record: Record<string, unknown> | undefined, title?: string) {
  expect(record, where).toBeTruthy();
  const missing = PAGE_FIELDS.filter((f) => !(f in record!));
  expect(missing, `${where} lacks ${missing.join(', ')}`).toEqual([]);
  expect(typeof record!.title, where).toBe('string');
  if (title !== undefined) expect(record!.title, where).toBe(title);
}

describe('page records', () => {
  it('the doc lists the fields', () => {
    expect(PAGE_FIELDS).toContain('title');
    expect(PAGE_FIELDS).toContain('page_id');
    expect(PAGE_FIELDS.length).toBeGreaterThan(10);
    expect(OPENED_FIELDS).toEqual(['page_id', 'url', 'title', 'opener_page_id']);
  });

  it('open, list, navigate, activate, an opened page, a dialog answered, close: each has every field', async () => {
    const s = await h.ok('browser_start_session', { dialog_policy: 'report' });
    const session_id = s.session_id as string;
    const opened = await h.ok('browser_open_page', { session_id, url: h.server.url('core/popup.html') });
    hasPageRecord('open_page', opened.page, 'Popup fixture');
    const pageId = opened.page_id as string;

    // a link that opens a tab: the action's opened_pages entry
    const click = await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(await h.refs(pageId), 'link', 'Open form in a new tab'),
    });
    expect(click.action.opened_pages.length).toBe(1);
    const tab = click.action.opened_pages[0] as Record<string, unknown>;
    expect(Object.keys(tab).sort()).toEqual([...OPENED_FIELDS].sort());
    expect(typeof tab.title).toBe('string');
    expect(tab.opener_page_id).toBe(pageId);

    const listed = await h.ok('browser_list_pages', { session_id });
    expect(listed.pages.length).toBe(2);
    for (const p of listed.pages) hasPageRecord(`list_pages ${p.page_id}`, p);
    expect(listed.pages.find((p: any) => p.page_id === tab.page_id).title).toBe('Form fixture');

    const nav = await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url('observe/dialogs.html'),
    });
    hasPageRecord('navigate', nav.page, 'Dialogs');

    const activated = await h.ok('browser_activate_page', { page_id: pageId });
    hasPageRecord('activate_page', activated.page, 'Dialogs');

    const alert = await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(await h.refs(pageId), 'button', 'Alert'),
    });
    expect(alert.action.dialogs[0].handled).toBe('pending');
    const answered = await h.ok('browser_handle_dialog', { page_id: pageId, accept: true });
    hasPageRecord('handle_dialog', answered.page, 'Dialogs');

    const closed = await h.ok('browser_close_page', { page_id: tab.page_id });
    hasPageRecord('close_page', closed.page);
    await h.ok('browser_stop_session', { session_id });
  });

  it('attach: the page record of the tab brow opens in a running browser', async () => {
    const a = await h.ok('browser_attach_session', {
      cdp_url: person.cdpUrl,
      url: h.server.url('core/form.html'),
    });
    hasPageRecord('attach_session', a.page, 'Form fixture');
    await h.ok('browser_stop_session', { session_id: a.session_id });
  });
});
