/**
 * Calls that name no session hold the one they fall back to (issue 34): a `browser_wait` with no
 * page_id or session_id runs past idle_stop_ms without its session ending under it, and a listing
 * that does not use the session does not keep it alive. `expires_at` tells the truth about the
 * lease: a keep-alive's extension, a call in flight, and the ttl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowEvent } from '../../src/runtime/runtime.js';
import { harness, type Harness } from '../helpers.js';
import { eventually, scaled } from '../scale.js';

// long enough that the gap between two calls never reaches it, even on a loaded machine (read once)
const IDLE_MS = scaled(1500);

let h: Harness;
const stopped = new Map<string, string>();

beforeAll(async () => {
  h = await harness({ idle_stop_ms: IDLE_MS });
  h.rt.subscribe({ types: ['session-stopped'] }, (e: BrowEvent) =>
    stopped.set(e.session_id, String(e.reason)),
  );
});
afterAll(async () => {
  await h?.close();
});

describe('a call naming no session', () => {
  it('holds the session it falls back to while it runs, then the session idles out', async () => {
    const opened = await h.ok('browser_open_page', { url: h.server.url('core/form.html') });
    const sid = opened.session_id as string;
    // a wait on the default page, three times the idle limit
    const waited = await h.ok('browser_wait', { condition: 'time', duration_ms: IDLE_MS * 3 });
    expect(waited.waited_ms).toBeGreaterThanOrEqual(IDLE_MS * 3);
    expect(stopped.has(sid)).toBe(false);
    // the wait's end was activity; nothing more comes, so the session ends for idleness
    expect(await eventually(() => stopped.get(sid) === 'idle', IDLE_MS * 10)).toBe(true);
  });

  it('a listing that does not use the session does not keep it alive', async () => {
    const opened = await h.ok('browser_open_page', { url: h.server.url('core/form.html') });
    const sid = opened.session_id as string;
    const started = Date.now();
    // list sessions back to back for longer than the idle limit: the session still ends on time
    let ended = false;
    while (!ended && Date.now() - started < IDLE_MS * 10) {
      const { sessions } = await h.ok('browser_list_sessions');
      // the listing holds the session but does not use it: its lease is not lengthened
      const rec = sessions.find((r: { id: string }) => r.id === sid);
      if (rec) expect(rec.expires_at).toBe(rec.last_used_at + IDLE_MS);
      ended = stopped.get(sid) === 'idle';
    }
    expect(ended).toBe(true);
  });
});

describe('expires_at', () => {
  it('counts a keep-alive lease and a ttl', async () => {
    const opened = await h.ok('browser_open_page', { url: h.server.url('core/form.html') });
    const pid = opened.page_id as string;
    const sid = opened.session_id as string;
    await h.ok('browser_keep_alive', { page_id: pid, seconds: 600 });
    // a later plain call must not shorten the lease, and listings must say so
    await h.ok('browser_list_pages', { session_id: sid });
    const { sessions } = await h.ok('browser_list_sessions');
    const rec = sessions.find((s: { id: string }) => s.id === sid);
    expect(rec.expires_at).toBeGreaterThan(Date.now() + 590_000);
    const { pages } = await h.ok('browser_list_pages', { session_id: sid });
    expect(pages.find((p: { page_id: string }) => p.page_id === pid).expires_at).toBe(rec.expires_at);
    await h.ok('browser_stop_session', { session_id: sid });

    const ttl = await h.ok('browser_start_session', { ttl_ms: 60_000 });
    const tsid = (ttl.session_id ?? ttl.id) as string;
    await h.ok('browser_open_page', { session_id: tsid, url: 'about:blank' });
    const before = Date.now();
    const lease = await h.ok('browser_keep_alive', { session_id: tsid, seconds: 3600 });
    // the ttl ends the session first, whatever the lease
    expect(lease.expires_at).toBeLessThanOrEqual(before + 60_000);
    expect(lease.expires_at).toBeGreaterThan(before + 50_000);
    await h.ok('browser_stop_session', { session_id: tsid });
  });
});
