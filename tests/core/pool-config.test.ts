/**
 * Live config reaches the browser pool: updateConfig promises that later launches use the new
 * values, and a browser launched with old ones serves its sessions until the last one ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ max_sessions: 8 });
});
afterAll(async () => {
  await h?.close();
});

const hostOf = (sessionId: string) => h.rt.core.session(sessionId).host;

describe('config changes reach the next launch', () => {
  it('process_per_session and executable take effect for new sessions; old sessions keep working', async () => {
    const a = (await h.ok('browser_start_session')).session_id;
    const b = (await h.ok('browser_start_session')).session_id;
    expect(hostOf(a)).toBe(hostOf(b)); // shared

    h.rt.updateConfig({ process_per_session: true });
    const c = (await h.ok('browser_start_session')).session_id;
    const d = (await h.ok('browser_start_session')).session_id;
    expect(hostOf(c)).not.toBe(hostOf(a));
    expect(hostOf(c)).not.toBe(hostOf(d));
    await h.ok('browser_stop_session', { session_id: c });
    await h.ok('browser_stop_session', { session_id: d });
    h.rt.updateConfig({ process_per_session: false });

    // an executable that does not exist: the next launch says so, typed
    h.rt.updateConfig({ executable: '/nonexistent/chromium' });
    const failed = await h.err('browser_start_session');
    expect(failed.code).toBe('backend_unavailable');
    expect(failed.content).toContain('/nonexistent/chromium');
    // the sessions started before still work on their browser
    const pageId = (
      await h.ok('browser_open_page', { session_id: a, url: h.server.url('faults/plain.html') })
    ).page_id;
    expect((await h.refs(pageId)).length).toBeGreaterThan(0);

    // back to Chromium by path: a new shared browser (the old one was retired with the old setting)
    h.rt.updateConfig({ executable: '/usr/bin/chromium' });
    const e = (await h.ok('browser_start_session')).session_id;
    const f = (await h.ok('browser_start_session')).session_id;
    expect(hostOf(e)).toBe(hostOf(f));
    expect(hostOf(e)).not.toBe(hostOf(a));
    // the retired browser closes with its last session, not before
    const retired = hostOf(a).browser;
    await h.ok('browser_stop_session', { session_id: a });
    expect(retired.connected).toBe(true);
    await h.ok('browser_stop_session', { session_id: b });
    await eventually(() => !retired.connected, 5000, 100);
    expect(retired.connected).toBe(false);
    expect(hostOf(e).browser.connected).toBe(true);
  });
});
