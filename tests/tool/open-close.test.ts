/** The browser tool's open / close actions: reuse and recreation rules, dialogs, errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolState } from '../../src/core/tool/browser-tool.js';
import { eventually } from '../scale.js';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;

beforeAll(async () => {
  h = await toolHarness();
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const data = (o: { data: Record<string, unknown> }) => o.data as Record<string, any>;

describe('browser open', () => {
  it('opens a headless tab and navigates it', async () => {
    const o = await h.toolOk({ action: 'open', name: 'a', url: h.server.url('tool/tab.html') });
    expect(o.content).toBe(
      `Opened tab "a" on headless Chromium (brow)\nURL: ${h.server.url('tool/tab.html')}\nTitle: Tab helpers`,
    );
    expect(data(o)).toMatchObject({
      action: 'open',
      name: 'a',
      browser: 'headless',
      url: h.server.url('tool/tab.html'),
      title: 'Tab helpers',
      viewport: { width: 1365, height: 768, deviceScaleFactor: 1.25 },
      result: o.content,
    });
  });

  it('reuses a live tab of the same name, navigating when a url is given, keeping its state', async () => {
    await h.run('await page.evaluate(() => { window.__mark = 42; });', { name: 'a' });
    const same = await h.toolOk({ action: 'open', name: 'a' });
    expect(same.content).toMatch(/^Reused tab "a"/);
    expect((await h.run('return page.evaluate(() => window.__mark)', { name: 'a' })).content).toBe('42');
    const moved = await h.toolOk({
      action: 'open',
      name: 'a',
      url: h.server.url('tool/article.html'),
      wait_until: 'load',
    });
    expect(moved.content).toMatch(
      /^Reused tab "a" on headless Chromium \(brow\)\nURL: .*article\.html\nTitle: Field notes/,
    );
    expect(data(moved).url).toBe(h.server.url('tool/article.html'));
  });

  it('applies a viewport with scale on open and on reuse', async () => {
    const o = await h.toolOk({ action: 'open', name: 'vp', viewport: { width: 800, height: 600, scale: 2 } });
    expect(data(o).viewport).toEqual({ width: 800, height: 600, deviceScaleFactor: 2 });
    expect(
      (await h.run('return page.evaluate(() => [innerWidth, innerHeight, devicePixelRatio])', { name: 'vp' }))
        .content,
    ).toBe(JSON.stringify([800, 600, 2], null, 2));
    const again = await h.toolOk({ action: 'open', name: 'vp', viewport: { width: 640, height: 480 } });
    expect(again.content).toMatch(/^Reused/);
    expect((await h.run('return page.evaluate(() => innerWidth)', { name: 'vp' })).content).toBe('640');
    await h.toolOk({ action: 'close', name: 'vp' });
  });

  it('recreates the tab when the dialog policy changes', async () => {
    await h.toolOk({ action: 'open', name: 'd', url: h.server.url('tool/dialogs.html'), dialogs: 'accept' });
    await h.run('await page.evaluate(() => { window.__mark = 1; });', { name: 'd' });
    const again = await h.toolOk({
      action: 'open',
      name: 'd',
      url: h.server.url('tool/dialogs.html'),
      dialogs: 'dismiss',
    });
    expect(again.content).toMatch(/^Opened tab "d"/);
    expect((await h.run('return page.evaluate(() => window.__mark ?? null)', { name: 'd' })).content).toBe(
      'null',
    );
  });

  it('accepts dialogs (confirm true, prompt default) under dialogs: "accept"', async () => {
    await h.toolOk({
      action: 'open',
      name: 'acc',
      url: h.server.url('tool/dialogs.html'),
      dialogs: 'accept',
    });
    const r = await h.run(
      `await page.click('#confirm'); const a = await page.$eval('#out', (e) => e.textContent);
       await page.click('#prompt'); const b = await page.$eval('#out', (e) => e.textContent);
       await page.click('#alert'); const c = await page.$eval('#out', (e) => e.textContent);
       return [a, b, c];`,
      { name: 'acc' },
    );
    expect(data(r).value).toEqual(['confirm true', 'prompt default name', 'alert done']);
  });

  it('dismisses dialogs under dialogs: "dismiss"', async () => {
    await h.toolOk({
      action: 'open',
      name: 'dis',
      url: h.server.url('tool/dialogs.html'),
      dialogs: 'dismiss',
    });
    const r = await h.run(
      `await page.click('#confirm'); const a = await page.$eval('#out', (e) => e.textContent);
       await page.click('#prompt'); return [a, await page.$eval('#out', (e) => e.textContent)];`,
      { name: 'dis' },
    );
    expect(data(r).value).toEqual(['confirm false', 'prompt null']);
  });

  it('refuses URLs outside the allowed schemes', async () => {
    const o = await h.tool({ action: 'open', name: 'bad', url: 'file:///etc/passwd' });
    expect(o.ok).toBe(false);
    expect(data(o).error_code).toBe('url_blocked');
  });

  it('fails with navigation_failed for an unreachable URL and keeps no tab', async () => {
    // (the default 30 s: a refused connection fails at once, but a tab's worker starts slowly on a loaded machine)
    const o = await h.tool({ action: 'open', name: 'dead', url: 'http://127.0.0.1:9/' });
    expect(o.ok).toBe(false);
    expect(data(o).error_code).toBe('navigation_failed');
    expect((await h.toolOk({ action: 'close', name: 'dead' })).content).toBe('No tab named "dead"');
  });

  it('refuses app.path and app.cdp_url unless allow_attach', async () => {
    for (const app of [{ path: '/usr/bin/chromium' }, { cdp_url: 'http://127.0.0.1:9222' }]) {
      const o = await h.tool({ action: 'open', name: 'x', app });
      expect(data(o).error_code).toBe('attach_disabled');
    }
  });

  it('rejects unknown fields and bad enums through the schema', async () => {
    expect(data(await h.tool({ action: 'jump' })).error_code).toBe('invalid_request');
    expect(data(await h.tool({ action: 'open', colour: 'red' })).error_code).toBe('invalid_request');
  });
});

describe('browser run / close errors', () => {
  it("fails without code: Missing required parameter 'code' for action 'run'.", async () => {
    for (const code of [undefined, '   ']) {
      const o = await h.tool({ action: 'run', name: 'a', ...(code === undefined ? {} : { code }) });
      expect(data(o).error_code).toBe('invalid_request');
      expect(data(o).message).toBe("Missing required parameter 'code' for action 'run'.");
    }
  });

  it('fails on a tab that does not exist: Tab "x" is not alive. Reopen it.', async () => {
    const o = await h.tool({ action: 'run', name: 'nope', code: 'return 1' });
    expect(data(o)).toMatchObject({
      error_code: 'page_closed',
      message: 'Tab "nope" is not alive. Reopen it.',
    });
  });

  it('fails on a busy tab: Tab "x" is busy', async () => {
    await h.toolOk({ action: 'open', name: 'busy' });
    const slow = h.run('await wait(800); return "slow done"', { name: 'busy' });
    const tab = toolState(h.rt.core).tabs.get('busy')!;
    expect(await eventually(() => tab.worker.busy, 10_000), 'the slow run to hold the tab').toBe(true);
    const o = await h.tool({ action: 'run', name: 'busy', code: 'return 1' });
    expect(data(o)).toMatchObject({ error_code: 'resource_limit', message: 'Tab "busy" is busy' });
    expect((await slow).content).toBe('slow done');
    expect((await h.run('return 2', { name: 'busy' })).content).toBe('2');
  });

  it('closes one tab by name, then says there is none', async () => {
    await h.toolOk({ action: 'open', name: 'c1' });
    const pagesBefore = (await (await h.rt.core.sharedBrowser()).pages()).length;
    const o = await h.toolOk({ action: 'close', name: 'c1' });
    expect(o.content).toBe('Closed tab "c1"');
    expect(data(o)).toMatchObject({ action: 'close', name: 'c1', result: 'Closed tab "c1"' });
    expect((await (await h.rt.core.sharedBrowser()).pages()).length).toBe(pagesBefore - 1);
    expect((await h.toolOk({ action: 'close', name: 'c1' })).content).toBe('No tab named "c1"');
    expect(data(await h.tool({ action: 'run', name: 'c1', code: 'return 1' })).error_code).toBe(
      'page_closed',
    );
  });

  it('closes every tab with all: true', async () => {
    await h.toolOk({ action: 'open', name: 'x1' });
    await h.toolOk({ action: 'open', name: 'x2' });
    const o = await h.toolOk({ action: 'close', all: true });
    expect(o.content).toMatch(/^Closed \d+ tabs$/);
    expect(Number(/\d+/.exec(o.content)![0])).toBeGreaterThanOrEqual(2);
    expect((await h.toolOk({ action: 'close', all: true })).content).toBe('Closed 0 tabs');
    // the browser tool still works after closing everything
    await h.toolOk({ action: 'open', name: 'after' });
    expect((await h.run('return 3', { name: 'after' })).content).toBe('3');
  });
});
