/**
 * Elements inside scrolling panes: clipped boxes are not in view, actions scroll every pane that
 * holds their target before the hit test, and browser_scroll reveals or scrolls a pane.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const status = async (pageId: string, prefix: string) =>
  ((await h.refs(pageId, 'full')).find((r: any) => r.role === 'status' && r.text.startsWith(prefix))?.text ??
    '') as string;

describe('in_viewport accounts for overflow clipping', () => {
  it('marks rows scrolled out of a 150 px pane, and a nested pane below the fold of another, as not in view', async () => {
    const pageId = await h.open('actions/panes.html');
    const refs = await h.refs(pageId, 'full');
    const rec = (role: string, name: string) =>
      refs.find((r: any) => r.role === role && r.accessible_name === name);
    expect(rec('button', 'Archive message 1').in_viewport).toBe(true);
    expect(rec('button', 'Archive message 18').in_viewport).toBe(false);
    expect(rec('region', 'Messages').in_viewport).toBe(true);
    expect(rec('region', 'Inner pane').in_viewport).toBe(false);
    expect(rec('button', 'Deep button').in_viewport).toBe(false);
  });
});

describe('actions reach targets inside scrolled panes', () => {
  it('clicks a row action at the bottom of a scrolling pane (scrolled into view, not "covered")', async () => {
    const pageId = await h.open('actions/panes.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Archive message 18'),
    });
    expect(r.action.outcome).toBe('completed');
    expect(await status(pageId, 'Archived')).toBe('Archived message 18');
    const after = await h.refs(pageId, 'full');
    expect(after.find((x: any) => x.accessible_name === 'Archive message 18').in_viewport).toBe(true);
    expect(after.find((x: any) => x.accessible_name === 'Archive message 1').in_viewport).toBe(false);
  });

  it('clicks a button inside a pane nested in another pane', async () => {
    const pageId = await h.open('actions/panes.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Deep button') });
    expect(r.action.outcome).toBe('completed');
    expect(await status(pageId, 'Deep')).toBe('Deep pressed');
  });
});

describe('browser_scroll with panes', () => {
  it('{ref} reveals an element inside its pane and says which pane scrolled', async () => {
    const pageId = await h.open('actions/panes.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_scroll', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Archive message 12'),
    });
    expect(r.action.outcome).toBe('completed');
    expect(r.action.message).toMatch(/Scrolled e\d+ into view: pane region "Messages" \(e\d+\) 0,0 → 0,\d+/);
    const again = await h.ok('browser_scroll', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Archive message 12'),
    });
    expect(again.action.outcome).toBe('no_change');
    expect(again.action.message).toMatch(/already in view/);
  });

  it('{ref, delta_y} on a pane scrolls that pane and reports its scroll change', async () => {
    const pageId = await h.open('actions/panes.html');
    const refs = await h.refs(pageId, 'full');
    const pane = refOf(refs, 'region', 'Messages');
    const r = await h.ok('browser_scroll', { page_id: pageId, ref: pane, delta_y: 200 });
    expect(r.action.outcome).toBe('completed');
    expect(r.action.message).toMatch(
      new RegExp(`Scrolled pane region "Messages" \\(${pane}\\) 0,0 → 0,\\d+`),
    );
    expect(r.__content).toMatch(/scroll \[region ref=e\d+\] Messages → completed/);
    const moved = Number(/0,0 → 0,(\d+)/.exec(r.action.message)![1]);
    expect(moved).toBeGreaterThan(0);
    const after = await h.refs(pageId, 'full');
    expect(after.find((x: any) => x.accessible_name === 'Archive message 1').in_viewport).toBe(false);
  });
});

describe('what cannot be reached says why', () => {
  it('refuses an element its collapsed container clips, one without pointer events, and a drag that does not fit on screen', async () => {
    const pageId = await h.open('actions/edge.html');
    const refs = await h.refs(pageId, 'full');
    const hidden = refs.find((r: any) => r.accessible_name === 'Hidden by its collapsed section');
    expect(hidden?.in_viewport).toBe(false);
    const clipped = await h.err('browser_click', { page_id: pageId, ref: hidden.ref });
    expect(clipped.code).toBe('not_interactable');
    expect(clipped.content).toMatch(/its container clips it/);

    const ghost = await h.err('browser_click', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Ghost button'),
    });
    expect(ghost.code).toBe('not_interactable');
    expect(ghost.content).toMatch(/does not receive pointer events/);

    const row = (n: number) =>
      refs.find((r: any) => r.role === 'listitem' && (r.text || r.accessible_name) === `Row ${n}`).ref;
    const far = await h.err('browser_drag', { page_id: pageId, ref: row(1), to_ref: row(30) });
    expect(far.code).toBe('not_interactable');
    expect(far.content).toMatch(/do not fit on screen together/);

    const zero = await h.err('browser_drag', { page_id: pageId, ref: row(1), offset_x: 0 });
    expect(zero.code).toBe('invalid_request');
    expect(zero.content).toMatch(/non-zero offset/);
  });
});
