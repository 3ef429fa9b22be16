/** action "run": output order and coercion, errors, the VM's globals, timeouts and killing a stuck worker. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolState } from '../../src/core/tool/browser-tool.js';
import { eventually, scaled } from '../scale.js';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;

beforeAll(async () => {
  h = await toolHarness();
  await h.toolOk({ action: 'open', url: h.server.url('tool/tab.html'), wait_until: 'load' });
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const failure = async (code: string, extra: Record<string, unknown> = {}) => {
  const o = await h.tool({ action: 'run', code, ...extra });
  expect(o.ok).toBe(false);
  return o.data as Record<string, any>;
};

describe('run output', () => {
  it('every display() in order, then the return value (JSON unless a string)', async () => {
    const o = await h.run(`display('first'); display({ a: 1 }); display([1, 2]); return { done: true };`);
    expect(o.content).toBe(['first', '{\n  "a": 1\n}', '[\n  1,\n  2\n]', '{\n  "done": true\n}'].join('\n'));
    expect(o.data).toMatchObject({
      action: 'run',
      name: 'main',
      browser: 'headless',
      value: { done: true },
      result: o.content,
    });
    expect((await h.run(`display('x'); return 'plain string';`)).content).toBe('x\nplain string');
  });

  it('nothing displayed or returned → Ran code on tab "main"', async () => {
    const o = await h.run('await tab.title();');
    expect(o.content).toBe('Ran code on tab "main"');
    expect(o.data.value).toBeUndefined();
  });

  it('image displays become images; unserialisable values become strings', async () => {
    const o = await h.run(`
      display({ type: 'image', data: Buffer.from('fake').toString('base64'), mimeType: 'image/png' });
      const loop = {}; loop.self = loop; display(loop);
      return await page.$('#save');`);
    expect(o.images).toEqual([{ data: Buffer.from('fake').toString('base64'), mimeType: 'image/png' }]);
    expect(o.content).toBe('[object Object]\nJSHandle@node');
  });

  it('console output goes to the logs, not the output', async () => {
    const o = await h.run(`console.log('hidden'); console.error('also hidden'); return 'shown';`);
    expect(o.content).toBe('shown');
  });

  it('exposes the documented globals and nothing of Node beyond them', async () => {
    const o = await h.run(`
      const u = new URL('https://a.example/x?q=1');
      return {
        url: u.searchParams.get('q'),
        params: new URLSearchParams('a=2').get('a'),
        enc: new TextDecoder().decode(new TextEncoder().encode('ok')),
        buf: Buffer.from('hi').toString('hex'),
        timers: [typeof setTimeout, typeof clearTimeout, typeof setInterval, typeof clearInterval],
        require: typeof require, process: typeof process,
        waited: await wait(10).then(() => true),
        asserted: (assert(1 === 1, 'never'), true),
      };`);
    expect(o.data.value).toEqual({
      url: '1',
      params: '2',
      enc: 'ok',
      buf: '6869',
      timers: ['function', 'function', 'function', 'function'],
      require: 'undefined',
      process: 'undefined',
      waited: true,
      asserted: true,
    });
  });

  it('every run gets a fresh context', async () => {
    await h.run('globalThis.leftover = 1;');
    expect((await h.run('return typeof leftover')).content).toBe('undefined');
  });
});

describe('run errors', () => {
  it('a thrown error is script_error with its type and the line in the code', async () => {
    const e = await failure(`const a = 1;\nnull.x;`);
    expect(e.error_code).toBe('script_error');
    expect(e.message).toMatch(
      /^TypeError: Cannot read properties of null \(reading 'x'\) \(code line 2, column \d+\)$/,
    );
  });

  it('assert() failures carry their message', async () => {
    const e = await failure(`assert(false, 'the form is missing');`);
    expect(e).toMatchObject({ error_code: 'script_error' });
    expect(e.message).toMatch(/^the form is missing/);
  });

  it('code that does not parse is script_error', async () => {
    const e = await failure('return (;');
    expect(e.error_code).toBe('script_error');
    expect(e.message).toMatch(/^The code does not parse/);
  });

  it('page errors thrown by evaluate are script_error', async () => {
    const e = await failure(`await page.evaluate(() => { throw new RangeError('in page'); });`);
    expect(e.error_code).toBe('script_error');
    expect(e.message).toMatch(/in page/);
  });
});

describe('timeouts', () => {
  it('an async run past its timeout is aborted; the tab stays usable', async () => {
    const started = Date.now();
    const e = await failure('await wait(20000);', { timeout: 1 });
    expect(e).toMatchObject({
      error_code: 'timeout',
      message: 'Browser code execution timed out after 1000ms',
    });
    // the 1 s timeout fired, not the 20 s wait's end: the rest of the bound is the machine's
    expect(Date.now() - started).toBeLessThan(Math.min(1000 + scaled(4000), 15_000));
    expect((await h.run('return tab.url()')).content).toBe(h.server.url('tool/tab.html'));
  });

  it('the timeout is clamped to 1..30 seconds', async () => {
    const e = await failure('await wait(5000);', { timeout: 0.01 });
    expect(e.message).toBe('Browser code execution timed out after 1000ms');
  });

  it('a synchronous loop is killed at timeout + 750 ms grace; the tab is dead, brow stays healthy', async () => {
    const browser = await h.rt.core.sharedBrowser();
    const targetsBefore = (await browser.pages()).length;
    const started = Date.now();
    const e = await failure('while (true) {}', { timeout: 1 });
    const took = Date.now() - started;
    expect(e).toMatchObject({
      error_code: 'timeout',
      message: 'Browser code execution hung past grace; tab killed',
    });
    expect(took).toBeGreaterThanOrEqual(1700);
    expect(took).toBeLessThan(1750 + scaled(4250));
    expect((await failure('return 1')).message).toBe('Tab "main" is not alive. Reopen it.');
    // the killed tab's headless page was closed
    await expect.poll(async () => (await browser.pages()).length).toBe(targetsBefore - 1);
    // the process and other doors still work: a brow session and a new tab
    const page = await h.open('tool/tab.html');
    expect(page).toMatch(/.+/);
    const o = await h.toolOk({ action: 'open', url: h.server.url('tool/tab.html') });
    expect(o.content).toMatch(/^Opened tab "main"/);
    expect((await h.run('return 1 + 1')).content).toBe('2');
  });

  it('a tab stuck in a loop does not hold up new pages elsewhere in the browser', async () => {
    await h.toolOk({ action: 'open', name: 'spin' });
    // the loop runs for 10 s before the run gives up on it: the new page must open before that,
    // however loaded the machine is (an order, not a time bound)
    const order: string[] = [];
    const stuck = h
      .tool({ action: 'run', name: 'spin', code: 'console.log("looping"); while (true) {}', timeout: 10 })
      .finally(() => order.push('stuck run ended'));
    // the run's log line, sent just before the loop, has reached the tab
    const tab = toolState(h.rt.core).tabs.get('spin')!;
    expect(await eventually(() => tab.logs.includes('[info] looping'), 10_000), 'the loop to start').toBe(
      true,
    );
    await h.open('tool/tab.html');
    order.push('new page open');
    expect((await stuck).ok).toBe(false);
    expect(order).toEqual(['new page open', 'stuck run ended']);
  });

  it('a tab whose page closes is dead: runs say so, open starts it again', async () => {
    await h.toolOk({ action: 'open', name: 'short' });
    const closed = await h.tool({ action: 'run', name: 'short', code: 'await page.close();' });
    expect(closed.data).toMatchObject({
      error_code: 'page_closed',
      message: 'The page of this tab was closed.',
    });
    await expect
      .poll(async () => (await h.tool({ action: 'run', name: 'short', code: 'return 1' })).data.message)
      .toBe('Tab "short" is not alive. Reopen it.');
    expect((await h.toolOk({ action: 'open', name: 'short' })).content).toMatch(/^Opened tab "short"/);
    expect((await h.run('return 7', { name: 'short' })).content).toBe('7');
  });
});
