/** The tab helpers that act: click, type, fill, press, scroll, drag, select, upload, waits, selectors. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;
let workspace: string;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-tool-ws-'));
  writeFileSync(join(workspace, 'notes.txt'), 'hello');
  h = await toolHarness({ workspace_root: workspace });
  await h.toolOk({ action: 'open', url: h.server.url('tool/tab.html'), wait_until: 'load' });
}, 180_000);

beforeEach(async () => {
  await h.run(`await tab.goto(${JSON.stringify(h.server.url('tool/tab.html'))}, { waitUntil: 'load' });`);
});

afterAll(async () => {
  await h?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const value = async (code: string, extra: Record<string, unknown> = {}) =>
  (await h.run(code, extra)).data.value as any;
const out = `return page.$eval('#out', (e) => e.textContent);`;
const failure = async (code: string, extra: Record<string, unknown> = {}) => {
  const o = await h.tool({ action: 'run', code, ...extra });
  expect(o.ok).toBe(false);
  return o.data as Record<string, any>;
};

describe('tab basics', () => {
  it('name, page, signal, url(), title()', async () => {
    const r = await value(
      `return [tab.name, typeof tab.page.goto, tab.page === page, tab.signal.aborted, tab.url(), await tab.title()]`,
    );
    expect(r).toEqual(['main', 'function', true, false, h.server.url('tool/tab.html'), 'Tab helpers']);
  });

  it('goto returns url and status, and refuses blocked schemes', async () => {
    expect(await value(`return tab.goto(${JSON.stringify(h.server.url('tool/article.html'))})`)).toEqual({
      url: h.server.url('tool/article.html'),
      status: 200,
    });
    expect((await failure(`await tab.goto('javascript:alert(1)')`)).error_code).toBe('url_blocked');
  });

  it('evaluate runs a function with arguments in the page', async () => {
    expect(await value(`return tab.evaluate((a, b) => document.title + a + b, '!', 1)`)).toBe(
      'Tab helpers!1',
    );
  });
});

describe('clicking with selectors', () => {
  it('CSS, text/ (through inner spans, skipping a hidden twin), aria/, xpath/, pierce/', async () => {
    expect(await value(`await tab.click('#signin'); ${out}`)).toBe('signed in');
    await h.run(`await page.$eval('#out', (e) => (e.textContent = ''))`);
    expect(await value(`await tab.click('text/Sign in'); ${out}`)).toBe('signed in');
    expect(await value(`await tab.click('aria/Bottom button'); ${out}`)).toBe('bottom clicked');
    expect(await value(`await tab.click('xpath///button[@id="signin"]'); ${out}`)).toBe('signed in');
    expect(await value(`await tab.click('pierce/#bottom'); ${out}`)).toBe('bottom clicked');
  });

  it('rewrites legacy p-text/ p-aria/ prefixes and refuses other p-… prefixes', async () => {
    expect(await value(`await tab.click('p-text/Sign in'); ${out}`)).toBe('signed in');
    expect(await value(`await tab.click('p-aria/Bottom button'); ${out}`)).toBe('bottom clicked');
    const e = await failure(`await tab.click('p-css/#signin')`);
    expect(e).toMatchObject({ error_code: 'invalid_request' });
    expect(e.message).toMatch(/Unsupported selector prefix "p-css\/"/);
  });

  it('a text/ match that stays covered times out with the run', async () => {
    const e = await failure(`await tab.click('text/Covered')`, { timeout: 2 });
    expect(e.error_code).toBe('timeout');
  });

  it('a selector that never matches times out', async () => {
    const e = await failure(`await tab.click('#does-not-exist')`, { timeout: 1 });
    expect(e.error_code).toBe('timeout');
  });
});

describe('typing and keys', () => {
  it('type appends, fill replaces (inputs and contenteditable)', async () => {
    const r = await value(`
      await tab.type('#name', ' new');
      const typed = await page.$eval('#name', (e) => e.value);
      await tab.fill('#name', 'Ada');
      await tab.fill(await page.$('#editor'), 'rewritten');
      return [typed, await page.$eval('#name', (e) => e.value), await page.$eval('#editor', (e) => e.textContent)];`);
    expect(r).toEqual(['old new', 'Ada', 'rewritten']);
  });

  it('press a key on an element, and a chord', async () => {
    const r = await value(`
      await tab.press('Enter', { selector: '#name' });
      const keys = await page.$eval('#keys', (e) => e.textContent);
      await tab.press('Control+A');
      await tab.press('Backspace');
      return [keys, await page.$eval('#name', (e) => e.value)];`);
    expect(r).toEqual(['enter on name', '']);
    expect((await failure(`await tab.press('Foo+A')`)).error_code).toBe('invalid_request');
  });
});

describe('scrolling and dragging', () => {
  it('scroll returns the new position; scrollIntoView brings an element on screen', async () => {
    const pos = await value('return tab.scroll(0, 600)');
    expect(pos.y).toBeGreaterThan(0);
    const seen = await value(`
      await tab.scrollIntoView('#bottom');
      return page.$eval('#bottom', (e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; });`);
    expect(seen).toBe(true);
  });

  it('drag moves the mouse from one element to another in steps', async () => {
    expect(await value(`await tab.drag('#src', '#dst'); ${out}`)).toMatch(
      /^dropped after (1[2-9]|[2-9]\d) moves$/,
    );
    expect((await failure(`await tab.drag('#src', { x: 1 })`)).error_code).toBe('invalid_request');
  });
});

describe('forms', () => {
  it('select by value or label fires change; refuses a non-select', async () => {
    expect(await value(`return tab.select('#plan', 'pro')`)).toEqual(['pro']);
    expect(await value(`await tab.select('#plan', 'Team'); ${out}`)).toBe('plan team');
    const e = await failure(`await tab.select('#name', 'x')`);
    expect(e.message).toMatch(/needs a <select> element \(got <input>\)/);
  });

  it('uploadFile takes workspace paths only, and file inputs only', async () => {
    expect(await value(`await tab.uploadFile('#file', 'notes.txt'); ${out}`)).toBe('file notes.txt');
    expect((await failure(`await tab.uploadFile('#file', '/etc/hostname')`)).error_code).toBe(
      'path_not_allowed',
    );
    expect((await failure(`await tab.uploadFile('#file', 'missing.txt')`)).error_code).toBe(
      'invalid_request',
    );
    expect((await failure(`await tab.uploadFile('#name', 'notes.txt')`)).message).toMatch(
      /input type="file"/,
    );
  });
});

describe('waiting', () => {
  it('waitFor resolves with the element once it appears', async () => {
    expect(
      await value(
        `await tab.click('#later'); const el = await tab.waitFor('#late'); return el.evaluate((e) => e.textContent)`,
      ),
    ).toBe('Late');
    expect((await failure(`await tab.waitFor('#never', { timeout: 300 })`)).error_code).toBe('timeout');
  });

  it('waitForUrl matches a substring or a RegExp, and times out', async () => {
    expect(await value(`await tab.click('#push'); return tab.waitForUrl('?step=2')`)).toBe(
      h.server.url('tool/tab.html?step=2'),
    );
    expect(await value(`return tab.waitForUrl(/step=\\d/)`)).toMatch(/step=2$/);
    const e = await failure(`await tab.waitForUrl('never-there', { timeout: 400 })`);
    expect(e.error_code).toBe('timeout');
    expect(e.message).toMatch(/did not match never-there within 400ms/);
  });

  it('waitForResponse returns the response whose URL matches', async () => {
    const r = await value(`
      await tab.click('#fetch');
      const res = await tab.waitForResponse('/echo');
      return { status: res.status(), body: await res.json() };`);
    expect(r).toMatchObject({ status: 200, body: { method: 'POST', body: 'hello' } });
    expect((await failure(`await tab.waitForResponse(/nothing/, { timeout: 300 })`)).error_code).toBe(
      'timeout',
    );
  });
});
