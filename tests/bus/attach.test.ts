/** browser::sessions::attach and browser::tabs::list on a person's running Chromium, with allow_attach. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDebugChromium, type DebugChromium } from '../chromium-process.js';
import { busEnv, type BusEnv } from './setup.js';

let env: BusEnv;
let person: DebugChromium;
beforeAll(async () => {
  env = await busEnv({ config: { allow_attach: true } });
  person = await startDebugChromium([env.server.url('bus/second.html')]);
  // the person's tab has loaded once its title is there
  await until(async () => {
    const list = (await (await fetch(`${person.cdpUrl}/json/list`)).json()) as { title: string }[];
    return list.some((t) => t.title === 'Second page');
  });
});

async function until(cond: () => Promise<boolean>): Promise<void> {
  for (const t0 = Date.now(); !(await cond()); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - t0 > 10_000) throw new Error('the debug Chromium did not load its page');
  }
}
afterAll(async () => {
  await env?.close();
  // Chromium may still be writing its profile right after SIGTERM: try the cleanup once more
  await person?.stop().catch(() => new Promise((r) => setTimeout(r, 500)).then(() => person.stop()));
});

describe('attach', () => {
  it('lists tabs, adopts one by URL substring, and releases it on stop', async () => {
    const tabs = await env.call('browser::tabs::list', { cdp_url: person.cdpUrl });
    expect(tabs.tabs.find((t: any) => t.url === env.server.url('bus/second.html'))).toMatchObject({
      adopted: false,
    });
    const a = await env.call('browser::sessions::attach', {
      cdp_url: person.cdpUrl,
      adopt_url_substring: 'second.html',
    });
    expect(a).toEqual({
      session_id: expect.any(String),
      url: env.server.url('bus/second.html'),
      read_only: false,
      adopted: true,
    });
    const after = await env.call('browser::tabs::list', { cdp_url: person.cdpUrl });
    expect(after.tabs.find((t: any) => t.url.includes('second.html')).adopted).toBe(true);
    expect((await env.call('browser::snapshot', { session_id: a.session_id })).tree).toMatch(
      /heading "Second" \[level=1\]/,
    );
    expect(await env.call('browser::sessions::stop', { session_id: a.session_id })).toEqual({
      ok: true,
      was_running: true,
    });
    const released = await env.call('browser::tabs::list', { cdp_url: person.cdpUrl });
    expect(released.tabs.find((t: any) => t.url.includes('second.html'))).toMatchObject({ adopted: false });
  });

  it('opens its own tab read-only; a second adoption of a held tab is refused', async () => {
    const own = await env.call('browser::sessions::attach', {
      cdp_url: person.cdpUrl,
      url: env.server.url('bus/form.html'),
      read_only: true,
    });
    expect(own).toMatchObject({ url: env.server.url('bus/form.html'), read_only: true, adopted: false });
    const held = await env.call('browser::sessions::attach', {
      cdp_url: person.cdpUrl,
      adopt_url_substring: 'second.html',
    });
    expect(
      (
        await env.fail('browser::sessions::attach', {
          cdp_url: person.cdpUrl,
          adopt_url_substring: 'second.html',
        })
      ).code,
    ).toBe('resource_limit');
    await env.call('browser::sessions::stop', { session_id: held.session_id });
    await env.call('browser::sessions::stop', { session_id: own.session_id });
  });
});
