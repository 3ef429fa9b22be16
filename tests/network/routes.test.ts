/** browser_route / browser_unroute: what the page sees and what the network log says, on real Chromium. */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { eventually, scaled } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const get = async (pageId: string, url: string) =>
  (await h.ok('browser_evaluate', { page_id: pageId, expression: `get(${JSON.stringify(url)})` })).value as {
    status?: number;
    text?: string;
    error?: string;
  };

const log = async (pageId: string, pattern: string) =>
  (await h.ok('browser_read_network', { page_id: pageId, pattern, clear: false })) as {
    network_entries: any[];
    __content: string;
  };

/** Wait until the network log has a finished entry matching pattern. */
async function finished(pageId: string, pattern: string) {
  for (const end = Date.now() + scaled(5000); Date.now() < end;) {
    const r = await log(pageId, pattern);
    const e = r.network_entries.findLast((x) => !x.pending);
    if (e) return { entry: e, text: r.__content };
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no finished request matching ${pattern}`);
}

describe('routes', () => {
  it('fulfils: the page gets the fake response and the log shows its status and route', async () => {
    const pageId = await h.open('network/app.html');
    const r = await h.ok('browser_route', {
      page_id: pageId,
      pattern: '**/api/*',
      action: 'fulfill',
      status: 201,
      body: '{"fake":true}',
      content_type: 'application/json',
      headers: { 'x-from': 'brow' },
    });
    expect(r.routes).toEqual([{ pattern: '**/api/*', action: 'fulfill', hits: 0 }]);
    expect(r.__content).toContain('**/api/* → fulfill');

    expect(await get(pageId, '/api/user')).toEqual({ status: 201, text: '{"fake":true}' });
    // a glob's * stops at /: a deeper path is not matched and reaches the server (404)
    expect((await get(pageId, '/api/v1/user')).status).toBe(404);

    const { entry } = await finished(pageId, '/api/user');
    expect(entry).toMatchObject({ status: 201, failed: false, fulfilled_by: 'route "**/api/*"' });
    await h.ok('browser_unroute', { page_id: pageId });
  });

  it('blocks: the page sees a failed fetch and the log marks it blocked', async () => {
    const pageId = await h.open('network/app.html');
    await h.ok('browser_route', { page_id: pageId, pattern: '/tracker', action: 'block' });
    expect((await get(pageId, '/tracker.js?id=1')).error).toMatch(/Failed to fetch/);
    const { entry, text } = await finished(pageId, 'tracker');
    expect(entry).toMatchObject({ failed: true, blocked_by: 'route "/tracker"' });
    expect(text).toContain('failed blocked by route "/tracker"');
    // failed_only finds it
    const failed = await h.ok('browser_read_network', { page_id: pageId, failed_only: true, clear: false });
    expect(failed.network_entries.some((e: any) => e.blocked_by)).toBe(true);
    await h.ok('browser_unroute', { page_id: pageId, pattern: '/tracker' });
  });

  it('continues with headers that reach the server; times retires a route; unroute restores', async () => {
    const seen: IncomingHttpHeaders[] = [];
    h.server.route('/network/seen', (req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('server');
    });
    const pageId = await h.open('network/app.html');
    await h.ok('browser_route', {
      page_id: pageId,
      pattern: '**/network/seen',
      action: 'continue',
      headers: { 'X-Brow-Route': 'yes' },
    });
    expect(await get(pageId, '/network/seen')).toEqual({ status: 200, text: 'server' });
    expect(seen.at(-1)?.['x-brow-route']).toBe('yes');

    // a newer route wins over an older one, for `times` matches, then retires
    const once = await h.ok('browser_route', {
      page_id: pageId,
      pattern: 'network/seen',
      action: 'fulfill',
      body: 'faked once',
      times: 1,
    });
    expect(once.routes.map((r: any) => r.pattern)).toEqual(['network/seen', '**/network/seen']);
    expect(await get(pageId, '/network/seen')).toEqual({ status: 200, text: 'faked once' });
    const n = seen.length;
    expect(await get(pageId, '/network/seen')).toEqual({ status: 200, text: 'server' });
    expect(seen.length).toBe(n + 1);

    const un = await h.ok('browser_unroute', { page_id: pageId, pattern: '**/network/seen' });
    expect(un).toMatchObject({ removed: 1, routes: [] });
    await get(pageId, '/network/seen');
    expect(seen.at(-1)?.['x-brow-route']).toBeUndefined();
  });

  it('applies to popups and pages opened later, and to cross-origin iframes', async () => {
    const pageId = await h.open('network/app.html');
    await h.ok('browser_route', { page_id: pageId, pattern: '**/api/*', action: 'fulfill', body: 'routed' });
    // a popup the page opens
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "window.open('/network/app.html?popup=1')",
    });
    let popup: string | undefined;
    await eventually(
      async () => {
        const pages = await h.ok('browser_list_pages', {});
        popup = pages.pages.find((p: any) => p.opener_page_id === pageId)?.page_id;
        return !!popup;
      },
      5000,
      100,
    );
    expect(popup).toBeDefined();
    expect(await get(popup!, '/api/popup')).toEqual({ status: 200, text: 'routed' });
    // a popup whose first document a route matches is loaded again under the route
    await h.ok('browser_route', {
      page_id: pageId,
      pattern: 'popup=faked',
      action: 'fulfill',
      body: '<!doctype html><title>Faked</title><h1>Faked popup</h1>',
      content_type: 'text/html',
    });
    await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "void window.open('/network/app.html?popup=faked')",
    });
    let faked: string | null = null;
    await eventually(
      async () => {
        const pages = await h.ok('browser_list_pages', {});
        const p = pages.pages.find((x: any) => String(x.url).includes('popup=faked'));
        const raw = p ? h.rt.core.findPage(p.page_id)?.raw : undefined;
        faked = raw ? await raw.$eval('h1', (e) => e.textContent).catch(() => null) : null;
        return faked === 'Faked popup';
      },
      5000,
      100,
    );
    expect(faked).toBe('Faked popup');
    // a page opened later in the same session
    const later = await h.open('network/app.html');
    expect(await get(later, '/api/later')).toEqual({ status: 200, text: 'routed' });

    // an out-of-process iframe (localhost inside 127.0.0.1) fetching on load
    // (the query is encoded: "**/api/*" would match a URL ending in "?fetch=/api/frame")
    const src = `${h.server.crossOrigin}/network/child.html?fetch=${encodeURIComponent('/api/frame')}`;
    const framed = await h.open(`network/frames.html?src=${encodeURIComponent(src)}`);
    const frame = h.rt.core
      .findPage(framed)!
      .raw.frames()
      .find((f) => f.url().startsWith(h.server.crossOrigin))!;
    expect(frame).toBeDefined();
    // out of process: the frame has a CDP session (target) of its own
    expect((frame as any).client).not.toBe((h.rt.core.findPage(framed)!.raw.mainFrame() as any).client);
    await frame.waitForFunction(() => document.getElementById('out')!.textContent !== 'loading');
    expect(await frame.$eval('#out', (e) => e.textContent)).toBe('200 routed');
    const { entry } = await finished(framed, 'localhost.*/api/frame');
    expect(entry.fulfilled_by).toBe('route "**/api/*"');
    await h.ok('browser_unroute', { page_id: pageId });
  });

  it('refuses bad input with a hint', async () => {
    const pageId = await h.open('network/app.html');
    const misplaced = await h.err('browser_route', {
      page_id: pageId,
      pattern: '/x',
      action: 'block',
      body: 'nope',
      headers: { a: 'b' },
    });
    expect(misplaced.code).toBe('invalid_request');
    expect(misplaced.content).toMatch(/body, headers do not apply to action "block"/);
    const unknown = await h.err('browser_unroute', { page_id: pageId, pattern: '**/never' });
    expect(unknown.code).toBe('invalid_request');
    expect(unknown.content).toContain('No route with pattern');
    const badStatus = await h.err('browser_route', {
      page_id: pageId,
      pattern: '/x',
      action: 'fulfill',
      status: 42,
    });
    expect(badStatus.code).toBe('invalid_request');
    const noSession = await h.err('browser_route', { session_id: 's_nope', pattern: '/x', action: 'block' });
    expect(noSession.code).toBe('session_not_found');
  });
});

describe('routes in workers', () => {
  it("fulfils a dedicated worker's fetch (puppeteer resolves it on the wrong session unless brow corrects it)", async () => {
    const pageId = await h.open('network/app.html');
    await h.ok('browser_route', {
      page_id: pageId,
      pattern: '**/api/worker',
      action: 'fulfill',
      body: 'from route',
    });
    const target = h.server.url('api/worker');
    await h.ok('browser_navigate', {
      page_id: pageId,
      url: h.server.url(`network/worker.html?fetch=${encodeURIComponent(target)}`),
    });
    const raw = h.rt.core.findPage(pageId)!.raw;
    await raw.waitForFunction(() => document.getElementById('out')!.textContent !== 'loading', {
      timeout: 10_000,
    });
    expect(await raw.$eval('#out', (e) => e.textContent)).toBe('200 from route');
    await h.ok('browser_unroute', { page_id: pageId });
  });
});

describe('routes and the rest of the network log', () => {
  it('request and response bodies stay readable through a continue route and a fulfil route', async () => {
    const pageId = await h.open('network/app.html');
    await h.ok('browser_route', {
      page_id: pageId,
      pattern: '/echo',
      action: 'continue',
      headers: { 'x-a': '1' },
    });
    await h.ok('browser_route', {
      page_id: pageId,
      pattern: '**/api/fake',
      action: 'fulfill',
      body: 'fake body',
    });
    const echoed = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "get('/echo', { method: 'POST', body: 'hello=world' })",
    });
    expect(JSON.parse(echoed.value.text)).toMatchObject({ method: 'POST', body: 'hello=world' });
    await get(pageId, '/api/fake');

    const { entry: echo } = await finished(pageId, '/echo');
    const detail = await h.ok('browser_read_network', { page_id: pageId, seq: echo.seq, include_body: true });
    expect(detail.request_body.body).toBe('hello=world');
    expect(detail.request_headers['x-a']).toBe('1');
    expect(JSON.parse(detail.response_body.body)).toMatchObject({ body: 'hello=world' });

    const { entry: fake } = await finished(pageId, '/api/fake');
    const fakeDetail = await h.ok('browser_read_network', {
      page_id: pageId,
      seq: fake.seq,
      include_body: true,
    });
    expect(fakeDetail.response_body.body).toBe('fake body');
    await h.ok('browser_unroute', { page_id: pageId });
  });
});
