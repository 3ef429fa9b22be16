/** app.cdp_url (a second Chromium this test starts) and app.path (brow spawns /usr/bin/chromium); close with all / kill. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolHarness, type ToolHarness } from './helpers.js';
import { scaled } from '../scale.js';

let h: ToolHarness;
let cdpDir: string;
let appDir: string;
let other: ChildProcess;
let cdpUrl: string;

const HEADLESS_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/** Chromium processes whose command line names this profile dir. */
function pgrep(dir: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', dir], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function waitFor<T>(what: string, fn: () => T | null | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + scaled(ms);
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  h = await toolHarness({ allow_attach: true });
  cdpDir = mkdtempSync(join(tmpdir(), 'brow-tool-cdp-'));
  appDir = mkdtempSync(join(tmpdir(), 'brow-tool-app-'));
  other = spawn(
    '/usr/bin/chromium',
    [
      ...HEADLESS_ARGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${cdpDir}`,
      h.server.url('tool/tab.html'),
    ],
    {
      stdio: 'ignore',
    },
  );
  const portFile = join(cdpDir, 'DevToolsActivePort');
  const port = await waitFor('DevToolsActivePort', () =>
    existsSync(portFile) ? readFileSync(portFile, 'utf8').split('\n')[0] : null,
  );
  cdpUrl = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  await h?.close();
  other?.kill('SIGKILL');
  await waitFor('the test Chromium to exit', () => pgrep(cdpDir).length === 0 || null, 10_000).catch(
    () => undefined,
  );
  for (const pid of pgrep(appDir)) process.kill(pid, 'SIGKILL');
  rmSync(cdpDir, { recursive: true, force: true });
  rmSync(appDir, { recursive: true, force: true });
});

describe('app.cdp_url (connected)', () => {
  it('attaches to a page of a running browser, unpatched', async () => {
    const o = await h.toolOk({ action: 'open', name: 'cdp', app: { cdp_url: `${cdpUrl}/` } });
    expect(o.content).toBe(
      `Opened tab "cdp" on connected ${cdpUrl}\nURL: ${h.server.url('tool/tab.html')}\nTitle: Tab helpers`,
    );
    expect(o.data).toMatchObject({ browser: 'connected', url: h.server.url('tool/tab.html') });
    const r = await h.run(
      `return { ua: await page.evaluate(() => navigator.userAgent), n: (await tab.observe()).elements.length };`,
      { name: 'cdp' },
    );
    const v = r.data.value as { ua: string; n: number };
    // never patched: this Chromium still says HeadlessChrome
    expect(v.ua).toMatch(/HeadlessChrome/);
    expect(v.n).toBeGreaterThan(5);
  });

  it('picks the page by app.target, and lists the pages when nothing matches', async () => {
    await h.toolOk({
      action: 'run',
      name: 'cdp',
      code: `await browser.newPage().then((p) => p.goto(${JSON.stringify(h.server.url('tool/article.html'))}));`,
    });
    const o = await h.toolOk({
      action: 'open',
      name: 'cdp2',
      app: { cdp_url: cdpUrl, target: 'TIDE POOLS' },
    });
    expect(o.content).toMatch(/URL: .*article\.html/);
    const bad = await h.tool({
      action: 'open',
      name: 'cdp3',
      app: { cdp_url: cdpUrl, target: 'no such page' },
    });
    expect(bad.data).toMatchObject({ error_code: 'invalid_request' });
    expect(String(bad.data.message)).toMatch(/^No page target matched "no such page"\. Available pages:\n- /);
  });

  it('refuses to rebind a tab name to another browser', async () => {
    const o = await h.tool({ action: 'open', name: 'cdp' });
    expect(o.data).toMatchObject({
      error_code: 'invalid_request',
      message: `Tab "cdp" is bound to a different browser (connected ${cdpUrl}). Close it first.`,
    });
  });

  it('fails clearly when nothing listens at the CDP URL', async () => {
    const o = await h.tool({
      action: 'open',
      name: 'nobody',
      app: { cdp_url: 'http://127.0.0.1:9' },
      timeout: 10,
    });
    expect(o.data.error_code).toBe('connection_failed');
    expect(String(o.data.message)).toMatch(/^Timed out waiting for CDP endpoint http:\/\/127\.0\.0\.1:9/);
  });

  it('close (even with kill) only disconnects: the browser and its pages stay', async () => {
    expect((await h.toolOk({ action: 'close', name: 'cdp', kill: true })).content).toBe('Closed tab "cdp"');
    expect((await h.toolOk({ action: 'close', name: 'cdp2', kill: true })).content).toBe('Closed tab "cdp2"');
    const pages = (await (await fetch(`${cdpUrl}/json/list`)).json()) as Array<{ url: string }>;
    expect(pages.map((p) => p.url)).toContain(h.server.url('tool/tab.html'));
    expect(pgrep(cdpDir).length).toBeGreaterThan(0);
  });
});

describe('app.path (spawned)', () => {
  const app = () => ({ path: '/usr/bin/chromium', args: [...HEADLESS_ARGS, `--user-data-dir=${appDir}`] });

  it('spawns the executable with remote debugging and attaches, unpatched', async () => {
    const o = await h.toolOk({
      action: 'open',
      name: 'app',
      app: app(),
      url: h.server.url('tool/article.html'),
    });
    expect(o.content).toMatch(
      /^Opened tab "app" on spawned \/usr\/bin\/chromium \(pid \d+\)\nURL: .*article\.html\nTitle: Field notes/,
    );
    expect(o.data.browser).toBe('spawned');
    expect(pgrep(appDir).length).toBeGreaterThan(0);
    const ua = await h.run('return page.evaluate(() => navigator.userAgent)', { name: 'app' });
    expect(String(ua.data.value)).toMatch(/HeadlessChrome/);
  });

  it('a second tab on the same app shares the process; closing without kill leaves it running', async () => {
    const first = (await h.toolOk({ action: 'open', name: 'app', app: app() })).content;
    expect(first).toMatch(/^Reused tab "app"/);
    const second = (await h.toolOk({ action: 'open', name: 'app-b', app: app() })).content;
    const pid = (s: string) => /pid (\d+)/.exec(s)?.[1];
    expect(pid(second)).toBe(pid(first));
    await h.toolOk({ action: 'close', name: 'app-b' });
    await h.toolOk({ action: 'close', name: 'app' });
    expect(pgrep(appDir).length).toBeGreaterThan(0);
    // reopening finds the running app again instead of starting another
    const again = (await h.toolOk({ action: 'open', name: 'app', app: app() })).content;
    expect(pid(again)).toBe(pid(first));
  });

  it('refuses a path that is not an executable file', async () => {
    const o = await h.tool({ action: 'open', name: 'nope', app: { path: '/usr/share' } });
    expect(o.data).toMatchObject({ error_code: 'invalid_request' });
    expect(String(o.data.message)).toMatch(/is not an executable file/);
  });

  it('close all with kill ends the spawned app: no Chromium of this profile is left', async () => {
    await h.toolOk({ action: 'open', name: 'headless-too' });
    const o = await h.toolOk({ action: 'close', all: true, kill: true });
    expect(o.content).toBe('Closed 2 tabs');
    await waitFor('the spawned app to exit', () => pgrep(appDir).length === 0 || null, 15_000);
    expect(pgrep(appDir)).toEqual([]);
    // the headless browser tool still works afterwards
    await h.toolOk({ action: 'open', name: 'later' });
    expect((await h.run('return 5', { name: 'later' })).content).toBe('5');
  });
});
