/**
 * An unchanged page is answered from the last walk (its outline stamp in every frame is the same);
 * every kind of change that moves or restyles the outline without a DOM mutation still makes the
 * next answer a fresh walk that shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const list = (pageId: string, scope = 'full') =>
  h.ok('browser_list_elements', { page_id: pageId, scope, max_chars: 200_000 });
const lastWalk = (pageId: string) => h.rt.core.findPage(pageId)!.lastWalk;
const evaluate = (pageId: string, expression: string) =>
  h.ok('browser_evaluate', { page_id: pageId, expression });
const lineOf = (text: string, needle: string) => text.split('\n').find((l) => l.includes(needle)) ?? '';

describe('answering an unchanged page from the last walk', () => {
  it('reuses the walk while nothing changed: same lines and refs, a new snapshot id', async () => {
    const pageId = await h.open('core/reuse.html');
    const first = await list(pageId);
    const walk = lastWalk(pageId);
    const second = await list(pageId);
    expect(lastWalk(pageId)).toBe(walk);
    expect(second.snapshot.id).not.toBe(first.snapshot.id);
    const body = (t: string) => t.slice(t.indexOf('<page-content>'));
    expect(body(second.__content)).toBe(body(first.__content));
    expect(second.snapshot.refs.map((r: any) => r.ref)).toEqual(first.snapshot.refs.map((r: any) => r.ref));
    // a cursor of the reused answer continues it
    const small = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full', max_chars: 500 });
    expect(small.snapshot.cursor).toBeTruthy();
    const next = await h.ok('browser_list_elements', { page_id: pageId, cursor: small.snapshot.cursor });
    expect(next.__content).toContain('<page-content>');
  });

  it('walks again after each change that mutates nothing, and shows it', async () => {
    const pageId = await h.open('core/reuse.html');
    let text: string = (await list(pageId)).__content;
    expect(lineOf(text, 'Quantity')).toContain('value="1"');

    const step = async (expression: string): Promise<string> => {
      await list(pageId); // settle the reuse point right before the change
      const before = lastWalk(pageId);
      await evaluate(pageId, expression);
      const out: string = (await list(pageId)).__content;
      expect(lastWalk(pageId), expression).not.toBe(before);
      return out;
    };

    text = await step(`document.getElementById('qty').value = '7'`);
    expect(lineOf(text, 'Quantity')).toContain('value="7"');

    text = await step(`document.getElementById('agree').checked = true`);
    expect(lineOf(text, 'Agree')).toMatch(/\bchecked\b/);

    text = await step(`document.getElementById('size').selectedIndex = 1`);
    expect(lineOf(text, 'Size')).toContain('value="Large"');

    text = await step(`document.getElementById('card').addEventListener('click', () => {})`);
    expect(lineOf(text, 'Plain card')).toMatch(/ref=e\d+/);

    text = await step(`history.pushState({}, '', '?moved=1')`);
    expect(text).toMatch(/^URL: .*\?moved=1$/m);

    text = await step(`document.getElementById('tip').showPopover()`);
    expect(text).toContain('Popover tip');
  });

  it('walks again after scrolling a pane or the page: in_viewport follows', async () => {
    const pageId = await h.open('core/reuse.html');
    const inView = async (name: string) => {
      const data = await list(pageId);
      return data.snapshot.refs.find((r: any) => r.accessible_name === name)?.in_viewport;
    };
    expect(await inView('Pane five')).toBe(false);
    expect(await inView('Far button')).toBe(false);
    await evaluate(pageId, `document.getElementById('pane').scrollTop = 1000`);
    expect(await inView('Pane five')).toBe(true);
    await evaluate(pageId, `window.scrollTo(0, document.body.scrollHeight)`);
    expect(await inView('Far button')).toBe(true);
  });

  it('a partial walk (a subtree) never stands in for the whole page', async () => {
    const pageId = await h.open('core/reuse.html');
    const full = await list(pageId);
    const pane = full.snapshot.refs.find((r: any) => r.accessible_name === 'Pane one');
    await h.ok('browser_list_elements', { page_id: pageId, scope: 'subtree', ref: pane.ref });
    const again = await list(pageId);
    expect(again.snapshot.refs.length).toBe(full.snapshot.refs.length);
  });
});
