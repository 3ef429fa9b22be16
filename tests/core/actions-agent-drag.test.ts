/**
 * browser_drag as an agent uses it: by ref onto another ref, to a viewport point, or by an offset;
 * on a hand-written mouse-driven sortable, a native HTML5 kanban and sliders built from spans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** The ref of the element with this role whose name (or, for nameless list items and cards, text) matches. */
function refBy(refs: any[], role: string, label: string): string {
  const hit = refs.find((r) => r.role === role && (r.accessible_name || r.text) === label);
  if (!hit) throw new Error(`no ${role} "${label}"`);
  return hit.ref;
}

const statusText = async (pageId: string) =>
  (await h.refs(pageId, 'full')).find((r: any) => r.role === 'status')?.text as string;

describe('browser_drag on a mouse-driven sortable list', () => {
  it('moves an item down past the target (release past its midpoint) and says where it went', async () => {
    const pageId = await h.open('actions/sortable.html');
    const refs = await h.refs(pageId, 'full');
    const item = refBy(refs, 'listitem', 'Write report');
    const onto = refBy(refs, 'listitem', 'Plan sprint');
    const r = await h.ok('browser_drag', { page_id: pageId, ref: item, to_ref: onto });
    expect(r.action.outcome).toBe('completed');
    expect(await statusText(pageId)).toBe('Order: Review code, Plan sprint, Write report, Fix bug, Deploy');
    expect(r.action.message).toMatch(/List position 1 → 3 of 5/);
    expect(r.__content).toMatch(/^drag \[listitem ref=e\d+\] → completed/);
  });

  it('moves an item up before the target', async () => {
    const pageId = await h.open('actions/sortable.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_drag', {
      page_id: pageId,
      ref: refBy(refs, 'listitem', 'Deploy'),
      to_ref: refBy(refs, 'listitem', 'Review code'),
    });
    expect(await statusText(pageId)).toBe('Order: Write report, Deploy, Review code, Plan sprint, Fix bug');
    expect(r.action.message).toMatch(/List position 5 → 2 of 5/);
  });
});

describe('browser_drag with HTML5 drag and drop', () => {
  it('drops a draggable card into another column with a real DataTransfer', async () => {
    const pageId = await h.open('actions/html5-list.html');
    const refs = await h.refs(pageId, 'full');
    const card = refBy(refs, 'group', 'Buy milk');
    const done = refOf(refs, 'region', 'Done');
    const r = await h.ok('browser_drag', { page_id: pageId, ref: card, to_ref: done });
    expect(await statusText(pageId)).toBe('Moved Buy milk to Done');
    expect(r.action.outcome).toBe('completed');
    expect(r.action.message).toMatch(/HTML5 drag-and-drop: dragstart, drop on /);
    expect(r.action.message).toMatch(
      /Moved from position 1 of 3 in region "To do" to position \d of 2 in region "Done"/,
    );
  });
});

describe('browser_drag to a point or by an offset (sliders built from spans)', () => {
  it('drags a role-less handle by an offset and reports how far its box moved', async () => {
    const pageId = await h.open('actions/slider.html');
    const refs = await h.refs(pageId, 'full');
    const handle = refs.find((r: any) => r.role === 'generic' && r.states.includes('focusable'));
    expect(handle).toBeTruthy();
    const r = await h.ok('browser_drag', { page_id: pageId, ref: handle.ref, offset_x: 160 });
    expect(r.action.outcome).toBe('completed');
    expect(r.action.message).toMatch(/Box moved by 16\d,0/);
    const volume = (await h.refs(pageId, 'full')).find((x: any) =>
      /^Volume:/.test(x.text ?? x.accessible_name),
    );
    expect(volume?.text ?? volume?.accessible_name).toMatch(/Volume: 6\d/);
  });

  it('drags a slider to a viewport point and reports its value a → b', async () => {
    const pageId = await h.open('actions/slider.html');
    const refs = await h.refs(pageId, 'full');
    const slider = refs.find((r: any) => r.role === 'slider');
    const { x, y, width: w, height: hgt } = slider.bounding_box;
    // the track starts 200 px left of the handle at 50 % (400 px wide): 80 % is 120 px right of it
    const r = await h.ok('browser_drag', {
      page_id: pageId,
      ref: slider.ref,
      to_x: x + w / 2 + 120,
      to_y: y + hgt / 2,
    });
    expect(r.action.message).toMatch(/Value 50 → 80\./);
  });
});

describe('browser_drag refuses what it cannot do', () => {
  it('wants exactly one kind of target, and points on screen', async () => {
    const pageId = await h.open('actions/sortable.html');
    const refs = await h.refs(pageId, 'full');
    const item = refBy(refs, 'listitem', 'Write report');
    const none = await h.err('browser_drag', { page_id: pageId, ref: item });
    expect(none.code).toBe('invalid_request');
    expect(none.content).toMatch(/needs a target/);
    expect(none.data.hint).toMatch(/to_ref.*to_x.*offset_x/);
    const two = await h.err('browser_drag', { page_id: pageId, ref: item, to_ref: item, offset_y: 40 });
    expect(two.code).toBe('invalid_request');
    expect(two.content).toMatch(/one kind of target; got to_ref and offset_x\/offset_y/);
    const half = await h.err('browser_drag', { page_id: pageId, ref: item, to_x: 10 });
    expect(half.code).toBe('invalid_request');
    expect(half.content).toMatch(/both to_x and to_y/);
    const off = await h.err('browser_drag', { page_id: pageId, ref: item, to_x: 5000, to_y: 10 });
    expect(off.code).toBe('invalid_request');
    expect(off.content).toMatch(/outside the \d+×\d+ viewport/);
    // nothing moved meanwhile
    expect(await statusText(pageId)).toMatch(/^Order: Write report, Review code/);
  });

  it('refuses a disabled source with not_interactable', async () => {
    const pageId = await h.open('actions/slider.html');
    const refs = await h.refs(pageId, 'full');
    const e = await h.err('browser_drag', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Reset'),
      offset_x: 50,
    });
    expect(e.code).toBe('not_interactable');
    expect(e.content).toMatch(/is disabled/);
  });
});
