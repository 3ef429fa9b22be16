/**
 * The first look (src/core/snapshot/list-elements.ts, firstLook): the first listing of a big
 * document brow has not walked whole yet walks only the page's start and answers from it when that
 * answer is the one a whole walk would give. Checked the way an agent meets it: the lines it reads,
 * the refs it acts on, the cursor it follows, the changes it asks for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
let ahead: Harness;
beforeAll(async () => {
  // no walk ahead: the listing right after an open is always the first look at the page
  h = await harness({ walk_ahead: false });
  ahead = await harness({});
});
afterAll(async () => {
  await h?.close();
  await ahead?.close();
});

const pageOf = (hh: Harness, id: string) => hh.rt.core.findPage(id)!;

/** The lines an agent reads: those between the page-content tags. */
function body(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('<page-content>') + 1, lines.indexOf('</page-content>'));
}

/** The ref on the line that names `name` (as an agent reads it off the outline). */
function refOn(text: string, name: string): string {
  const line = body(text).find((l) => l.endsWith(` ${name}`));
  if (!line) throw new Error(`no line "${name}" in:\n${text.slice(0, 2000)}`);
  return /ref=(e\d+)/.exec(line)![1]!;
}

describe('first look at a big page', () => {
  it('answers the first listing from the page start, with the lines a whole walk shows', async () => {
    const id = await h.open('core/first-look.html');
    const first = await h.ok('browser_list_elements', { page_id: id });
    expect(first.snapshot.partial).toBe(true);
    expect(first.snapshot.truncated).toBe(true);
    expect(first.__content).toMatch(/the page goes on past the \d+ lines walked for this first look/);
    // not the page's latest walk: an action's effect must not compare against part of a page
    expect(pageOf(h, id).lastWalk).toBeNull();

    // the page walked whole, then the same default listing again
    const whole = await h.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 2_000_000 });
    expect(whole.snapshot.partial).toBeUndefined();
    const again = await h.ok('browser_list_elements', { page_id: id });
    expect(again.snapshot.partial).toBeUndefined();
    expect(body(first.__content)).toEqual(body(again.__content));
    expect(first.snapshot.refs.map((r: any) => r.ref)).toEqual(again.snapshot.refs.map((r: any) => r.ref));
    // the first look walked part of the page: fewer lines counted than the page has
    expect(first.snapshot.node_count).toBeLessThan(again.snapshot.node_count);
    // reading order as a whole walk gives it: from the first line in view, the off-screen skip
    // link (above and left of the viewport) after the rest
    expect(body(first.__content)[0]).not.toContain('Skip to orders');
    expect(body(first.__content).join('\n')).toContain('Order 1');
  });

  it('in scope full too', async () => {
    const id = await h.open('core/first-look.html');
    const first = await h.ok('browser_list_elements', { page_id: id, scope: 'full' });
    expect(first.snapshot.partial).toBe(true);
    await h.ok('browser_list_elements', { page_id: id, scope: 'interactive', max_chars: 2_000_000 });
    const again = await h.ok('browser_list_elements', { page_id: id, scope: 'full' });
    expect(again.snapshot.partial).toBeUndefined();
    expect(body(first.__content)).toEqual(body(again.__content));
  });

  it('a cursor goes on over the whole page: every line once, none missed', async () => {
    const id = await h.open('core/first-look.html');
    const seen: string[] = [];
    let page = await h.ok('browser_list_elements', { page_id: id, max_chars: 60_000 });
    expect(page.snapshot.partial).toBe(true);
    const firstPart = body(page.__content);
    seen.push(...firstPart);
    let calls = 1;
    while (page.snapshot.cursor) {
      page = await h.ok('browser_list_elements', {
        page_id: id,
        cursor: page.snapshot.cursor,
        max_chars: 60_000,
      });
      expect(page.snapshot.partial).toBeUndefined();
      seen.push(...body(page.__content));
      if (++calls > 50) throw new Error('the cursor never ended');
    }
    const whole = await h.ok('browser_list_elements', { page_id: id, max_chars: 2_000_000 });
    const all = body(whole.__content);
    expect(whole.snapshot.cursor).toBeUndefined();
    expect(seen.length).toBe(all.length);
    expect(new Set(seen)).toEqual(new Set(all));
    // the second part starts where the first stopped, in the whole walk's reading order
    const last = firstPart[firstPart.length - 1]!;
    expect(all.indexOf(seen[firstPart.length]!)).toBe(all.indexOf(last) + 1);
  });

  it('an agent acts on a ref of the first look; the effect is the one change, not the page', async () => {
    const id = await h.open('core/first-look.html');
    const look = await h.ok('browser_list_elements', { page_id: id });
    expect(look.snapshot.partial).toBe(true);
    const click = await h.ok('browser_click', { page_id: id, ref: refOn(look.__content, 'Archive 3') });
    expect(click.__content).toContain('archived');
    // the effect compared two whole walks: one line changed, nothing of the page's rest "added"
    expect(click.__content).not.toMatch(/Order 3999/);
    expect(click.__content.length).toBeLessThan(3000);
    // `changes` against the first look: compared over the part it walked
    await h.ok('browser_click', { page_id: id, ref: refOn(look.__content, 'Mark order 1 shipped') });
    const changes = await h.ok('browser_list_elements', { page_id: id, scope: 'changes' });
    expect(changes.__content).toContain('shipped');
    expect(changes.__content).toContain('archived');
    expect(changes.__content).toContain('walked only the start of the page');
    expect(changes.snapshot.diff.added).toEqual([]);
  });

  it('a cursor of a first look on a page that changed since fails with a hint, and the page still lists', async () => {
    const id = await h.open('core/first-look.html');
    const look = await h.ok('browser_list_elements', { page_id: id });
    expect(look.snapshot.partial).toBe(true);
    await h.ok('browser_evaluate', {
      page_id: id,
      expression: `document.querySelector('nav').insertAdjacentHTML('afterbegin', '<a href="#new">New</a> <a href="#news">News</a>')`,
    });
    const e = await h.err('browser_list_elements', { page_id: id, cursor: look.snapshot.cursor });
    expect(e.code).toBe('invalid_request');
    expect(e.content).toContain('changed since');
    const fresh = await h.ok('browser_list_elements', { page_id: id });
    expect(fresh.__content).toContain('News');
  });

  it('a page opened scrolled down shows what a whole walk shows', async () => {
    // the table around the rows in view is in view itself, so the answer starts at it either way
    const id = await h.open('core/first-look.html#s3000');
    const look = await h.ok('browser_list_elements', { page_id: id });
    await h.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 2_000_000 });
    const again = await h.ok('browser_list_elements', { page_id: id });
    expect(body(look.__content)).toEqual(body(again.__content));
    // with nothing in view among the page's first nodes, the page is walked whole at once
    const flat = await h.open('core/first-look.html?flat#s3000');
    const flatLook = await h.ok('browser_list_elements', { page_id: flat });
    expect(flatLook.snapshot.partial).toBeUndefined();
    expect(body(flatLook.__content).slice(0, 10).join('\n')).toMatch(/Order 30\d\d\b/);
  });

  it('on orders laid out as plain paragraphs (no table or region around them) the lines are the same too', async () => {
    const id = await h.open('core/first-look.html?flat');
    const first = await h.ok('browser_list_elements', { page_id: id });
    expect(first.snapshot.partial).toBe(true);
    await h.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 2_000_000 });
    const again = await h.ok('browser_list_elements', { page_id: id });
    expect(body(first.__content)).toEqual(body(again.__content));
  });

  it('a small page, or one with frames, is walked whole as before', async () => {
    const small = await h.open('core/walk-ahead.html');
    const s = await h.ok('browser_list_elements', { page_id: small });
    expect(s.snapshot.partial).toBeUndefined();
    expect(pageOf(h, small).lastWalk).not.toBeNull();
    const framed = await h.open('core/frames.html');
    const f = await h.ok('browser_list_elements', { page_id: framed });
    expect(f.snapshot.partial).toBeUndefined();
  });

  it('with the walk ahead on, the first listing shows the same lines whether or not the walk got there first', async () => {
    const id = await ahead.open('core/first-look.html');
    const first = await ahead.ok('browser_list_elements', { page_id: id });
    await ahead.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 2_000_000 });
    const again = await ahead.ok('browser_list_elements', { page_id: id });
    expect(body(first.__content)).toEqual(body(again.__content));
  });
});
