/**
 * One owner of every Chromium brow holds (core/browser/hosts.ts): a core session attached to a CDP
 * URL and a `browser` tool tab connected to it share one connection, and closing brow ends every
 * browser brow launched before close() returns.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolState } from '../../src/core/tool/browser-tool.js';
import { chromiumUnder, listTargets, startDebugChromium, type DebugChromium } from '../chromium-process.js';
import { eventually } from '../scale.js';
import { toolHarness, type ToolHarness } from '../tool/helpers.js';

/** Is this process running (a zombie waiting for its parent counts as gone)? */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('one connection per CDP URL', () => {
  let h: ToolHarness;
  let person: DebugChromium;
  beforeAll(async () => {
    h = await toolHarness({ allow_attach: true });
    person = await startDebugChromium([h.server.url('core/form.html')]);
    // the tab the tool connects to has its title (a loaded machine loads it late; the test reads it)
    const loaded = await eventually(
      async () => (await listTargets(person.cdpUrl)).some((t) => t.title === 'Form fixture'),
      30_000,
    );
    if (!loaded) throw new Error("the person's browser did not load form.html");
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    await person?.stop();
  });

  it('a session attached to a URL and a tool tab connected to it hold the same connection', async () => {
    const holds = () => h.rt.core.hosts.holds();
    const key = `attached:${person.cdpUrl}`;
    const a = await h.ok('browser_attach_session', { cdp_url: person.cdpUrl });
    expect(await holds()).toEqual([{ key, refs: 1, describe: `connected ${person.cdpUrl}` }]);

    await h.toolOk({
      action: 'open',
      name: 'cdp',
      app: { cdp_url: `${person.cdpUrl}/`, target: 'form.html' },
    });
    expect(await holds()).toEqual([{ key, refs: 2, describe: `connected ${person.cdpUrl}` }]);
    const tab = toolState(h.rt.core).tabs.get('cdp')!;
    expect(tab.handle.host).toBe(h.rt.core.session(a.session_id).host);

    // the session's end leaves the tab its connection
    await h.ok('browser_stop_session', { session_id: a.session_id });
    expect((await holds()).map((x) => x.refs)).toEqual([1]);
    expect((await h.run('return await page.title()', { name: 'cdp' })).content).toBe('Form fixture');

    // the last holder disconnects; the person's browser stays
    await h.toolOk({ action: 'close', name: 'cdp', kill: true });
    expect(await holds()).toEqual([]);
    expect((await listTargets(person.cdpUrl)).some((t) => t.url.includes('form.html'))).toBe(true);
  });
});

describe('closing brow', () => {
  const appDir = mkdtempSync(join(tmpdir(), 'brow-hosts-app-'));
  let appPid = 0;
  afterAll(() => {
    if (appPid) {
      try {
        process.kill(-appPid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(appDir, { recursive: true, force: true });
  });

  it('ends every Chromium brow launched before close() returns; an app the tool spawned is let go, running', async () => {
    const h = await toolHarness({ allow_attach: true, max_sessions: 4 });
    const shared = (await h.ok('browser_start_session')).session_id as string;
    h.rt.updateConfig({ process_per_session: true });
    const own = (await h.ok('browser_start_session')).session_id as string;
    await h.toolOk({ action: 'open', name: 'headless' });
    const args = [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--user-data-dir=${appDir}`,
    ];
    await h.toolOk({ action: 'open', name: 'app', app: { path: '/usr/bin/chromium', args } });

    const launched = [shared, own].map((id) => h.rt.core.session(id).host.browser.process()?.pid ?? 0);
    expect(new Set(launched).size).toBe(2);
    expect(launched.every((pid) => pid > 0 && running(pid))).toBe(true);
    const helpers = launched.flatMap((pid) => chromiumUnder(pid));
    expect(helpers.length).toBeGreaterThan(0);
    const app = (await h.rt.core.hosts.holds()).find((x) => x.key === 'app:/usr/bin/chromium');
    appPid = app?.pid ?? 0;
    expect(appPid).toBeGreaterThan(0);

    await h.close();
    expect(launched.filter(running)).toEqual([]);
    expect(await eventually(() => helpers.filter(running).length === 0, 5000)).toBe(true);
    expect(await h.rt.core.hosts.holds()).toEqual([]);
    // the tool ends an app only when asked (close with kill); brow's end only lets go of it
    expect(running(appPid)).toBe(true);
    expect(execFileSync('pgrep', ['-f', appDir], { encoding: 'utf8' }).trim()).not.toBe('');
  });
});
