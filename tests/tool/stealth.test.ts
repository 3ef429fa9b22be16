/** Headless tabs pass the usual headless checks of a fixture page of ours (tests/fixtures/pages/tool/headless-checks.html). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;

beforeAll(async () => {
  h = await toolHarness();
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe('stealth (headless tabs)', () => {
  it('every check of the fixture passes', async () => {
    await h.toolOk({ action: 'open', url: h.server.url('tool/headless-checks.html') });
    const o = await h.run('return page.evaluate(() => window.headlessChecks);');
    const checks = o.data.value as Record<string, { pass: boolean; detail: string }>;
    expect(Object.keys(checks).sort()).toEqual(
      [
        'activity',
        'audio',
        'hairline',
        'platform',
        'chrome',
        'codecs',
        'hardwareConcurrency',
        'iframe',
        'languages',
        'nativeFunctions',
        'permissions',
        'plugins',
        'screen',
        'timezone',
        'userAgent',
        'webdriver',
        'webgl',
        'workerUserAgent',
      ].sort(),
    );
    const failed = Object.entries(checks).filter(([, c]) => !c.pass);
    expect(failed).toEqual([]);
    // the page prints the same verdicts
    const printed = await h.run(`return page.$$eval('#results li', (lis) => lis.map((li) => li.className));`);
    expect(new Set(printed.data.value as string[])).toEqual(new Set(['pass']));
  });

  it("strips puppeteer's sourceURL marker from evaluated code", async () => {
    const o = await h.run(`return page.evaluate(() => new Error('probe').stack);`);
    expect(String(o.data.value)).not.toMatch(/pptr:|__puppeteer_evaluation_script__/);
  });

  it('the user agent carries no HeadlessChrome, in request headers either', async () => {
    h.server.route('/ua', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(String(req.headers['user-agent']));
    });
    const o = await h.run(`
      await tab.goto(${JSON.stringify(h.server.url('ua'))});
      return { header: await page.evaluate(() => document.body.innerText), js: await page.evaluate(() => navigator.userAgent) };`);
    const { header, js } = o.data.value as { header: string; js: string };
    expect(header).toBe(js);
    expect(js).toMatch(/ Chrome\/\d+/);
    expect(js).not.toMatch(/Headless/i);
  });

  it('brow sessions (not the browser tool) are left alone', async () => {
    const pageId = await h.open('tool/headless-checks.html');
    const o = await h.ok('browser_evaluate', { page_id: pageId, expression: 'navigator.userAgent' });
    expect(JSON.stringify(o)).toMatch(/HeadlessChrome/);
  });
});
