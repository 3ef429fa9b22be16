/**
 * The gates (src/capabilities/define.ts): which calls a read-only session, a person's handoff and
 * an open dialog refuse, declared once per capability and checked in one place (onPage). Checked
 * here by declaration, then by calling every capability on a real page in each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { callGated, gatesFor, harness, refOf, sampleInputs, type Harness } from '../helpers.js';

/** Capabilities that act on a page but go on while a person holds it, and why. */
const GO_ON_IN_A_HANDOFF: Record<string, string> = {
  browser_handoff: 'refuses a second handoff itself (one check-and-set under the page lock)',
  browser_start_recording: 'watching is not acting',
  browser_stop_recording: 'watching is not acting',
  browser_handle_dialog: 'a person needs dialogs answered too',
  browser_activate_page: 'brings the tab forward only',
  browser_close_page: 'closing the page ends the handoff',
  browser_cookies: 'session-wide setting, not an act on the page',
  browser_route: 'session-wide setting',
  browser_unroute: 'session-wide setting',
  browser_set_network: 'session-wide setting',
  browser_emulate: 'session-wide setting',
};

const where0 = { page_id: 'p-x', session_id: 's-x', ref: 'e1' };

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 8 });
});
afterAll(() => h?.close());

describe('gates', () => {
  it('every capability that acts on a page is gated on a handoff, or is named with the reason it goes on', () => {
    const ungated = capabilities
      .filter((c) => !c.annotations.readOnly && 'page_id' in c.input.shape)
      .filter((c) => !sampleInputs(c, where0).some((i) => gatesFor(c, i).handoff))
      .map((c) => c.name)
      .sort();
    expect(ungated).toEqual(Object.keys(GO_ON_IN_A_HANDOFF).sort());
  });

  it('a gate is declared only where it can apply, and never on a read-only capability except the dialog gate', () => {
    for (const c of capabilities) {
      for (const input of sampleInputs(c, where0)) {
        const g = gatesFor(c, input);
        if (g.handoff || g.dialog) expect('page_id' in c.input.shape, c.name).toBe(true);
        if (g.write) expect('page_id' in c.input.shape || 'session_id' in c.input.shape, c.name).toBe(true);
        if (c.annotations.readOnly)
          expect({ name: c.name, write: g.write, handoff: g.handoff }).toEqual({
            name: c.name,
            write: undefined,
            handoff: undefined,
          });
      }
    }
  });

  it('a read-only session refuses every write-gated call with read_only; reads go on', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const pageId = await h.open('live/form.html', { session_id: s.session_id });
    const ref = (await h.refs(pageId)).find((r) => r.role === 'textbox').ref;
    const where = { page_id: pageId, session_id: s.session_id as string, ref };
    const answers = await callGated(h, where, 'write');
    expect(Object.keys(answers).length).toBeGreaterThan(15);
    expect(Object.entries(answers).filter(([, code]) => code !== 'read_only')).toEqual([]);
    // nothing was typed, and reads still work
    const value = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: 'document.querySelector("input").value',
    });
    expect(value.value).toBe('');
    await h.ok('browser_cookies', { session_id: s.session_id, action: 'get' });
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('an open dialog refuses every dialog-gated call with dialog_blocking; answered, the page works again', async () => {
    const s = await h.ok('browser_start_session', { dialog_policy: 'report' });
    const pageId = await h.open('observe/dialogs.html', { session_id: s.session_id });
    const refs = await h.refs(pageId);
    const alert = refOf(refs, 'button', 'Alert');
    const clicked = await h.ok('browser_click', { page_id: pageId, ref: alert });
    expect(clicked.action.dialogs[0].handled).toBe('pending');
    const where = { page_id: pageId, session_id: s.session_id as string, ref: alert };
    // the visual tools check for a configured vision model before they hold the page; none is here
    const answers = await callGated(h, where, 'dialog', (name) => name.includes('visual'));
    expect(Object.keys(answers).length).toBeGreaterThan(20);
    expect(Object.entries(answers).filter(([, code]) => code !== 'dialog_blocking')).toEqual([]);
    await h.ok('browser_handle_dialog', { page_id: pageId, accept: true });
    const after = await h.ok('browser_list_elements', { page_id: pageId });
    expect(after.__content).toContain('Alert');
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it("a replayed step passes its own tool's gates: a read-only session refuses a replayed fill", async () => {
    const s = await h.ok('browser_start_session', {});
    const pageId = await h.open('live/form.html', { session_id: s.session_id });
    const ref = (await h.refs(pageId)).find((r) => r.role === 'textbox').ref;
    await h.ok('browser_fill', { page_id: pageId, ref, value: 'typed' });
    const script = (await h.ok('browser_export_script', { session_id: s.session_id })).script;
    const ro = await h.ok('browser_start_session', { read_only: true });
    const e = await h.err('browser_replay_script', { script, session_id: ro.session_id });
    expect(e.code).toBe('read_only');
    expect(e.content).toContain('browser_fill');
    // the page the replay opened was not typed into
    const page = (await h.ok('browser_list_pages', { session_id: ro.session_id })).pages[0];
    const value = await h.ok('browser_evaluate', {
      page_id: page.page_id,
      expression: 'document.querySelector("input").value',
    });
    expect(value.value).toBe('');
    await h.ok('browser_stop_session', { session_id: s.session_id });
    await h.ok('browser_stop_session', { session_id: ro.session_id });
  });
});
