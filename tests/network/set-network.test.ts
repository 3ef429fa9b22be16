/** browser_set_network: offline, extra headers, basic auth and origin lists, seen by the page and the server. */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { startWsServer, type WsServer } from './ws-server.js';

let h: Harness;
let ws: WsServer;
const seen: IncomingHttpHeaders[] = [];
beforeAll(async () => {
  h = await harness();
  ws = await startWsServer();
  h.server.route('/network/seen', (req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('server');
  });
  // basic auth: alice / s3cret
  h.server.route('/network/private', (req, res) => {
    const want = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    if (req.headers.authorization !== want) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="fixture"', 'content-type': 'text/html' });
      res.end('<!doctype html><title>Denied</title><h1>Denied</h1>');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Private</title><h1>Welcome alice</h1>');
  });
});
afterAll(async () => {
  await ws.close();
  await h.close();
});

const get = async (pageId: string, url: string) =>
  (await h.ok('browser_evaluate', { page_id: pageId, expression: `get(${JSON.stringify(url)})` })).value as {
    status?: number;
    text?: string;
    error?: string;
  };

const text = (pageId: string, selector: string) =>
  h.rt.core.findPage(pageId)!.raw.$eval(selector, (e) => e.textContent);

/**
 * Poll fn until ok; a read that throws because the frame is still committing its document
 * ("Execution context was destroyed", or "Cannot find context" when an out-of-process frame swaps
 * its context between puppeteer's lookup and its adopt) counts as not yet, except on the last try.
 */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      const v = await fn();
      if (ok(v) || i >= 50) return v;
    } catch (e) {
      if (i >= 50 || !/context was destroyed|cannot find context|detached/i.test(String(e))) throw e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each test gets a session of its own, so settings never leak between tests. */
const started: string[] = [];
afterEach(async () => {
  for (const id of started.splice(0)) await h.call('browser_stop_session', { session_id: id });
});
async function freshPage(path: string) {
  const s = await h.ok('browser_start_session', {});
  started.push(s.session_id);
  return (await h.ok('browser_open_page', { session_id: s.session_id, url: h.server.url(path) }))
    .page_id as string;
}

describe('browser_set_network', () => {
  it('offline makes fetch fail, then recovers', async () => {
    const pageId = await freshPage('network/app.html');
    const on = await h.ok('browser_set_network', { page_id: pageId, offline: true });
    expect(on.network.offline).toBe(true);
    expect((await get(pageId, '/network/seen')).error).toMatch(/Failed to fetch/);
    await h.ok('browser_set_network', { page_id: pageId, offline: false });
    expect(await get(pageId, '/network/seen')).toEqual({ status: 200, text: 'server' });
  });

  it('extra headers and basic credentials reach the server; answers never show their values', async () => {
    const pageId = await freshPage('network/app.html');
    const r = await h.ok('browser_set_network', {
      page_id: pageId,
      extra_headers: { 'x-team': 'qa', authorization2: 'token-xyz' },
      credentials: { username: 'alice', password: 's3cret' },
    });
    expect(JSON.stringify(r)).not.toContain('token-xyz');
    expect(JSON.stringify(r)).not.toContain('s3cret');
    expect(r.network).toMatchObject({
      extra_header_names: ['x-team', 'authorization2'],
      credentials_user: 'alice',
    });

    await get(pageId, '/network/seen');
    expect(seen.at(-1)?.['x-team']).toBe('qa');

    const nav = await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('network/private') });
    expect(nav.__content).not.toContain('s3cret');
    expect(await text(pageId, 'h1')).toBe('Welcome alice');

    // a page the session opens later gets them too; reset clears them
    const sessionId = h.rt.core.findPage(pageId)!.session.id;
    const later = (
      await h.ok('browser_open_page', { session_id: sessionId, url: h.server.url('network/app.html') })
    ).page_id as string;
    await get(later, '/network/seen');
    expect(seen.at(-1)?.['x-team']).toBe('qa');
    const cleared = await h.ok('browser_set_network', { page_id: later, reset: true });
    expect(cleared.network).toMatchObject({ extra_header_names: [], credentials_user: null, offline: false });
    await get(later, '/network/seen');
    expect(seen.at(-1)?.['x-team']).toBeUndefined();
  });

  it('allowed_origins blocks a cross-origin iframe, a worker fetch and a WebSocket, and logs them as blocked', async () => {
    const src = `${h.server.crossOrigin}/network/child.html`;
    const pageId = await freshPage(`network/frames.html?src=${encodeURIComponent(src)}`);
    await h.ok('browser_set_network', { page_id: pageId, allowed_origins: [h.server.origin] });
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/frames.html?src=${encodeURIComponent(src)}`),
    });
    const frames = await until(
      () => h.ok('browser_read_network', { page_id: pageId, pattern: 'localhost', clear: false }),
      (r) => r.network_entries.some((e: any) => e.blocked_by),
    );
    expect(frames.network_entries.find((e: any) => e.blocked_by)).toMatchObject({
      failed: true,
      blocked_by: 'allowed_origins',
      resource_type: 'document',
    });
    expect(frames.__content).toContain('failed blocked by allowed_origins');
    // the iframe did not load: no frame of the page is on the other origin
    expect(
      h.rt.core
        .findPage(pageId)!
        .raw.frames()
        .some((f) => f.url().startsWith(h.server.crossOrigin)),
    ).toBe(false);

    // a dedicated worker's fetch to the other origin
    const target = `${h.server.crossOrigin}/network/seen`;
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/worker.html?fetch=${encodeURIComponent(target)}`),
    });
    expect(
      await until(
        () => text(pageId, '#out'),
        (t) => t !== 'loading',
      ),
    ).toMatch(/^error TypeError/);
    const workerLog = await until(
      () =>
        h.ok('browser_read_network', { page_id: pageId, pattern: 'localhost.*/network/seen', clear: false }),
      (r) => r.network_entries.some((e: any) => !e.pending),
    );
    expect(workerLog.network_entries[0]).toMatchObject({ blocked_by: 'allowed_origins' });

    // a WebSocket to another port is another origin
    const before = ws.connections;
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/ws.html?ws=${encodeURIComponent(ws.url)}`),
    });
    expect(
      await until(
        () => text(pageId, '#out'),
        (t) => t !== 'connecting',
      ),
    ).toMatch(/^threw .*blocked by brow/);
    expect(ws.connections).toBe(before);
    // nor through the prototype's constructor
    const viaProto = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `(() => { try { new WebSocket.prototype.constructor(${JSON.stringify(ws.url)}); return 'opened'; } catch (e) { return e.name; } })()`,
    });
    expect(viaProto.value).toBe('SecurityError');
    const wsLog = await until(
      () => h.ok('browser_read_network', { page_id: pageId, pattern: '^ws:', clear: false }),
      (r) => r.network_entries.length > 0,
    );
    expect(wsLog.network_entries[0]).toMatchObject({
      resource_type: 'websocket',
      blocked_by: 'allowed_origins',
    });

    // allowing the socket's origin lets it through
    await h.ok('browser_set_network', { page_id: pageId, allowed_origins: [h.server.origin, ws.url] });
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/ws.html?ws=${encodeURIComponent(ws.url)}`),
    });
    expect(
      await until(
        () => text(pageId, '#out'),
        (t) => t !== 'connecting',
      ),
    ).toBe('message hello');
    expect(ws.connections).toBe(before + 1);
  });

  it('blocked_origins refuses one host; [] clears the list', async () => {
    const pageId = await freshPage('network/app.html');
    await h.ok('browser_set_network', { page_id: pageId, blocked_origins: ['localhost'] });
    const cross = `${h.server.crossOrigin}/network/seen`;
    expect((await get(pageId, cross)).error).toMatch(/Failed to fetch/);
    expect((await get(pageId, '/network/seen')).text).toBe('server');
    const log = await h.ok('browser_read_network', { page_id: pageId, pattern: 'localhost', clear: false });
    expect(log.network_entries.at(-1)).toMatchObject({ blocked_by: 'blocked_origins' });
    // navigating there fails, and says why
    const nav = await h.err('browser_navigate', {
      page_id: pageId,
      url: `${h.server.crossOrigin}/network/app.html`,
    });
    expect(nav.code).toBe('navigation_failed');
    expect(nav.content).toContain('ERR_BLOCKED_BY_CLIENT');
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('network/app.html') });
    await h.ok('browser_set_network', { page_id: pageId, blocked_origins: [] });
    expect((await get(pageId, cross)).text).toBe('server');
  });

  it('blocked_origins stops a WebSocket opened by an out-of-process iframe, and logs it', async () => {
    const pageId = await freshPage('network/app.html');
    await h.ok('browser_set_network', { page_id: pageId, blocked_origins: [ws.url] });
    const src = `${h.server.crossOrigin}/network/ws.html?ws=${encodeURIComponent(ws.url)}`;
    const before = ws.connections;
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/frames.html?src=${encodeURIComponent(src)}`),
    });
    const raw = h.rt.core.findPage(pageId)!.raw;
    const frame = await until(
      async () => raw.frames().find((f) => f.url().startsWith(h.server.crossOrigin)),
      (f) => f !== undefined,
    );
    expect((frame as any).client).not.toBe((raw.mainFrame() as any).client);
    expect(
      await until(
        () => frame!.$eval('#out', (e) => e.textContent),
        (t) => t !== 'connecting',
      ),
    ).toMatch(/^threw .*blocked by brow \(blocked_origins\)/);
    expect(ws.connections).toBe(before);
    const log = await until(
      () => h.ok('browser_read_network', { page_id: pageId, pattern: '^ws:', clear: false }),
      (r) => r.network_entries.length > 0,
    );
    expect(log.network_entries[0]).toMatchObject({
      resource_type: 'websocket',
      blocked_by: 'blocked_origins',
    });
  });

  it('a popup the page opens on a refused origin does not stay there', async () => {
    const pageId = await freshPage('network/app.html');
    await h.ok('browser_set_network', { page_id: pageId, allowed_origins: [h.server.origin] });
    const target = `${h.server.crossOrigin}/network/app.html?popup=refused`;
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: `void window.open(${JSON.stringify(target)})`,
    });
    const popup = await until(
      async () => (await h.ok('browser_list_pages', {})).pages.find((p: any) => p.opener_page_id === pageId),
      (p) => p !== undefined && !String(p.url).startsWith(h.server.crossOrigin),
    );
    expect(popup).toBeDefined();
    expect(String(popup.url)).not.toContain('localhost');
    const log = await h.ok('browser_read_network', { page_id: popup.page_id, clear: false });
    expect(log.network_entries.some((e: any) => e.blocked_by === 'allowed_origins')).toBe(true);
  });

  it('refuses an origin entry it cannot read', async () => {
    const pageId = await freshPage('network/app.html');
    const bad = await h.err('browser_set_network', {
      page_id: pageId,
      allowed_origins: ['ftp://files.example'],
    });
    expect(bad.code).toBe('invalid_request');
    expect(bad.content).toMatch(/not an origin or host/);
  });
});

describe('a read-only session', () => {
  it('may block and narrow, but not fake responses, add headers or credentials, or emulate', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const pageId = (
      await h.ok('browser_open_page', { session_id: s.session_id, url: h.server.url('network/app.html') })
    ).page_id as string;
    await h.ok('browser_route', { page_id: pageId, pattern: '/ads', action: 'block' });
    await h.ok('browser_set_network', { page_id: pageId, blocked_origins: ['localhost'], offline: false });
    const fake = await h.err('browser_route', {
      page_id: pageId,
      pattern: '/x',
      action: 'fulfill',
      body: 'x',
    });
    expect(fake.code).toBe('read_only');
    expect(fake.content).toMatch(/only block routes, origin lists and offline/);
    const headers = await h.err('browser_set_network', { page_id: pageId, extra_headers: { a: 'b' } });
    expect(headers.code).toBe('read_only');
    const creds = await h.err('browser_set_network', {
      page_id: pageId,
      credentials: { username: 'u', password: 'p' },
    });
    expect(creds.code).toBe('read_only');
    const emulate = await h.err('browser_emulate', { page_id: pageId, timezone: 'UTC' });
    expect(emulate.code).toBe('read_only');
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });
});
