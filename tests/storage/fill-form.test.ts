/** browser_fill_form: a scripted agent fills a whole form in one call and the server gets every value. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
const posted: URLSearchParams[] = [];
beforeAll(async () => {
  h = await harness();
  h.server.route('/storage-order', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posted.push(new URLSearchParams(Buffer.concat(chunks).toString()));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Thanks</title><h1>Order received</h1>');
    });
  });
});
afterAll(() => h.close());

/** The ref on the outline line that carries this label, as an agent reads it off the listing. */
function refFor(outline: string, role: string, label: string): string {
  const line = outline
    .split('\n')
    .find((l) => l.includes(`[${role} `) && l.includes(label) && /ref=e\d+/.test(l));
  if (!line) throw new Error(`no ${role} "${label}" in:\n${outline}`);
  return /ref=(e\d+)/.exec(line)![1]!;
}

async function openForm() {
  const page = await h.open('storage/form.html');
  // the form posts to the test's route, so the server sees every value
  await h.rt.core
    .findPage(page)!
    .raw.evaluate(() => document.getElementById('order')!.setAttribute('action', '/storage-order'));
  const listing = await h.ok('browser_list_elements', { page_id: page, format: 'lines', max_chars: 200_000 });
  return { page, outline: listing.__content as string };
}

describe('browser_fill_form', () => {
  it('fills text, textarea, password, select, multi-select, checkboxes and a radio in one effect; the server gets every value', async () => {
    const { page, outline } = await openForm();
    const ref = (role: string, label: string) => refFor(outline, role, label);
    const r = await h.ok('browser_fill_form', {
      page_id: page,
      fields: [
        { ref: ref('textbox', 'Full name'), value: 'Ada Lovelace' },
        { ref: ref('textbox', 'Email'), value: 'ada@example.org' },
        { ref: ref('textbox', 'Password'), value: 'hunter2' },
        // as the CLI writes refs
        { ref: `@${ref('textbox', 'Comments')}`, value: 'Ring twice' },
        { ref: ref('combobox', 'Plan'), value: 'Pro plan' },
        { ref: ref('listbox', 'Toppings'), value: ['olives', 'Basil'] },
        { ref: ref('checkbox', 'I accept the terms'), value: true },
        { ref: ref('checkbox', 'Send me news'), value: false },
        { ref: ref('radio', 'Express'), value: true },
      ],
    });
    // one effect for the whole form, shaped like every action's
    expect(r.action.action).toBe('fill_form');
    expect(r.action.outcome).toBe('completed');
    expect(r.action.changes.changed.length + r.action.changes.added.length).toBeGreaterThan(0);
    expect(r.__content).toMatch(/^fill_form \(9 fields\) → completed/);
    expect(r.__content).toMatch(/Filled 9 field\(s\): Full name: "Ada Lovelace"; .*Password: \(hidden\)/);
    expect(r.__content).toMatch(/I accept the terms: checked; Send me news: unchecked; Express: checked/);
    // a password is never echoed
    expect(JSON.stringify(r)).not.toContain('hunter2');
    // the page reacted once the inputs went in
    expect(r.__content).toMatch(/Ada Lovelace \/ pro/);

    const refs = await h.refs(page);
    const submit = refs.find((x: any) => x.role === 'button' && x.accessible_name === 'Place order').ref;
    const sent = await h.ok('browser_click', { page_id: page, ref: submit });
    expect(sent.action.navigation).not.toBeNull();
    const got = posted.at(-1)!;
    expect(got.get('name')).toBe('Ada Lovelace');
    expect(got.get('email')).toBe('ada@example.org');
    expect(got.get('password')).toBe('hunter2');
    expect(got.get('comments')).toBe('Ring twice');
    expect(got.get('plan')).toBe('pro');
    expect(got.getAll('toppings')).toEqual(['olives', 'basil']);
    expect(got.get('terms')).toBe('yes');
    expect(got.get('news')).toBeNull();
    expect(got.get('delivery')).toBe('express');
  });

  it('names the field of a bad ref, and refuses a value of the wrong kind before touching anything', async () => {
    const { page, outline } = await openForm();
    const name = refFor(outline, 'textbox', 'Full name');
    const terms = refFor(outline, 'checkbox', 'I accept the terms');
    const plan = refFor(outline, 'combobox', 'Plan');

    const unknown = await h.err('browser_fill_form', {
      page_id: page,
      fields: [
        { ref: name, value: 'x' },
        { ref: 'e9999', value: 'y' },
      ],
    });
    expect(unknown.code).toBe('ref_not_found');
    expect(unknown.content).toMatch(/fields\[1\] \(e9999\)/);
    expect(unknown.data.field).toBe(1);

    const kind = await h.err('browser_fill_form', {
      page_id: page,
      fields: [
        { ref: name, value: 'Grace' },
        { ref: terms, value: 'yes' },
      ],
    });
    expect(kind.code).toBe('invalid_request');
    expect(kind.content).toMatch(/fields\[1\] .*I accept the terms takes true or false, not a text/);
    expect(kind.data.hint).toMatch(/true or false/);
    const textForBool = await h.err('browser_fill_form', {
      page_id: page,
      fields: [{ ref: name, value: true }],
    });
    expect(textForBool.code).toBe('invalid_request');
    expect(textForBool.data.hint).toMatch(/a string/);
    const badOption = await h.err('browser_fill_form', {
      page_id: page,
      fields: [{ ref: plan, value: 'Gold' }],
    });
    expect(badOption.code).toBe('invalid_request');
    expect(badOption.content).toMatch(/fields\[0\] \(e\d+\): Cannot select/);
    const button = refFor(outline, 'button', 'Place order');
    const notField = await h.err('browser_fill_form', {
      page_id: page,
      fields: [{ ref: button, value: 'x' }],
    });
    expect(notField.code).toBe('invalid_request');
    expect(notField.content).toMatch(/is not a form field/);
    // nothing was filled by the refused calls
    const value = await h.rt.core
      .findPage(page)!
      .raw.evaluate(() => (document.querySelector('[name=name]') as HTMLInputElement).value);
    expect(value).toBe('');

    // a ref from a document the page has left
    await h.ok('browser_navigate', { page_id: page, url: h.server.url('storage/form.html') });
    const stale = await h.err('browser_fill_form', { page_id: page, fields: [{ ref: name, value: 'x' }] });
    expect(stale.code).toBe('stale_ref');
    expect(stale.content).toMatch(/fields\[0\]/);
  });
});
