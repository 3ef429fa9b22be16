/**
 * Replay without a model (issue 18 item 7): a flow done by ref is logged, exported as a script that
 * names elements by role and name (frame and shadow path, ordinal), and replayed on a fresh session;
 * served with its button renamed, the replay stops at that step naming the locator.
 */
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES_DIR } from '../fixtures/server.js';
import { harness, refOf, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

const PASSWORD = 'hunter2-replay';
let h: Harness;
let renamed = false;
let session = '';

beforeAll(async () => {
  h = await harness();
  // the item page as the site serves it, or with its button renamed (the site changed)
  h.server.route('/replay/item.html', (_req, res) => {
    void readFile(join(PAGES_DIR, 'replay/item.html'), 'utf8').then((html) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renamed ? html.replace('>Place order<', '>Submit order<') : html);
    });
  });
});
afterAll(async () => {
  await h?.close();
});

/** The flow, by ref, as an agent does it. */
async function recordFlow(): Promise<string> {
  const pageId = await h.open('replay/login.html');
  session = (await h.ok('browser_list_pages', {})).pages.find((p: any) => p.page_id === pageId).session_id;
  let refs = await h.refs(pageId);
  await h.ok('browser_fill', {
    page_id: pageId,
    ref: refOf(refs, 'textbox', 'Email'),
    value: 'ann@example.com',
  });
  await h.ok('browser_fill', { page_id: pageId, ref: refOf(refs, 'textbox', 'Password'), value: PASSWORD });
  const signIn = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Sign in') });
  expect(signIn.action.navigation?.to).toContain('/replay/list.html');
  refs = await h.refs(pageId);
  // the second of two links named "Open": the script must say which
  const open = refs.filter((r) => r.role === 'link' && r.accessible_name === 'Open')[1].ref;
  await h.ok('browser_click', { page_id: pageId, ref: open });
  refs = await h.refs(pageId);
  await h.ok('browser_fill', {
    page_id: pageId,
    ref: refOf(refs, 'textbox', 'Note'),
    value: 'leave at the door',
  });
  const place = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Place order') });
  expect(JSON.stringify(place.action.changes)).toContain('Order 42 placed');
  // a failed call is logged but never exported
  await h.err('browser_click', { page_id: pageId, ref: 'e99999' });
  return pageId;
}

describe('replay', () => {
  let json = '';

  it('exports a flow done by ref as steps with locators and effect waits; no secret in it', async () => {
    await recordFlow();
    const out = await h.ok('browser_export_script', { session_id: session, format: 'json' });
    json = out.script;
    expect(out.__content).not.toContain(PASSWORD);
    expect(json).not.toContain(PASSWORD);
    expect(out.skipped).toBe(1);
    expect(out.secrets).toEqual([{ name: 'BROW_SECRET_1', target: 'textbox "Password"' }]);
    const script = JSON.parse(json);
    const steps = script.steps as any[];
    expect(steps.map((s) => s.tool)).toEqual([
      'browser_open_page',
      'browser_fill',
      'browser_fill',
      'browser_click',
      'browser_wait',
      'browser_click',
      'browser_wait',
      'browser_fill',
      'browser_click',
      'browser_wait',
    ]);
    expect(steps[0]).toMatchObject({ opens: 'p1', input: { url: h.server.url('replay/login.html') } });
    expect(steps[2]).toMatchObject({
      page: 'p1',
      target: { role: 'textbox', name: 'Password' },
      input: { value: '${BROW_SECRET_1}' },
    });
    expect(steps[3].target).toEqual({ role: 'button', name: 'Sign in' });
    expect(steps[4].input).toEqual({ condition: 'url', value: '/replay/list.html' });
    expect(steps[5].target).toEqual({ role: 'link', name: 'Open', nth: 1 });
    expect(steps[6].input).toEqual({ condition: 'url', value: '/replay/item.html?id=42' });
    expect(steps[7].target).toMatchObject({ role: 'textbox', name: 'Note', frame: [{ name: 'notes' }] });
    expect(steps[8].target).toEqual({ role: 'button', name: 'Place order', shadow: ['order-actions'] });
    expect(steps[9].input).toEqual({ condition: 'text', value: 'Order 42 placed' });
    expect(JSON.stringify(steps)).not.toMatch(/"ref"/);
  });

  it('replays the json on a fresh session with no model', async () => {
    const out = await h.ok('browser_replay_script', { script: json, secrets: { BROW_SECRET_1: PASSWORD } });
    expect(out.session_id).not.toBe(session);
    expect(out.steps).toHaveLength(10);
    expect(out.steps.every((s: any) => s.ok)).toBe(true);
    expect(out.__content).toContain('all passed');
    expect(out.__content).not.toContain(PASSWORD);
    // the fresh session was stopped after (keep_session not asked)
    const live = (await h.ok('browser_list_sessions', {})).sessions.map((s: any) => s.session_id);
    expect(live).not.toContain(out.session_id);
  });

  it('a wrong secret fails where the page refuses it: the wait after Sign in', async () => {
    const e = await h.err('browser_replay_script', {
      script: JSON.stringify({ ...JSON.parse(json), step_timeout_ms: scaled(1000) }),
      secrets: { BROW_SECRET_1: 'wrong' },
    });
    expect(e.data.step).toBe(5);
    expect(e.code).toBe('timeout');
  });

  it('a missing secret is named before anything is typed', async () => {
    delete process.env.BROW_SECRET_1;
    const e = await h.err('browser_replay_script', { script: json });
    expect(e.code).toBe('invalid_request');
    expect(e.data.step).toBe(3);
    expect(e.content).toContain('BROW_SECRET_1');
  });

  it('stops clearly at the step whose element is gone (the button renamed)', async () => {
    renamed = true;
    try {
      const e = await h.err('browser_replay_script', {
        script: { ...JSON.parse(json), step_timeout_ms: scaled(1000) },
        secrets: { BROW_SECRET_1: PASSWORD },
      });
      expect(e.code).toBe('ref_not_found');
      expect(e.data.step).toBe(9);
      expect(e.data.locator).toBe('button "Place order" in shadow order-actions');
      expect(e.content).toContain('step 9 of 10');
      expect(e.content).toContain('button "Place order"');
      expect(e.content).toContain('"Submit order"');
      expect(e.data.steps.slice(0, 8).every((s: any) => s.ok)).toBe(true);
    } finally {
      renamed = false;
    }
  });

  it('brow-cli: one command a line naming role and name, replayable as it is', async () => {
    const out = await h.ok('browser_export_script', { session_id: session, format: 'brow-cli' });
    const text: string = out.script;
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain("click --page p1 --role button --name 'Sign in'");
    expect(text).toContain('click --page p1 --role link --name Open --nth 1');
    expect(text).toContain("fill --page p1 --role textbox --name Password --value '${BROW_SECRET_1}'");
    expect(text).toContain("wait --page p1 --condition text --value 'Order 42 placed'");
    expect(text).toContain('# Secret BROW_SECRET_1 (textbox "Password")');
    const run = await h.ok('browser_replay_script', { script: text, secrets: { BROW_SECRET_1: PASSWORD } });
    expect(run.steps).toHaveLength(10);
  });

  it('typescript: the library API, step by step; it runs', async () => {
    const out = await h.ok('browser_export_script', { session_id: session, format: 'typescript' });
    const text: string = out.script;
    expect(text).toContain("import { createBrow } from 'brow';");
    expect(text).toContain('// 9. click button "Place order" in shadow order-actions');
    expect(text).toContain('"target":{"role":"button","name":"Place order","shadow":["order-actions"]}');
    expect(text).not.toContain(PASSWORD);
    // run it as written, the package import pointed at this checkout's source
    const dir = mkdtempSync(join(process.cwd(), 'tests/replay/.run-'));
    try {
      const file = join(dir, 'flow.ts');
      const src = pathToFileURL(join(process.cwd(), 'src/index.ts')).href;
      writeFileSync(file, text.replace("from 'brow'", `from '${src}'`));
      process.env.BROW_SECRET_1 = PASSWORD;
      const logs: string[] = [];
      const log = console.log;
      console.log = (...a: unknown[]) => void logs.push(a.join(' '));
      try {
        await import(pathToFileURL(file).href);
      } finally {
        console.log = log;
        delete process.env.BROW_SECRET_1;
      }
      expect(logs).toHaveLength(10);
      expect(logs[8]).toMatch(/^9\. Replayed 1 step/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('export and replay name their input problems', async () => {
    const none = await h.err('browser_export_script', {
      session_id: (await h.ok('browser_start_session')).session_id,
    });
    expect(none.code).toBe('invalid_request');
    const bad = await h.err('browser_replay_script', { script: 'click --role' });
    expect(bad.code).toBe('invalid_request');
    expect(bad.content).toContain('line 1');
    const tool = await h.err('browser_replay_script', {
      script: { steps: [{ tool: 'browser_evaluate', input: {} }] },
    });
    expect(tool.code).toBe('invalid_request');
    expect(tool.content).toContain('cannot run browser_evaluate');
  });
});
