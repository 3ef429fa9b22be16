/**
 * Replay of a flow across a new tab with a whole form (fill_form with a secret, select, checkbox,
 * radio); an export written into the workspace; the log keeps its last 1000 calls.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionLog } from '../../src/core/replay/log.js';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

describe('replay across tabs and forms', () => {
  it('a popup becomes the page its step opens; a form with a secret replays', async () => {
    const start = await h.ok('browser_start_session', {});
    const opener = (
      await h.ok('browser_open_page', { url: h.server.url('core/popup.html'), session_id: start.session_id })
    ).page_id;
    const click = await h.ok('browser_click', {
      page_id: opener,
      ref: refOf(await h.refs(opener), 'link', 'Open form in a new tab'),
    });
    const form = click.action.opened_pages[0].page_id as string;
    const refs = await h.refs(form);
    await h.ok('browser_fill_form', {
      page_id: form,
      fields: [
        { ref: refOf(refs, 'textbox', 'Full name'), value: 'Ada' },
        { ref: refOf(refs, 'textbox', 'Password'), value: 'sesame' },
        { ref: refOf(refs, 'combobox', 'Plan'), value: 'Pro plan' },
        { ref: refOf(refs, 'checkbox', 'I accept the terms'), value: true },
      ],
    });
    await h.ok('browser_check', { page_id: form, ref: refOf(refs, 'radio', 'Blue') });
    await h.ok('browser_click', { page_id: form, ref: refOf(refs, 'button', 'Save') });

    const out = await h.ok('browser_export_script', {
      session_id: start.session_id,
      path: `tests/replay/.out-${process.pid}/flow.json`,
    });
    try {
      expect(out.script).not.toContain('sesame');
      expect(existsSync(out.path)).toBe(true);
      expect(statSync(out.path).mode & 0o777).toBe(0o600);
      const steps = JSON.parse(readFileSync(out.path, 'utf8')).steps as any[];
      expect(steps[1]).toMatchObject({ tool: 'browser_click', page: 'p1', opens: 'p2' });
      expect(steps[2].tool).toBe('browser_fill_form');
      expect(steps[2].page).toBe('p2');
      expect(steps[2].input.fields).toEqual([
        { target: { role: 'textbox', name: 'Full name' }, value: 'Ada' },
        { target: { role: 'textbox', name: 'Password' }, value: '${BROW_SECRET_1}' },
        { target: expect.objectContaining({ role: 'combobox', name: 'Plan' }), value: 'Pro plan' },
        { target: { role: 'checkbox', name: 'I accept the terms' }, value: true },
      ]);
      expect(steps.at(-1).input).toEqual({
        condition: 'text',
        value: expect.stringContaining('saved name=Ada plan=pro terms=true colour=blue'),
      });

      // the wait on the saved line checks the secret too (pwlen=6)
      const run = await h.ok('browser_replay_script', {
        path: out.path,
        secrets: { BROW_SECRET_1: 'sesame' },
        keep_session: true,
      });
      expect(run.steps.every((s: any) => s.ok)).toBe(true);
      const pages = (await h.ok('browser_list_pages', { session_id: run.session_id })).pages;
      expect(pages).toHaveLength(2);
      await h.ok('browser_stop_session', { session_id: run.session_id });
    } finally {
      rmSync(join(process.cwd(), `tests/replay/.out-${process.pid}`), { recursive: true, force: true });
    }
  });

  it('text for a ref that cannot be read is not logged (it may be a secret field)', async () => {
    const page = await h.open('core/form.html');
    await h.err('browser_fill', { page_id: page, ref: 'e99999', value: 'topsecret' });
    const log = (h.rt as any).core.findPage(page).session.state.get(actionLog);
    const last = log.entries.at(-1);
    expect(last).toMatchObject({ tool: 'browser_fill', ok: false, error: { code: 'ref_not_found' } });
    expect(JSON.stringify(log.entries)).not.toContain('topsecret');
    expect(last.input.value).toMatch(/^\$\{BROW_SECRET_\d+\}$/);
  });

  it('the log keeps the last 1000 calls', async () => {
    const page = await h.open('core/form.html');
    const session = (await h.ok('browser_list_pages', {})).pages.find(
      (p: any) => p.page_id === page,
    ).session_id;
    for (let i = 0; i < 1005; i++) {
      await h.ok('browser_wait', { page_id: page, condition: 'time', duration_ms: 0 });
    }
    const out = await h.ok('browser_export_script', { session_id: session });
    // the open_page fell off the front: 1000 waits remain
    expect(out.steps).toBe(1000);
    expect(JSON.parse(out.script).steps.every((s: any) => s.tool === 'browser_wait')).toBe(true);
  });
});
