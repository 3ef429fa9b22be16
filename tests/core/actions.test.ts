import { mkdtempSync, writeFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
let workspace: string;
beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-ws-'));
  writeFileSync(join(workspace, 'avatar.txt'), 'hello');
  h = await harness({ workspace_root: workspace });
});
afterAll(() => h.close());

async function formPage() {
  const pageId = await h.open('core/form.html');
  return { pageId, refs: await h.refs(pageId) };
}

const out = async (pageId: string) =>
  (await h.ok('browser_find', { page_id: pageId, role: 'status', visible_only: false })).matches[0]?.text ??
  (await h.rt.core.findPage(pageId)!.raw.evaluate(() => document.getElementById('out')!.textContent));

describe('actions by ref', () => {
  it('fills, selects, checks, types, uploads and clicks a form; each reports its effect', async () => {
    const { pageId, refs } = await formPage();
    const fill = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Full name'),
      value: 'Ada',
    });
    expect(fill.action.outcome).toBe('completed');
    expect(fill.action.target.value).toBe('Ada');
    expect(fill.__content).toMatch(/fill \[textbox ref=e\d+\] Full name → completed/);

    const pw = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Password'),
      value: 'hunter2',
    });
    expect(JSON.stringify(pw)).not.toContain('hunter2');

    const sel = await h.ok('browser_select', {
      page_id: pageId,
      ref: refOf(refs, 'combobox', 'Plan'),
      value: 'Pro plan',
    });
    expect(sel.action.target.value).toBe('Pro plan');
    const badSel = await h.err('browser_select', {
      page_id: pageId,
      ref: refOf(refs, 'combobox', 'Plan'),
      value: 'Gold',
    });
    expect(badSel.code).toBe('invalid_request');
    expect(badSel.content).toMatch(/free \(Free\)/);

    const chk = await h.ok('browser_check', {
      page_id: pageId,
      ref: refOf(refs, 'checkbox', 'I accept the terms'),
      checked: true,
    });
    expect(chk.action.target.checked).toBe(true);
    const again = await h.ok('browser_check', {
      page_id: pageId,
      ref: refOf(refs, 'checkbox', 'I accept the terms'),
      checked: true,
    });
    expect(again.action.outcome).toBe('no_change');
    await h.ok('browser_check', { page_id: pageId, ref: refOf(refs, 'radio', 'Blue') });

    await h.ok('browser_type', { page_id: pageId, ref: refOf(refs, 'textbox', 'Bio'), text: 'Hi there' });
    await h.ok('browser_fill', { page_id: pageId, ref: refOf(refs, 'generic', 'Notes'), value: 'note text' });
    const up = await h.ok('browser_upload_file', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Avatar'),
      file_paths: ['avatar.txt'],
    });
    expect(up.action.outcome).toBe('completed');

    const clickedAt = Date.now();
    const click = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Save') });
    const clickTook = Date.now() - clickedAt;
    expect(click.action.changes.changed.concat(click.action.changes.added).join('\n')).toContain(
      'saved name=Ada',
    );
    expect(await out(pageId)).toBe(
      'saved name=Ada plan=pro terms=true colour=blue bio=Hi there notes=note text file=avatar.txt pwlen=7',
    );
    // the settle is part of the call: it cannot have taken longer than the whole call did
    expect(click.action.settle_ms).toBeLessThanOrEqual(clickTook);
  });

  it('the settle waits for a change the click set a timer for, and says how long that took', async () => {
    const DELAY_MS = 40; // under the settle's quiet window (60 ms): the settle, not the effect window, sees it
    const pageId = await h.open('core/form.html');
    await h.rt.core.findPage(pageId)!.raw.evaluate((delay: number) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Later';
      b.addEventListener('click', () =>
        setTimeout(() => (document.getElementById('out')!.textContent = 'changed later'), delay),
      );
      document.body.append(b);
    }, DELAY_MS);
    const refs = await h.refs(pageId);
    const clickedAt = Date.now();
    const click = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Later') });
    const clickTook = Date.now() - clickedAt;
    expect(click.action.outcome).toBe('completed');
    expect(JSON.stringify(click.action.changes)).toContain('changed later');
    // the settle saw it, not the effect window that follows when nothing changed yet
    expect(click.action.waited).toBeUndefined();
    // the page changed DELAY_MS after the click: an answer that has the change cannot come sooner
    // (settle_ms alone can be shorter: on a loaded machine the timer may fire before the click's
    // own call returns and the settle begins)
    expect(clickTook).toBeGreaterThanOrEqual(DELAY_MS);
    expect(click.action.settle_ms).toBeLessThanOrEqual(clickTook);
  });

  it('press sends combos to the focus or to a ref', async () => {
    const { pageId, refs } = await formPage();
    await h.ok('browser_fill', { page_id: pageId, ref: refOf(refs, 'textbox', 'Full name'), value: 'x' });
    await h.ok('browser_press', { page_id: pageId, key: 'Control+Enter' });
    expect(await out(pageId)).toBe('ctrl-enter');
    const bad = await h.err('browser_press', { page_id: pageId, key: 'Hyper+Q' });
    expect(bad.code).toBe('invalid_request');
    expect(bad.content).toMatch(/not a modifier/);
  });

  it('refuses disabled targets and actions a ref does not allow', async () => {
    const { pageId, refs } = await formPage();
    const dis = await h.err('browser_click', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Disabled action'),
    });
    expect(dis.code).toBe('not_interactable');
    expect(dis.content).toMatch(/disabled/);
    const wrong = await h.err('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Save'),
      value: 'x',
    });
    expect(wrong.code).toBe('invalid_request');
    expect(wrong.content).toMatch(/allows click/);
  });

  it('uploads only from inside the workspace', async () => {
    const { pageId, refs } = await formPage();
    const avatar = refOf(refs, 'button', 'Avatar');
    expect(
      (await h.err('browser_upload_file', { page_id: pageId, ref: avatar, file_paths: ['../etc/passwd'] }))
        .code,
    ).toBe('path_not_allowed');
    expect(
      (await h.err('browser_upload_file', { page_id: pageId, ref: avatar, file_paths: ['/etc/hostname'] }))
        .code,
    ).toBe('path_not_allowed');
    symlinkSync('/etc/hostname', join(workspace, 'link-out'));
    expect(
      (await h.err('browser_upload_file', { page_id: pageId, ref: avatar, file_paths: ['link-out'] })).code,
    ).toBe('path_not_allowed');
    expect(
      (await h.err('browser_upload_file', { page_id: pageId, ref: avatar, file_paths: ['missing.txt'] }))
        .code,
    ).toBe('invalid_request');
    writeFileSync(join(workspace, 'second.txt'), 'two');
    const two = await h.err('browser_upload_file', {
      page_id: pageId,
      ref: avatar,
      file_paths: ['avatar.txt', 'second.txt'],
    });
    expect(two.code).toBe('invalid_request');
    expect(two.content).toMatch(/takes one file/);
  });

  it('reports a navigation an action started, and the requests it made', async () => {
    const pageId = await h.open('core/popup.html');
    const refs = await h.refs(pageId);
    const f = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Fetch') });
    expect(f.action.requests.some((r: any) => r.url.includes('/slow') && r.status === 200)).toBe(true);
    expect(f.action.changes.added.concat(f.action.changes.changed).join('\n')).toContain('fetched');
    const nav = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Go to form') });
    expect(nav.action.navigation.to).toContain('core/form.html');
    expect(nav.__content).toMatch(/Navigation: .*popup.html → .*form.html/);
  });

  it('read-only sessions refuse every action', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const pageId = await h.open('core/form.html', { session_id: s.session_id });
    const refs = await h.refs(pageId);
    for (const [tool, extra] of [
      ['browser_click', { ref: refOf(refs, 'button', 'Save') }],
      ['browser_fill', { ref: refOf(refs, 'textbox', 'Full name'), value: 'x' }],
      ['browser_press', { key: 'Enter' }],
      ['browser_scroll', { delta_y: 100 }],
    ] as const) {
      const e = await h.err(tool, { page_id: pageId, ...extra });
      expect(e.code).toBe('read_only');
    }
    // reading still works
    expect((await h.ok('browser_list_elements', { page_id: pageId })).__content).toContain('Full name');
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('drags one element onto another', async () => {
    h.server.route('/drag.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Drag</title>
        <div id="src" draggable="true" style="width:80px;height:40px;background:#ccc" aria-label="Card">Card</div>
        <div id="dst" role="region" aria-label="Bin" style="width:200px;height:100px;margin-top:50px;background:#eee">Bin</div>
        <p id="out"></p>
        <script>
          const out = document.getElementById('out');
          document.getElementById('src').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'card'));
          document.getElementById('dst').addEventListener('dragover', (e) => e.preventDefault());
          document.getElementById('dst').addEventListener('drop', (e) => { e.preventDefault(); out.textContent = 'dropped ' + e.dataTransfer.getData('text/plain'); });
          document.getElementById('dst').addEventListener('mouseup', () => { if (!out.textContent) out.textContent = 'mouseup on bin'; });
        </script>`);
    });
    const pageId = (await h.ok('browser_open_page', { url: `${h.server.origin}/drag.html` })).page_id;
    const refs = await h.refs(pageId, 'full');
    const src = refs.find((r: any) => r.allowed_actions.includes('drag'));
    expect(src).toBeTruthy();
    const bin = refOf(refs, 'region', 'Bin');
    await h.ok('browser_drag', { page_id: pageId, ref: src.ref, to_ref: bin });
    expect(await out(pageId)).toMatch(/dropped card|mouseup on bin/);
  });
});

describe('bad input never breaks a session', () => {
  it('unknown tool, wrong types and unknown fields get invalid_request naming the expected fields', async () => {
    const { pageId, refs } = await formPage();
    const unknown = await h.err('browser_clik', { page_id: pageId });
    expect(unknown.code).toBe('invalid_request');
    expect(unknown.content).toMatch(/browser_click/);
    const types = await h.err('browser_click', { page_id: pageId, ref: 12 });
    expect(types.code).toBe('invalid_request');
    expect(types.content).toMatch(/ref/);
    const extra = await h.err('browser_fill', {
      page_id: pageId,
      ref: refs[0].ref,
      value: 'x',
      selector: '#name',
    });
    expect(extra.code).toBe('invalid_request');
    expect(extra.data.expected_fields).toEqual(['page_id', 'session_id', 'ref', 'value']);
    expect(extra.content).toMatch(/"selector"/);
    const noDelta = await h.err('browser_scroll', { page_id: pageId });
    expect(noDelta.code).toBe('invalid_request');
    // and the session still works
    await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Full name'),
      value: 'still fine',
    });
  });
});
