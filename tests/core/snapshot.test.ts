import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('snapshots and refs', () => {
  it('renders the seed-001 line format with states, values and actions', async () => {
    const pageId = await h.open('core/form.html');
    const snap = await h.ok('browser_list_elements', { page_id: pageId });
    const text: string = snap.__content;
    expect(text).toMatch(/^Page snapshot for Form fixture/m);
    expect(text).toMatch(new RegExp(`^Page ID: ${pageId}$`, 'm'));
    expect(text).toMatch(/^Scope: interactive$/m);
    expect(text).toMatch(/\[textbox ref=e\d+ actions=click,fill,type,press,scroll\] Full name/);
    expect(text).toMatch(/\[combobox ref=e\d+ value="Free" actions=click,select/);
    expect(text).toMatch(/\[checkbox ref=e\d+ actions=click,check/);
    expect(text).toMatch(/\[button ref=e\d+ disabled actions=hover,scroll\] Disabled action/);
    // hierarchy: the form's controls are indented under it
    expect(text).toMatch(/^\[form ref=e\d+\] Sign up\n {2}\[/m);
    const refs = snap.snapshot.refs;
    const name = refs.find((r: any) => r.accessible_name === 'Full name');
    expect(name).toMatchObject({
      role: 'textbox',
      allowed_actions: ['click', 'fill', 'type', 'press', 'scroll'],
      in_viewport: true,
    });
    expect(name.attributes).toMatchObject({ id: 'name', name: 'name', placeholder: 'Ada Lovelace' });
    expect(name.bounding_box.width).toBeGreaterThan(0);
    expect(typeof name.frame_id).toBe('string');
  });

  it('keeps refs for untouched elements across re-renders; replaced ones go stale (detached)', async () => {
    const pageId = await h.open('core/rerender.html');
    const before = await h.refs(pageId);
    const keep = refOf(before, 'button', 'Keep');
    const alpha = refOf(before, 'button', 'Alpha 1');
    const rerender = refOf(before, 'button', 'Re-render');
    await h.ok('browser_click', { page_id: pageId, ref: rerender });
    const after = await h.refs(pageId);
    expect(refOf(after, 'button', 'Keep')).toBe(keep);
    const alpha2 = refOf(after, 'button', 'Alpha 2');
    expect(alpha2).not.toBe(alpha);
    // numbers only grow: a new element never takes an old number
    expect(Number(alpha2.slice(1))).toBeGreaterThan(
      Math.max(...before.map((r: any) => Number(r.ref.slice(1)))),
    );
    const stale = await h.err('browser_click', { page_id: pageId, ref: alpha });
    expect(stale.code).toBe('stale_ref');
    expect(stale.data.reason).toBe('detached');
    // the page is untouched by the failed action and still usable
    await h.ok('browser_click', { page_id: pageId, ref: keep });
  });

  it('an element taken out and put back keeps its ref, even after 24,000 others came and went', async () => {
    const pageId = await h.open('core/rerender.html');
    const keep = refOf(await h.refs(pageId), 'button', 'Keep');
    const run = (expression: string) => h.ok('browser_evaluate', { page_id: pageId, expression });
    await run(`globalThis.parked = document.getElementById('list').firstElementChild; parked.remove()`);
    // enough new elements that brow drops what left the document from its table of ids
    for (let round = 0; round < 2; round++) {
      await run(
        `const box = document.createElement('div'); box.id = 'crowd';` +
          ` box.innerHTML = '<button>x</button>'.repeat(12000); document.body.append(box)`,
      );
      await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 2000 });
      await run(`document.getElementById('crowd').remove()`);
    }
    await run(`document.getElementById('list').prepend(parked)`);
    // the old ref works at once, before any walk has met the element again
    const html = await h.ok('browser_read_html', { page_id: pageId, ref: keep });
    expect(html.__content).toContain('Keep');
    const click = await h.ok('browser_click', { page_id: pageId, ref: keep });
    expect(click.__content).toMatch(/^click \[button ref=/);
    const again = await h.refs(pageId);
    expect(refOf(again, 'button', 'Keep')).toBe(keep);
  });

  it('refs die with their document (navigated) and never re-find by name', async () => {
    const pageId = await h.open('core/rerender.html');
    const keep = refOf(await h.refs(pageId), 'button', 'Keep');
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('core/rerender.html') });
    const e = await h.err('browser_click', { page_id: pageId, ref: keep });
    expect(e.code).toBe('stale_ref');
    expect(e.data.reason).toBe('navigated');
    const fresh = refOf(await h.refs(pageId), 'button', 'Keep');
    expect(fresh).not.toBe(keep);
    expect((await h.err('browser_click', { page_id: pageId, ref: 'e99999' })).code).toBe('ref_not_found');
    expect((await h.err('browser_click', { page_id: pageId, ref: 'button' })).code).toBe('ref_not_found');
  });

  it('walks same- and cross-origin frames two deep, and acts inside them', async () => {
    const pageId = await h.open('core/frames.html');
    // frames load after the top document
    await h.ok('browser_wait', { page_id: pageId, condition: 'load_state', state: 'load' });
    let text = '';
    for (
      let i = 0;
      i < 40 && !(text.includes('Leaf button same') && text.includes('Leaf button cross'));
      i++
    ) {
      text = (await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const label of [
      'Top button',
      'Same mid button',
      'Cross mid button',
      'Leaf button same',
      'Leaf button cross',
    ]) {
      expect(text).toContain(label);
    }
    // the leaf is nested under its iframe, which is nested under the middle frame's iframe
    expect(text).toMatch(
      /\[iframe ref=e\d+\] Same origin frame\n(?: {2}.*\n)*? {4}\[button ref=e\d+[^\]]*\] Leaf button same/,
    );
    const refs = await h.refs(pageId, 'full');
    const leaf = refOf(refs, 'button', 'Leaf button cross');
    const eff = await h.ok('browser_click', { page_id: pageId, ref: leaf });
    expect(eff.action.outcome).toBe('completed');
    const after = await h.refs(pageId, 'full');
    expect(after.find((r: any) => r.ref === leaf).accessible_name).toBe('Leaf button cross clicked');
    const frameIds = new Set(refs.map((r: any) => r.frame_id));
    expect(frameIds.size).toBe(5);
  });

  it('keeps reaching a cross-origin frame inside a same-origin frame across reloads', async () => {
    // puppeteer sometimes keeps such a frame on its parent's session after a navigation; brow
    // finds the frame's own target instead of waiting on a context that never comes
    const pageId = await h.open('core/frames.html');
    for (let i = 0; i < 4; i++) {
      await h.ok('browser_navigate', {
        page_id: pageId,
        url: h.server.url('core/frames.html'),
        wait_until: 'load',
      });
      let text = '';
      for (let j = 0; j < 30 && !text.includes('Leaf button same'); j++) {
        text = (await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content;
        if (!text.includes('Leaf button same')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toContain('Leaf button same');
      expect(text).not.toContain('frame-unreachable');
      const leaf = refOf(await h.refs(pageId, 'full'), 'button', 'Leaf button same');
      expect((await h.ok('browser_click', { page_id: pageId, ref: leaf })).action.outcome).toBe('completed');
    }
  });

  it('sees open and closed shadow roots, slots, and acts inside them', async () => {
    const pageId = await h.open('core/shadow.html');
    const snap = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    expect(snap.__content).toContain('Slotted title');
    const refs = snap.snapshot.refs;
    const closed = refOf(refs, 'button', 'Closed button');
    refOf(refs, 'textbox', 'Closed input');
    await h.ok('browser_click', { page_id: pageId, ref: closed });
    const text = (await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content;
    expect(text).toContain('closed clicked');
    await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Open button') });
    expect((await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content).toContain(
      'open clicked',
    );
  });

  it('lists role-less clickables and names the element covering a button', async () => {
    const pageId = await h.open('core/clickables.html');
    const refs = await h.refs(pageId);
    const card = refs.find((r: any) => r.text === 'Clickable card' || r.accessible_name === 'Clickable card');
    expect(card?.allowed_actions).toContain('click');
    const pointer = refs.find((r: any) => (r.text || r.accessible_name) === 'Pointer span');
    expect(pointer?.allowed_actions).toContain('click');
    await h.ok('browser_click', { page_id: pageId, ref: card.ref });
    expect((await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content).toContain(
      'card clicked',
    );
    const covered = refOf(refs, 'button', 'Covered button');
    const e = await h.err('browser_click', { page_id: pageId, ref: covered });
    expect(e.code).toBe('not_interactable');
    expect(e.content).toMatch(/covered by/);
    expect(e.data.cover).toBeTruthy();
    expect((await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).__content).not.toContain(
      'under clicked',
    );
  });

  it('budgets with a cursor, viewport first, and continues where it stopped', async () => {
    const pageId = await h.open('core/long-list.html');
    const first = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 2000 });
    expect(first.__content.length).toBeLessThanOrEqual(2000);
    expect(first.snapshot.truncated).toBe(true);
    expect(first.snapshot.cursor).toBeTruthy();
    expect(first.__content).toContain('Item 1');
    const seen = new Set<string>(first.snapshot.refs.map((r: any) => r.ref));
    let cursor = first.snapshot.cursor;
    let pages = 1;
    while (cursor && pages < 50) {
      const next = await h.ok('browser_list_elements', {
        page_id: pageId,
        scope: 'full',
        max_chars: 2000,
        cursor,
      });
      expect(next.__content.length).toBeLessThanOrEqual(2000);
      for (const r of next.snapshot.refs) {
        expect(seen.has(r.ref)).toBe(false);
        seen.add(r.ref);
      }
      cursor = next.snapshot.cursor;
      pages++;
    }
    const all = await h.refs(pageId, 'full');
    expect(seen.size).toBe(all.length);
    expect((await h.err('browser_list_elements', { page_id: pageId, cursor: 'snap-x@3' })).code).toBe(
      'invalid_request',
    );
  });

  it('viewport scope shows what is on screen; scrolling brings the rest', async () => {
    const pageId = await h.open('core/long-list.html');
    const vp = await h.ok('browser_list_elements', { page_id: pageId, scope: 'viewport' });
    expect(vp.__content).toContain('Item 1');
    expect(vp.__content).not.toContain('Item 200');
    const all = await h.refs(pageId, 'full');
    const last = refOf(all, 'button', 'Item 200');
    await h.ok('browser_scroll', { page_id: pageId, ref: last });
    const vp2 = await h.ok('browser_list_elements', { page_id: pageId, scope: 'viewport' });
    expect(vp2.__content).toContain('Item 200');
    const sc = await h.ok('browser_scroll', { page_id: pageId, delta_y: -100000 });
    expect(sc.action.message).toMatch(/→ 0,0/);
  });

  it('subtree scope needs a ref and shows only that element', async () => {
    const pageId = await h.open('core/form.html');
    expect((await h.err('browser_list_elements', { page_id: pageId, scope: 'subtree' })).code).toBe(
      'invalid_request',
    );
    const refs = await h.refs(pageId, 'full');
    const form = refOf(refs, 'form', 'Sign up');
    const sub = await h.ok('browser_list_elements', { page_id: pageId, scope: 'subtree', ref: form });
    expect(sub.__content).toContain('Full name');
    expect(sub.__content).not.toContain('[heading');
  });

  it('changes: none on an unchanged page, then added/removed/changed lines', async () => {
    const pageId = await h.open('core/rerender.html');
    await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    const none = await h.ok('browser_list_elements', { page_id: pageId, scope: 'changes' });
    expect(none.__content).toContain('Changes: none observed');
    await h.rt.core.findPage(pageId)!.raw.evaluate(() => document.getElementById('rerender')!.click());
    const ch = await h.ok('browser_list_elements', { page_id: pageId, scope: 'changes' });
    expect(ch.__content).toMatch(/- Added: \[button ref=e\d+[^\]]*\] Alpha 2/);
    expect(ch.__content).toMatch(/- Removed: \[button ref=e\d+[^\]]*\] Alpha 1/);
    expect(ch.snapshot.diff.added.length).toBeGreaterThan(0);
  });

  it('find returns every match with refs and never picks', async () => {
    const pageId = await h.open('core/long-list.html');
    const f = await h.ok('browser_find', { page_id: pageId, role: 'button', name: 'item 1', limit: 5 });
    expect(f.matches.length).toBe(5);
    expect(f.total).toBeGreaterThan(5);
    expect(f.truncated).toBe(true);
    expect(f.matches.every((m: any) => /Item 1/.test(m.name))).toBe(true);
    expect((await h.err('browser_find', { page_id: pageId })).code).toBe('invalid_request');
    const none = await h.ok('browser_find', { page_id: pageId, text: 'zzz-nothing' });
    expect(none.matches).toEqual([]);
  });
});
