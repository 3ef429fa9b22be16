/** SPEC §7: who may drive `brow serve` — loopback by default, a token off loopback, no web page, no DNS rebinding. */
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest, isLoopbackBind, type GuardOptions } from '../../src/doors/http/guard.js';
import { startHttpServer, type RunningServer } from '../../src/doors/http/server.js';
import { mcpHttpRoute, type McpHttpRoute } from '../../src/doors/mcp/http.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { PAGES_DIR, startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { buildOnce, httpClient, runCli, spawnServe, toolApiDoor, SETUP_MS } from './helpers.js';
import { scaled } from '../scale.js';

const fakeReq = (headers: Record<string, string>, url = '/v1/tools/browser_list_pages') =>
  ({ headers, url, method: 'POST' }) as unknown as IncomingMessage;

const LOOPBACK: GuardOptions = { host: '127.0.0.1', port: 7777, token: null };

describe('checkRequest (unit)', () => {
  const check = (headers: Record<string, string>, opts: GuardOptions = LOOPBACK, url?: string) =>
    checkRequest(fakeReq(headers, url), opts);

  it('lets loopback names through on a loopback bind', () => {
    for (const host of ['127.0.0.1:7777', 'localhost:7777', '[::1]:7777', '127.0.0.1', 'LOCALHOST:7777']) {
      expect(check({ host }), host).toBeNull();
    }
  });

  it('refuses a forged or rebound Host', () => {
    for (const host of [
      'evil.example:7777',
      '127.0.0.1.nip.io:7777',
      'localhost.evil.example',
      'user@127.0.0.1',
      '',
    ]) {
      expect(check({ host }), host).toMatchObject({ status: 403 });
    }
    expect(checkRequest(fakeReq({}), LOOPBACK)).toMatchObject({ status: 403 });
  });

  it('lets the server’s own origin through, and the localhost/127.0.0.1 alias of it', () => {
    expect(check({ host: '127.0.0.1:7777', origin: 'http://127.0.0.1:7777' })).toBeNull();
    expect(check({ host: '127.0.0.1:7777', origin: 'http://localhost:7777' })).toBeNull();
  });

  it('refuses every other origin', () => {
    for (const origin of [
      'https://evil.example',
      'http://127.0.0.1:3000', // another local app
      'http://localhost',
      'null', // sandboxed frames, file: pages
      'not a url',
      'http://127.0.0.1:7777/path',
      'chrome-extension://abcdef',
    ]) {
      expect(check({ host: '127.0.0.1:7777', origin }), origin).toMatchObject({ status: 403 });
    }
  });

  it('refuses no-cors requests other sites make without an Origin', () => {
    expect(check({ host: '127.0.0.1:7777', 'sec-fetch-site': 'cross-site' })).toMatchObject({ status: 403 });
    expect(check({ host: '127.0.0.1:7777', 'sec-fetch-site': 'same-site' })).toMatchObject({ status: 403 });
    expect(check({ host: '127.0.0.1:7777', 'sec-fetch-site': 'none' })).toBeNull();
    expect(check({ host: '127.0.0.1:7777', 'sec-fetch-site': 'same-origin' })).toBeNull();
  });

  it('asks every request for the token when one is set', () => {
    const opts = { ...LOOPBACK, token: 's3cret' };
    expect(check({ host: '127.0.0.1:7777' }, opts)).toMatchObject({ status: 401 });
    expect(check({ host: '127.0.0.1:7777', authorization: 'Bearer nope' }, opts)).toMatchObject({
      status: 401,
    });
    expect(check({ host: '127.0.0.1:7777', authorization: 'Basic s3cret' }, opts)).toMatchObject({
      status: 401,
    });
    expect(check({ host: '127.0.0.1:7777', authorization: 'Bearer s3cret' }, opts)).toBeNull();
    expect(check({ host: '127.0.0.1:7777', authorization: 'bearer s3cret' }, opts)).toBeNull();
    expect(check({ host: '127.0.0.1:7777' }, opts, '/v1/events?token=s3cret')).toBeNull();
    // the token does not excuse a foreign origin
    expect(
      check({ host: '127.0.0.1:7777', origin: 'https://evil.example', authorization: 'Bearer s3cret' }, opts),
    ).toMatchObject({ status: 403 });
  });

  it('off loopback the token is the gate: any name reaches the server, foreign origins still do not', () => {
    const opts: GuardOptions = { host: '0.0.0.0', port: 7777, token: 's3cret' };
    const auth = { authorization: 'Bearer s3cret' };
    expect(check({ host: 'mybox.lan:7777', ...auth }, opts)).toBeNull();
    expect(
      check({ host: '192.168.1.20:7777', origin: 'http://192.168.1.20:7777', ...auth }, opts),
    ).toBeNull();
    expect(check({ host: 'mybox.lan:7777', origin: 'https://evil.example', ...auth }, opts)).toMatchObject({
      status: 403,
    });
    expect(check({ host: 'mybox.lan:7777' }, opts)).toMatchObject({ status: 401 });
  });

  it('knows which binds stay on this machine', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'])
      expect(isLoopbackBind(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.20', '127.evil.example', 'example.com']) {
      expect(isLoopbackBind(h), h).toBe(false);
    }
  });
});

/** A raw HTTP request, so headers a browser would never let us forge can be forged. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const u = new URL(url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? 'POST',
        headers: opts.headers ?? {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body ?? ((opts.method ?? 'POST') === 'POST' ? '{}' : undefined));
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});

describe('a live server refuses what it should', () => {
  let runtime: BrowRuntime;
  let server: RunningServer;
  let mcp: McpHttpRoute;
  let fixtures: FixtureServer;
  let baitHits = 0;

  beforeAll(async () => {
    buildOnce();
    fixtures = await startFixtureServer();
    fixtures.route('/bait', (_req, res) => {
      baitHits += 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>bait</title>');
    });
    runtime = new BrowRuntime({ max_sessions: 8 });
    mcp = mcpHttpRoute(runtime);
    const attack = readFileSync(`${PAGES_DIR}/doors/attack.html`, 'utf8');
    server = await startHttpServer(runtime, {
      port: 0,
      extraRoutes: [
        mcp.route,
        // the attack page served by brow itself: the same requests from the server's own origin
        async (req, res, url) => {
          if (url.pathname !== '/same-origin-attack') return false;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(attack);
          return true;
        },
      ],
    });
  }, SETUP_MS);

  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    await runtime?.close();
    await fixtures?.close();
  });

  const tool = (name: string) => `${server.url}/v1/tools/${name}`;

  it('a forged Host header (DNS rebinding) gets 403 on the tool API and on /mcp', async () => {
    const forged = { ...JSON_HEADERS, host: `attacker.example:${server.port}` };
    const a = await raw(tool('browser_list_pages'), { headers: forged });
    expect(a.status).toBe(403);
    expect(a.body).toContain('DNS rebinding');
    const b = await raw(`${server.url}/mcp`, { headers: forged, body: INIT });
    expect(b.status).toBe(403);
    expect(mcp.sessions).toBe(0);
  });

  it('a foreign Origin gets 403; the same request without it passes', async () => {
    const foreign = { ...JSON_HEADERS, origin: 'https://attacker.example' };
    expect((await raw(tool('browser_list_pages'), { headers: foreign })).status).toBe(403);
    expect((await raw(`${server.url}/mcp`, { headers: foreign, body: INIT })).status).toBe(403);
    const preflight = { origin: 'https://attacker.example', 'access-control-request-method': 'POST' };
    expect((await raw(tool('browser_list_pages'), { method: 'OPTIONS', headers: preflight })).status).toBe(
      403,
    );
    const plain = await raw(tool('browser_list_pages'), { headers: JSON_HEADERS });
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body).ok).toBe(true);
  });

  it('a page on another origin in a real browser cannot drive the server', async () => {
    const bait = `${fixtures.origin}/bait`;
    const hostile = `${fixtures.crossOrigin}/doors/attack.html?target=${encodeURIComponent(server.url)}&bait=${encodeURIComponent(bait)}`;
    const report = await runAttack(runtime, hostile);
    expect(report.cors).toMatch(/^blocked/); // the preflight was refused
    expect(report.nocors).toBe('sent'); // the browser sent it blind…
    expect(baitHits).toBe(0); // …and the server refused it: no page was opened
    expect(mcp.sessions).toBe(0);
    const opened = (await runtime.invoke('browser_list_pages', {})).data.pages as { url: string }[];
    expect(opened.some((p) => p.url.includes('/bait'))).toBe(false);
  });

  it('the same page served from the server’s own origin can (so the refusal above is the guard’s)', async () => {
    const bait = `${fixtures.origin}/bait`;
    const own = `${server.url}/same-origin-attack?target=${encodeURIComponent(server.url)}&bait=${encodeURIComponent(bait)}`;
    const report = await runAttack(runtime, own);
    expect(report.cors).toBe('status 200');
    await expect.poll(() => baitHits, { timeout: scaled(15_000) }).toBeGreaterThan(0);
  });

  it('startHttpServer refuses a non-loopback bind without a token', async () => {
    await expect(startHttpServer(runtime, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/--token/);
  });
});

/** Open the attack page in brow's own Chromium and return what its fetches saw. */
async function runAttack(runtime: BrowRuntime, url: string): Promise<Record<string, string>> {
  const opened = await runtime.invoke('browser_open_page', { url });
  if (!opened.ok) throw new Error(opened.content);
  const page_id = opened.data.page_id as string;
  const waited = await runtime.invoke('browser_wait', {
    page_id,
    condition: 'text',
    value: 'DONE',
    timeout_ms: 20_000,
  });
  if (!waited.ok) throw new Error(waited.content);
  const snap = await runtime.invoke('browser_list_elements', { page_id, scope: 'full', max_chars: 100_000 });
  const m = /DONE (\{.*\})/.exec(snap.content);
  if (!m) throw new Error(`no report in:\n${snap.content}`);
  await runtime.invoke('browser_close_page', { page_id });
  return JSON.parse(m[1]!) as Record<string, string>;
}

describe('brow serve with a token', () => {
  beforeAll(() => buildOnce(), SETUP_MS);

  it('refuses to bind off loopback without one', async () => {
    const r = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { BROW_TOKEN: '' });
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/--token/);
  });

  it('binds off loopback with BROW_TOKEN, and every request (tool API and MCP) must carry it', async () => {
    const token = 'tok-' + Math.random().toString(36).slice(2);
    const s = await spawnServe(['--host', '0.0.0.0'], { BROW_TOKEN: token });
    try {
      const local = s.url.replace('0.0.0.0', '127.0.0.1');
      expect((await raw(`${local}/v1/tools/browser_list_pages`, { headers: JSON_HEADERS })).status).toBe(401);
      const wrong = await toolApiDoor(local, { token: 'wrong' })('browser_list_pages');
      expect(wrong.ok).toBe(false);
      const right = await toolApiDoor(local, { token })('browser_list_pages');
      expect(right.ok, right.text).toBe(true);

      await expect(httpClient(local)).rejects.toThrow();
      const { client } = await httpClient(local, token);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await s.stop();
    }
  });
});
