/**
 * After an action the page is walked again for its effect. On a big page that walk patches the
 * last one where the page changed (src/core/snapshot/injected/incremental.ts) instead of walking
 * everything. These tasks change lines that depend on something outside the changed element: a
 * label naming a control elsewhere, an id another element is named by, a name from content, a
 * hover rule, a sibling combinator, a script setting another field, a pane that starts to scroll.
 * Each answer must show the change; the suite runs with BROW_VERIFY_WALKS=1, so every patched walk
 * is also compared with a whole walk and any difference fails the action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const stats = async (pageId: string) =>
  (
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `globalThis[Symbol.for('brow.page')].walkStats()`,
    })
  ).value as { patched: number; whole: number; reason: string };

describe('the effect walk patches what changed', () => {
  it('is switched on for these tests', () => {
    expect(process.env.BROW_VERIFY_WALKS).toBe('1');
  });

  it('a status text changed on a 3,000-line page: patched, and the answer shows it', async () => {
    const pageId = await h.open('snapshot/knock-on.html?plain');
    const refs = await h.refs(pageId, 'full');
    const before = await stats(pageId);
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Add note') });
    expect(r.__content).toMatch(/Notes: 1/);
    const one = await stats(pageId);
    // the walk after the click was patched ('' = no reason to walk everything)
    expect(one.reason).toBe('');
    expect(one.patched).toBeGreaterThan(before.patched);
    const again = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Add note') });
    expect(again.__content).toMatch(/Notes: 2/);
    const two = await stats(pageId);
    expect(two.reason).toBe('');
    expect(two.patched).toBeGreaterThan(one.patched);
    expect(two.whole).toBe(one.whole);
  });

  it('a page with a shadow root still patches a change outside it', async () => {
    const pageId = await h.open('snapshot/knock-on.html?plain');
    const refs = await h.refs(pageId, 'full');
    // the card's button lives in a shadow root
    expect(refOf(refs, 'button', 'Card')).toBeTruthy();
    const before = await stats(pageId);
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Add note') });
    expect(r.__content).toMatch(/Notes: 1/);
    const after = await stats(pageId);
    expect(after.reason).toBe('');
    expect(after.patched).toBeGreaterThan(before.patched);
  });

  it("a hover rule in a shadow root's own sheet shows its link", async () => {
    // (the document's own hover rules are gone: only the shadow root's sheet can tell)
    const pageId = await h.open('snapshot/knock-on.html?plain&cardhover');
    const refs = await h.refs(pageId, 'full');
    expect(refs.some((x: any) => x.accessible_name === 'Card details')).toBe(false);
    const r = await h.ok('browser_hover', { page_id: pageId, ref: refOf(refs, 'button', 'Card') });
    expect(r.__content).toMatch(/\[link ref=e\d+[^\n]*\] Card details/);
  });

  it('a style sheet a script adopts (no node changes) hides what it hides', async () => {
    const pageId = await h.open('snapshot/knock-on.html?plain&noshadow');
    const refs = await h.refs(pageId, 'full');
    const promo = refOf(refs, 'heading', 'Summer sale');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Hide promos') });
    expect(r.__content).not.toMatch(/no_change|no change/i);
    expect(r.__content).toContain(promo);
    const now = await h.refs(pageId, 'full');
    expect(now.some((x: any) => x.accessible_name === 'Summer sale')).toBe(false);
  });

  it("a label's text renames its control elsewhere", async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Rename label') });
    expect(r.__content).toMatch(/textbox[^\n]*\] Work email/);
    const now = await h.refs(pageId, 'full');
    expect(refOf(now, 'textbox', 'Work email')).toBe(refOf(refs, 'textbox', 'Email'));
  });

  it('text an aria-labelledby points at renames the region it names', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Rename total') });
    expect(r.__content).toMatch(/region[^\n]*\] Grand total/);
  });

  it('a form named by id still renames what points at it when a field is called "id"', async () => {
    const pageId = await h.open('snapshot/knock-on.html?plain');
    const refs = await h.refs(pageId, 'full');
    expect(refOf(refs, 'region', 'Order 7 open Ship order')).toBeTruthy();
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Ship order') });
    expect(r.__content).toMatch(/region[^\n]*\] Order 7 shipped Ship order/);
    // the change sits inside an element named by id: the whole page was walked again
    expect((await stats(pageId)).reason).toBe('a changed element is pointed at by id');
  });

  it("text inside a button changes the button's name", async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const mode = refOf(refs, 'button', 'Start');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Switch mode') });
    expect(r.__content).toContain(`[button ref=${mode}`);
    expect(r.__content).toMatch(/\] Stop/);
  });

  it('a menu shown by a :hover rule appears in the hover answer and the next listing', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    expect(refs.some((x: any) => x.accessible_name === 'Sign out')).toBe(false);
    const r = await h.ok('browser_hover', { page_id: pageId, ref: refOf(refs, 'button', 'Account') });
    // no DOM mutation at all: the answer still shows what the hover revealed
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/Sign out/);
    const now = await h.refs(pageId, 'full');
    expect(now.some((x: any) => x.accessible_name === 'Sign out')).toBe(true);
  });

  it('suggestions shown by a :focus-within rule appear when the agent clicks into the field', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    expect(refs.some((x: any) => x.accessible_name === 'Recent pages')).toBe(false);
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'searchbox', 'Find a page') });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/Recent pages/);
  });

  it('a checkbox reveals a panel through a sibling combinator', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_check', {
      page_id: pageId,
      ref: refOf(refs, 'checkbox', 'Show details'),
      checked: true,
    });
    expect(r.__content).toMatch(/More details/);
  });

  it('typing in one field shows the value a script set in another', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Title'),
      value: 'Hello World',
    });
    expect(r.__content).toMatch(/hello-world/);
  });

  it('a style sheet added inside the body hides something far from it', async () => {
    const pageId = await h.open('snapshot/knock-on.html?plain');
    const refs = await h.refs(pageId, 'full');
    const box = refOf(refs, 'checkbox', 'Show details');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Compact view') });
    expect(r.__content).toMatch(new RegExp(`checkbox ref=${box}`));
    const now = await h.refs(pageId, 'full');
    expect(now.some((x: any) => x.ref === box)).toBe(false);
  });

  it('a pane that grows past its height shows the new lines', async () => {
    const pageId = await h.open('snapshot/knock-on.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Grow pane') });
    expect(r.__content).toMatch(/Line 6/);
  });
});
