/** browser_emulate: what a page sees after emulating a device and an environment, and after reset. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const evaluate = async (pageId: string, expression: string) =>
  (await h.ok('browser_evaluate', { page_id: pageId, expression })).value;
const env = (pageId: string) => evaluate(pageId, 'env()');

/** A session of its own per test, so emulation never leaks between tests. */
async function freshPage() {
  const s = await h.ok('browser_start_session', {});
  const pageId = (
    await h.ok('browser_open_page', { session_id: s.session_id, url: h.server.url('network/env.html') })
  ).page_id as string;
  return { sessionId: s.session_id as string, pageId };
}

describe('browser_emulate', () => {
  it('a device preset sets viewport, DPR, touch and user agent, on open pages and later ones; reset restores', async () => {
    const { sessionId, pageId } = await freshPage();
    const before = await env(pageId);
    const r = await h.ok('browser_emulate', { page_id: pageId, device: 'iphone 15 pro' });
    expect(r.emulation.device).toBe('iPhone 15 Pro');
    expect(r.__content).toContain('device: iPhone 15 Pro');
    const seen = await env(pageId);
    expect(seen).toMatchObject({ width: 393, dpr: 3, coarse: true });
    expect(seen.touch_points).toBeGreaterThan(0);
    expect(seen.ua).toMatch(/iPhone/);

    const later = (
      await h.ok('browser_open_page', { session_id: sessionId, url: h.server.url('network/env.html') })
    ).page_id as string;
    expect(await env(later)).toMatchObject({ width: 393, dpr: 3 });

    // explicit fields refine the device
    await h.ok('browser_emulate', { page_id: pageId, viewport: { width: 500 }, user_agent: 'BrowTest/1.0' });
    expect(await env(pageId)).toMatchObject({ width: 500, dpr: 3, ua: 'BrowTest/1.0' });

    await h.ok('browser_emulate', { page_id: pageId, reset: true });
    const after = await env(pageId);
    expect(after).toMatchObject({
      width: before.width,
      dpr: before.dpr,
      ua: before.ua,
      coarse: before.coarse,
    });
    await h.ok('browser_stop_session', { session_id: sessionId });
  });

  it('timezone, locale, color scheme and reduced motion; calls merge; reset restores', async () => {
    const { sessionId, pageId } = await freshPage();
    const before = await env(pageId);
    await h.ok('browser_emulate', { page_id: pageId, timezone: 'Asia/Tokyo', locale: 'de-DE' });
    const r = await h.ok('browser_emulate', {
      page_id: pageId,
      color_scheme: 'dark',
      reduced_motion: 'reduce',
    });
    expect(r.emulation).toMatchObject({ timezone: 'Asia/Tokyo', locale: 'de-DE', color_scheme: 'dark' });
    // navigator.language follows on the next document (it is read when the document starts)
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('network/env.html') });
    expect(await env(pageId)).toMatchObject({
      timezone: 'Asia/Tokyo',
      language: 'de-DE',
      intl_locale: 'de-DE',
      dark: true,
      reduced_motion: true,
    });
    await h.ok('browser_emulate', { page_id: pageId, reset: true });
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('network/env.html') });
    expect(await env(pageId)).toMatchObject({
      timezone: before.timezone,
      language: before.language,
      dark: before.dark,
      reduced_motion: before.reduced_motion,
    });
    await h.ok('browser_stop_session', { session_id: sessionId });
  });

  it('timezone and locale reach an out-of-process iframe', async () => {
    const { sessionId, pageId } = await freshPage();
    await h.ok('browser_emulate', { page_id: pageId, timezone: 'America/Sao_Paulo', locale: 'pt-BR' });
    const src = `${h.server.crossOrigin}/network/env.html`;
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/frames.html?src=${encodeURIComponent(src)}`),
    });
    const raw = h.rt.core.findPage(pageId)!.raw;
    let frame = raw.frames().find((f) => f.url().startsWith(h.server.crossOrigin));
    await eventually(
      () => !!(frame = raw.frames().find((f) => f.url().startsWith(h.server.crossOrigin))),
      5000,
      100,
    );
    expect((frame as any).client).not.toBe((raw.mainFrame() as any).client);
    await frame!.waitForFunction('typeof env === "function"');
    expect(await frame!.evaluate('env()')).toMatchObject({
      timezone: 'America/Sao_Paulo',
      language: 'pt-BR',
      intl_locale: 'pt-BR',
    });
    await h.ok('browser_stop_session', { session_id: sessionId });
  });

  it('geolocation with its permission; reset takes both away', async () => {
    const { sessionId, pageId } = await freshPage();
    await h.ok('browser_emulate', {
      page_id: pageId,
      geolocation: { latitude: 48.8584, longitude: 2.2945, accuracy: 25 },
    });
    expect(await evaluate(pageId, 'position()')).toEqual({
      latitude: 48.8584,
      longitude: 2.2945,
      accuracy: 25,
    });
    await h.ok('browser_emulate', { page_id: pageId, reset: true });
    const perm = await evaluate(
      pageId,
      "navigator.permissions.query({name: 'geolocation'}).then(p => p.state)",
    );
    expect(perm).not.toBe('granted');
    await h.ok('browser_stop_session', { session_id: sessionId });
  });

  it('network presets: offline fails fetches, none restores; CPU throttling is accepted', async () => {
    const { sessionId, pageId } = await freshPage();
    const r = await h.ok('browser_emulate', { page_id: pageId, network: 'offline', cpu_throttling: 4 });
    expect(r.emulation).toMatchObject({ network: 'offline', cpu_throttling: 4 });
    expect((await evaluate(pageId, "get('/network/env.html')")).error).toMatch(/Failed to fetch/);
    await h.ok('browser_emulate', { page_id: pageId, network: 'Fast 3G' });
    expect(await evaluate(pageId, "get('/network/env.html')")).toEqual({ status: 200 });
    const none = await h.ok('browser_emulate', { page_id: pageId, network: 'none', cpu_throttling: 1 });
    expect(none.emulation.network).toBeUndefined();
    await h.ok('browser_stop_session', { session_id: sessionId });
  });

  it('refuses bad input with a hint', async () => {
    const { sessionId, pageId } = await freshPage();
    const device = await h.err('browser_emulate', { page_id: pageId, device: 'Nokia 3310' });
    expect(device.code).toBe('invalid_request');
    expect(device.content).toMatch(/Unknown device "Nokia 3310"/);
    expect(device.content).toMatch(/"Nokia (N9|Lumia 520)"/);
    const tz = await h.err('browser_emulate', { page_id: pageId, timezone: 'Mars/Olympus' });
    expect(tz.code).toBe('invalid_request');
    expect(tz.content).toMatch(/IANA/);
    const perm = await h.err('browser_emulate', { page_id: pageId, permissions: ['telepathy'] });
    expect(perm.code).toBe('invalid_request');
    expect(perm.content).toMatch(/Unknown permission "telepathy".*notifications/s);
    const locale = await h.err('browser_emulate', { page_id: pageId, locale: 'not a locale!' });
    expect(locale.code).toBe('invalid_request');
    for (const bad of [
      { viewport: { width: 10 } },
      { cpu_throttling: 500 },
      { geolocation: { latitude: 91, longitude: 0 } },
    ]) {
      expect((await h.err('browser_emulate', { page_id: pageId, ...bad })).code).toBe('invalid_request');
    }
    await h.ok('browser_stop_session', { session_id: sessionId });
  });
});
