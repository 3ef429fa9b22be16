/**
 * A walk travels as what changed (injected/held-walk.ts, wire.ts spliceWalk): the page and Node
 * hold the last whole walk of each kind, and the next walk sends only the nodes between what the
 * two share at each end. Checked against the whole walk taken at the same moment, after mutations
 * at the top, middle and end, a hidden element, a scroll, and changes inside frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeSnapshot, type SnapNode } from '../../src/core/snapshot/snapshot.js';
import { evaluateIn } from '../../src/core/snapshot/page-script.js';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  // no walk ahead: each walk here is the test's own
  h = await harness({ walk_ahead: false });
});
afterAll(() => h?.close());

/** A node as its line and ref tell it, with the box when it was measured. */
const view = (n: SnapNode, boxes: boolean) => ({
  ref: n.ref,
  role: n.role,
  name: n.name,
  depth: n.depth,
  text: n.text ?? '',
  value: n.value,
  states: n.states,
  actions: n.actions,
  attrs: n.attrs,
  frameId: n.frameId,
  ...(boxes ? { box: n.box, inView: n.inView } : {}),
});

let cap = 99_999;
/** The delta-built walk and a whole walk (a node cap never used before: nothing held to build on) agree. */
async function expectSameAsWhole(pageId: string, boxes: boolean): Promise<SnapNode[] & { sent: number }> {
  const page = h.rt.core.findPage(pageId)!;
  const opts = boxes ? { fresh: true } : { boxes: false as const };
  const built = await page.exclusive(() => takeSnapshot(page, opts));
  const whole = await page.exclusive(() => takeSnapshot(page, { ...opts, maxNodes: cap-- }));
  expect(built.nodes.map((n) => view(n, boxes))).toEqual(whole.nodes.map((n) => view(n, boxes)));
  expect(whole.sent).toBe(whole.nodes.length);
  return Object.assign(built.nodes, { sent: built.sent });
}

const run = (pageId: string, expression: string) => h.ok('browser_evaluate', { page_id: pageId, expression });

describe('walks that travel as what changed', () => {
  it('the page sends only the changed nodes after a walk it holds', async () => {
    const id = await h.open('core/walk-ahead.html');
    const frame = h.rt.core.findPage(id)!.raw.mainFrame();
    const api = `globalThis[Symbol.for('brow.page')]`;
    const first = JSON.parse((await evaluateIn(frame, `${api}.walkWire({})`)) as string);
    expect(first.delta).toBeUndefined();
    expect(first.count).toBeGreaterThan(300);
    await evaluateIn(frame, `document.querySelector('a[href="#o150"]').textContent = 'Order 150, paid'`);
    const next = JSON.parse(
      (await evaluateIn(frame, `${api}.walkWire({ since: '${first.walkId}' })`)) as string,
    );
    expect(next.delta.since).toBe(first.walkId);
    expect(next.delta.total).toBe(first.count);
    // the link and its list item's line: a couple of nodes, not the 600 of the page
    expect(next.count).toBeGreaterThan(0);
    expect(next.count).toBeLessThan(5);
    expect(next.delta.prefix + next.count + next.delta.suffix).toBe(first.count);
    // a walk it does not hold (or of another document) is sent whole
    const other = JSON.parse((await evaluateIn(frame, `${api}.walkWire({ since: 'nope:1' })`)) as string);
    expect(other.delta).toBeUndefined();
    expect(other.count).toBe(first.count);
  });

  it('matches the whole walk after changes at the top, middle and end, hiding and scrolling', async () => {
    const id = await h.open('core/walk-ahead.html');
    for (const boxes of [true, false]) {
      await expectSameAsWhole(id, boxes);
      await run(id, `document.querySelector('a[href="#o2"]').textContent = 'Order 2 (late ${boxes})'`);
      const late = await expectSameAsWhole(id, boxes);
      // one link's line changed: a few nodes travelled, not the page's 600
      expect(late.sent).toBeGreaterThan(0);
      expect(late.sent).toBeLessThan(10);
      await run(
        id,
        `document.body.prepend(Object.assign(document.createElement('button'), { textContent: 'New at top ${boxes}' }))`,
      );
      const top = await expectSameAsWhole(id, boxes);
      expect(top.some((n) => n.name === `New at top ${boxes}`)).toBe(true);
      await run(id, `document.getElementById('list').lastElementChild.remove()`);
      await expectSameAsWhole(id, boxes);
      await run(id, `document.querySelector('a[href="#o100"]').parentElement.style.display = 'none'`);
      const hidden = await expectSameAsWhole(id, boxes);
      expect(hidden.some((n) => n.name === 'Order 100')).toBe(false);
      await run(id, `document.getElementById('first').setAttribute('aria-pressed', 'true')`);
      await expectSameAsWhole(id, boxes);
      await run(id, `scrollTo(0, 2000)`);
      await expectSameAsWhole(id, boxes);
    }
  });

  it('matches the whole walk when a frame changes, in and across origins', async () => {
    const id = await h.open('core/frames.html');
    // every frame loaded (the leaves load last): nothing may change between the two walks compared
    const page = h.rt.core.findPage(id)!;
    for (let i = 0; i < 100; i++) {
      const names = (await page.exclusive(() => takeSnapshot(page, { fresh: true }))).nodes.map(
        (n) => n.name,
      );
      if (names.includes('Leaf button same') && names.includes('Leaf button cross')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await expectSameAsWhole(id, true);
    await expectSameAsWhole(id, false);
    await run(
      id,
      `document.getElementById('same').contentDocument.getElementById('mid').textContent = 'Same mid, renamed'`,
    );
    const renamed = await expectSameAsWhole(id, true);
    expect(renamed.some((n) => n.name === 'Same mid, renamed')).toBe(true);
    // only the changed frame sent its button; the others sent nothing
    expect(renamed.sent).toBeLessThan(5);
    // the top frame grows above the frames: their nodes move down a line but keep their place
    await run(
      id,
      `document.body.prepend(Object.assign(document.createElement('button'), { textContent: 'Above the frames' }))`,
    );
    await expectSameAsWhole(id, true);
    await expectSameAsWhole(id, false);
  });

  it('an action reports its change from a walk that travelled as what changed', async () => {
    const id = await h.open('core/walk-ahead.html');
    const refs = await h.refs(id);
    const refresh = refs.find((r: any) => r.accessible_name === 'Refresh').ref;
    await run(
      id,
      `document.getElementById('first').addEventListener('click', () => { document.querySelector('a[href="#o42"]').textContent = 'Order 42, shipped'; })`,
    );
    for (let i = 0; i < 3; i++) {
      const clicked = await h.ok('browser_click', { page_id: id, ref: refresh });
      if (i === 0) expect(clicked.__content).toContain('Order 42, shipped');
      else expect(clicked.action.outcome).toBe('no_change');
    }
    await run(id, `document.querySelector('a[href="#o42"]').textContent = 'Order 42'`);
    const again = await h.ok('browser_click', { page_id: id, ref: refresh });
    expect(again.__content).toMatch(/Changed: .*Order 42, shipped.*was: .*Order 42\b/);
  });
});
