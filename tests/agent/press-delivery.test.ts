/**
 * Issue 32: a pointer action's answer is the truth. A feed of posts whose icon-only controls are
 * spans drawn by `content: url(…)`, swapped on :hover for a picture that arrives late (the span
 * shrinks to nothing while it loads, so a release lands beside it), reached by navigating one tab
 * from task to task and clicking right after listing; and a button that steps aside when pressed.
 * The page's own record (window.__result, read through browser_evaluate, a channel the agent never
 * uses) decides whether each answer told the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { outcomeOf, parseListing } from './agent.js';

let h: Harness;

beforeAll(async () => {
  h = await harness();
  // a square picture of the asked size, after the asked delay (kept by the page once it came)
  h.server.route('/late-image', (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const size = Number(u.searchParams.get('size') ?? 14);
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=600' });
        res.end(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="${size}" height="${size}" fill="#48c"/></svg>`,
        );
      },
      Number(u.searchParams.get('ms') ?? 100),
    );
  });
});
afterAll(() => h.close());

const KINDS = ['reply', 'retweet', 'like', 'more'];
const evaluate = async (pageId: string, expression: string) =>
  (await h.ok('browser_evaluate', { page_id: pageId, expression })).value;

describe('pointer actions confirm delivery', () => {
  it('50 tasks in one tab: every click on a late-drawn icon runs its handler once, and every answer says so', async () => {
    const pageId = await h.open('agent/posts.html?seed=0');
    const wrong: string[] = [];
    for (let i = 1; i <= 50; i++) {
      await h.ok('browser_navigate', { page_id: pageId, url: h.server.url(`agent/posts.html?seed=${i}`) });
      // the agent's view: the task line, then each post's name line followed by its four icons
      const listing = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
      const lines = parseListing(listing.__content);
      const task = /Click the "(\w+)" button of the post by (.+)\./.exec(listing.__content);
      expect(task, listing.__content).not.toBeNull();
      const [, kind, user] = task!;
      const at = lines.findIndex((l) => l.role === 'text' && l.label.startsWith(`${user} @`));
      const icons = lines.slice(at + 1).filter((l) => l.ref && l.actions.includes('click'));
      const ref = icons[KINDS.indexOf(kind!)]!.ref!;
      const answer = await h.call('browser_click', { page_id: pageId, ref });
      const seen = await evaluate(pageId, 'window.__result.clicks');
      const outcome = answer.ok ? outcomeOf(answer.content) : 'error';
      // the handler ran once, on the asked icon; the answer saw its effect (a status line or a menu)
      const ok =
        seen.length === 1 && seen[0].user === user && seen[0].kind === kind && outcome === 'completed';
      if (!ok) console.log(`task ${i}`, JSON.stringify(seen), answer.content);
      if (!ok) wrong.push(`task ${i}: ${JSON.stringify(seen)} / ${answer.content}`);
    }
    expect(wrong).toEqual([]);
  }, 400_000);

  it('a press that lands elsewhere twice answers failed, naming where it went', async () => {
    const pageId = await h.open('press-miss.html');
    const listing = await h.ok('browser_list_elements', { page_id: pageId });
    const ref = parseListing(listing.__content).find((l) => l.role === 'button')!.ref!;
    const answer = await h.ok('browser_click', { page_id: pageId, ref });
    expect(outcomeOf(answer.__content)).toBe('failed');
    expect(answer.action.ok).toBe(false);
    expect(answer.__content).toMatch(/The press landed on \[.*\], not on the target \(click missed it/);
    const r = await evaluate(pageId, 'window.__result');
    // pressed twice (measured again in between), never clicked: the release went to the panel
    expect(r).toEqual({ clicks: 0, wrapClicks: 2 });
  });

  it('a delivered press with nothing to show is no_change, and says the target received it', async () => {
    const pageId = await h.open('press-miss.html');
    const listing = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    // a heading: no listener, nothing happens on a click, but it is visible and takes one
    const ref = parseListing(listing.__content).find((l) => l.role === 'heading')!.ref!;
    const answer = await h.ok('browser_click', { page_id: pageId, ref });
    expect(outcomeOf(answer.__content)).toBe('no_change');
    expect(answer.__content).toMatch(/The target received the click\./);
    expect(answer.__content).toMatch(/No click handler seen on the target/);
  });
});
