/**
 * Effects an agent can trust: a click lets hover effects settle before pressing, delayed results
 * are waited for (and the answer says what for), a page still busy answers dispatched, and a
 * click that does nothing answers no_change after a bounded window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

let h: Harness;
// the product's effect window (vitest.config.ts lowers the default): these tests check late effects
const EFFECT_WINDOW_MS = 1000;

beforeAll(async () => {
  h = await harness({ effect_window_ms: EFFECT_WINDOW_MS });
});
afterAll(() => h.close());

describe('click moves the pointer first and lets hover effects settle', () => {
  it('opens a menu whose icon only takes clicks once its hover state is applied', async () => {
    const pageId = await h.open('actions/hover-menu.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'More actions') });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/menuitem/);
    const after = await h.refs(pageId, 'full');
    expect(after.some((x: any) => x.role === 'menuitem' && x.accessible_name === 'Rename')).toBe(true);
    // the change was there on settling: no effect window
    expect(r.action.waited).toBeUndefined();
  });
});

describe('settling follows work put off to animation frames', () => {
  it(
    'a click whose result renders over six frames answers with the last one, on a page running an animation loop',
    async () => {
      const pageId = await h.open('actions/frames.html');
      const refs = await h.refs(pageId, 'full');
      const one = await h.ok('browser_click', {
        page_id: pageId,
        ref: refOf(refs, 'button', 'Prepare export'),
      });
      expect(one.action.outcome).toBe('completed');
      expect(one.__content).toMatch(/Export prepared/);
      // each frame asks for the next: the answer is the end of the chain, not a step of it
      const three = await h.ok('browser_click', {
        page_id: pageId,
        ref: refOf(refs, 'button', 'Run export'),
      });
      expect(three.action.outcome).toBe('completed');
      expect(three.__content, three.__content).toMatch(/Export done: 6 files/);
      expect(three.__content).not.toMatch(/Step \d of 6/);
      expect(three.action.waited).toBeUndefined();
      // a starved renderer spaces frames wider than the 60 ms quiet window: the chain is still followed
      // to its end (the quiet window alone cut it at "Step 4/5 of 6" in 3 of 108 such clicks)
      const page = h.rt.core.findPage(pageId)!;
      await page.cdp.send('Emulation.setCPUThrottlingRate', { rate: 24 });
      try {
        for (let i = 0; i < 10; i++) {
          await h.ok('browser_evaluate', {
            page_id: pageId,
            expression: "document.getElementById('status').textContent = 'Idle'",
          });
          const r = await h.ok('browser_click', {
            page_id: pageId,
            ref: refOf(refs, 'button', 'Run export'),
          });
          expect(r.__content, r.__content).toMatch(/Export done: 6 files/);
        }
      } finally {
        await page.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      }
      // a change made at once still answers, though the spinner's loop keeps asking for frames
      const save = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Save draft') });
      expect(save.action.outcome).toBe('completed');
      expect(save.__content).toMatch(/Draft saved/);
      // twelve clicks, ten of them on a renderer slowed 24 times: 27-29 s beside a second copy of the suite
    },
    scaled(120_000),
  );
});

describe('the effect window', () => {
  it('waits for a debounced search fetch after Enter and names the request it waited for', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const box = refOf(refs, 'searchbox', 'Search');
    await h.ok('browser_fill', { page_id: pageId, ref: box, value: 'cats' });
    const r = await h.ok('browser_press', { page_id: pageId, ref: box, key: 'Enter' });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/cats alpha/);
    // the search starts 300 ms after Enter: usually after the settle, so the effect window waits for
    // it and names it; on a loaded machine the settle's own wait can already cover it, and the answer
    // lists it among the call's requests instead. Either way the answer has the results and the request.
    if (r.action.waited) {
      expect(r.__content).toMatch(
        /→ completed \(settled in \d+ ms; waited for GET \/slow\?ms=150&q=cats 200/,
      );
      expect(r.action.waited.saw).toContain('GET /slow?ms=150&q=cats 200');
    } else expect(r.__content).toMatch(/^Requests: .*GET \S*\/slow\?ms=150&q=cats 200/m);
  });

  it('keeps watching after typing into a combobox until its suggestions arrive', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_type', {
      page_id: pageId,
      ref: refOf(refs, 'combobox', 'City'),
      text: 'Zur',
    });
    expect(r.action.outcome).toBe('completed');
    // the suggestions are in this answer (seen on settling, or waited for in the effect window)
    expect(r.__content, r.__content).toMatch(/GET \S*\/slow\?ms=50&city=Zur 200/);
    const options = (await h.refs(pageId, 'full')).filter((x: any) => x.role === 'option');
    expect(options.map((x: any) => x.accessible_name)).toEqual(['Zürich', 'Zurzach']);
  });

  it('typed slower than the debounce: waits for the answer to the whole value, not only the first key', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    // 400 ms between keys: the page's 250 ms debounce answers "Z" while "u" and "r" are still coming
    const r = await h.ok('browser_type', {
      page_id: pageId,
      ref: refOf(refs, 'combobox', 'City'),
      text: 'Zur',
      delay_ms: 400,
    });
    expect(r.__content, r.__content).toMatch(/GET \S*\/slow\?ms=50&city=Z 200/);
    expect(r.__content, r.__content).toMatch(/GET \S*\/slow\?ms=50&city=Zur 200/);
    // the answer shows the suggestions for the whole value: Zug is not among them
    expect(r.__content).toMatch(/Added: \[option ref=e\d+[^\]]*\] Zürich/);
    expect(r.__content).not.toMatch(/\] Zug$/m);
  });

  it('keeps watching after filling a plain input whose page set a debounce timer, but not after filling one that did nothing', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Country'),
      value: 'Nor',
    });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/GET \S*\/slow\?ms=50&country=Nor 200/);
    expect((await h.refs(pageId, 'full')).some((x: any) => /Norway/.test(x.text || x.accessible_name))).toBe(
      true,
    );
    const plain = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Note'),
      value: 'hello',
    });
    expect(plain.action.outcome).toBe('completed');
    expect(plain.action.waited).toBeUndefined();
  });

  it('sees a debounce whose setTimeout the page took at load (as lodash does)', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Region'),
      value: 'Ti',
    });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content, r.__content).toMatch(/GET \S*\/slow\?ms=50&region=Ti 200/);
    expect(r.__content, r.__content).toMatch(/Ticino/);
  });

  it('answers dispatched when the request the action started is still running when the window closes', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', {
      page_id: pageId,
      ref: refOf(refs, 'button', 'Export everything'),
    });
    expect(r.action.outcome).toBe('dispatched');
    expect(r.__content).toMatch(/→ dispatched \(settled in \d+ ms; still pending: GET \/slow\?ms=20000\)/);
    expect(r.action.ok).toBe(true);
  });

  it('answers no_change for a click that does nothing, saying what it watched for', async () => {
    const pageId = await h.open('actions/search.html');
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Does nothing') });
    expect(r.action.outcome).toBe('no_change');
    expect(r.__content).toMatch(
      /→ no_change \(settled in \d+ ms; watched \d+ ms for changes or requests: none\)/,
    );
  });
});

describe('the effect window after a short settle', () => {
  let short: Harness;
  beforeAll(async () => {
    // settling gives up while the field's request is still on its way
    short = await harness({ settle_max_ms: 150, effect_window_ms: EFFECT_WINDOW_MS });
  });
  afterAll(() => short.close());

  it('follows a request still pending after typing into a combobox to its suggestions', async () => {
    const pageId = await short.open('actions/search.html');
    const refs = await short.refs(pageId, 'full');
    const r = await short.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'combobox', 'Airport'),
      value: 'Z',
    });
    expect(r.action.outcome, r.__content).toBe('completed');
    // the request is named either way: followed past the window ("waited for"), or, on a slow
    // machine where it began and ended while the action settled, among the action's requests
    expect(r.__content, r.__content).toMatch(/(waited for|Requests:) GET \S*\/slow\?ms=700&airport=Z 200/);
    expect(r.__content, r.__content).toMatch(/option[^\n]*Zürich Airport/);
  });
});

describe('pointer-first click without hover scripts', () => {
  const reacts = (page_id: string) =>
    h.ok('browser_evaluate', {
      page_id,
      expression: `globalThis[Symbol.for('brow.page')].mayReactToHover()`,
    });

  it('knows when no script listens to the pointer passing over, and clicks such a page at once', async () => {
    const pageId = await h.open('actions/css-hover.html');
    // only CSS :hover and a click listener: nothing to wait for after the pointer arrives
    expect((await reacts(pageId)).value).toBe(false);
    const refs = await h.refs(pageId, 'full');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Save draft') });
    expect(r.action.outcome).toBe('completed');
    expect(r.__content).toMatch(/Saved/);
    // a hover listener anywhere (here on the document, as delegating libraries do) turns the wait on
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `document.addEventListener('mouseover', () => {})`,
    });
    expect((await reacts(pageId)).value).toBe(true);
  });

  it('counts an inline on-hover attribute as a hover script', async () => {
    const pageId = await h.open('actions/css-hover.html');
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `document.getElementById('save').setAttribute('onmouseenter', 'this.title = "x"')`,
    });
    expect((await reacts(pageId)).value).toBe(true);
  });
});

describe('a click that only moves the URL inside the page', () => {
  it('says the refs still work (and they do); a link to another document says they are stale', async () => {
    const pageId = await h.open('actions/in-page-links.html');
    const refs = await h.refs(pageId, 'full');
    const copy = refOf(refs, 'button', 'Copy command');
    const r = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'link', 'Usage') });
    expect(r.action.navigation.to).toMatch(/#usage$/);
    expect(r.__content).toMatch(/Same document, new URL \(nothing else changed\): the refs still work/);
    expect(r.__content).not.toMatch(/stale/);
    // an agent believes it and acts on a ref from before the click
    const copied = await h.ok('browser_click', { page_id: pageId, ref: copy });
    expect(copied.action.outcome).toBe('completed');
    expect(copied.__content).toMatch(/Copied/);
    // another document: the old refs are gone with it
    const next = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'link', 'Next page') });
    expect(next.action.navigation.to).toMatch(/\?page=2$/);
    expect(next.__content).toMatch(/The page navigated: take a fresh snapshot; old refs are stale/);
    expect((await h.err('browser_click', { page_id: pageId, ref: copy })).code).toBe('stale_ref');
  });
});
