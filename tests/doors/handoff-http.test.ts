/**
 * The HTTP door for people in the loop (issue 16): `Accept: text/event-stream` on /v1/tools/<name>
 * streams progress events then the result; a client that goes away cancels its handoff or wait at
 * once, and the page is the agent's again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoute } from '../../src/doors/console/routes.js';
import { startHttpServer, type RunningServer } from '../../src/doors/http/server.js';
import { mcpHttpRoute, type McpHttpRoute } from '../../src/doors/mcp/http.js';
import { harness, type Harness } from '../helpers.js';
import { corePage, nextEvent, until } from '../live/helpers.js';
import { buildOnce, httpClient, SETUP_MS, spawnServe } from './helpers.js';

let h: Harness;
let server: RunningServer;
let mcp: McpHttpRoute;

beforeAll(async () => {
  h = await harness();
  // brow serve in-process: the tool API, MCP over HTTP (sessions shared with the test) and the console
  mcp = mcpHttpRoute(h.rt, { sharedSessions: true });
  server = await startHttpServer(h.rt, { port: 0, extraRoutes: [mcp.route, consoleRoute(h.rt)] });
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await h?.close();
});

/** Server-sent events of a response body, as they arrive. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: any }> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) yield { event, data: JSON.parse(data) };
    }
  }
}

const post = (name: string, input: unknown, init: RequestInit = {}) =>
  fetch(`${server.url}/v1/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: JSON.stringify(input),
    ...(init.signal ? { signal: init.signal } : {}),
  });

describe('HTTP door: progress and disconnects', () => {
  it('streams progress events, then the result, with Accept: text/event-stream', async () => {
    const pageId = await h.open('live/form.html');
    const res = await post(
      'browser_handoff',
      { page_id: pageId, instructions: 'Stream me', timeout_ms: 60_000 },
      { headers: { accept: 'text/event-stream, application/json' } },
    );
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: { event: string; data: any }[] = [];
    for await (const e of events(res.body!)) {
      seen.push(e);
      if (e.event === 'progress' && seen.length === 1) {
        expect(e.data).toMatchObject({ done: expect.any(Number), total: 60_000 });
        expect(e.data.message).toMatch(/Waiting for a person .*Stream me/);
        await h.ok('browser_confirm_handoff', { session_id: corePage(h.rt, pageId).session.id });
      }
    }
    expect(seen[0]!.event).toBe('progress');
    const result = seen.at(-1)!;
    expect(result.event).toBe('result');
    expect(result.data).toMatchObject({ ok: true, data: { confirmed: true, via: 'confirm_call' } });
  });

  it('answers plain JSON without the header, or to a client that names JSON first, as before', async () => {
    for (const accept of [undefined, 'application/json, text/event-stream']) {
      const res = await post('browser_list_pages', {}, accept ? { headers: { accept } } : {});
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ ok: true });
    }
  });

  it('a client that disconnects ends its handoff at once and frees the page', async () => {
    const pageId = await h.open('live/form.html');
    const requested = nextEvent(h.rt, 'handoff-requested', (e) => e.page_id === pageId);
    const resolved = nextEvent(h.rt, 'handoff-resolved', (e) => e.page_id === pageId, 30_000);
    const ac = new AbortController();
    const call = post(
      'browser_handoff',
      { page_id: pageId, instructions: 'Nobody will come', timeout_ms: 600_000 },
      { signal: ac.signal },
    ).catch((e: unknown) => e);
    await requested;
    expect(corePage(h.rt, pageId).handoffId).not.toBeNull();
    ac.abort();
    await call;
    const ended = await resolved;
    expect(ended).toMatchObject({ via: 'cancelled', confirmed: false });
    expect(corePage(h.rt, pageId).handoffId).toBeNull();
    const after = await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.title' });
    expect(after.value).toBe('Live form');
  });

  it('a streaming client that disconnects ends its wait', async () => {
    const pageId = await h.open('live/form.html');
    const ac = new AbortController();
    const res = await post(
      'browser_wait',
      { page_id: pageId, condition: 'text', value: 'never here', timeout_ms: 60_000 },
      { headers: { accept: 'text/event-stream' }, signal: ac.signal },
    );
    const it = events(res.body!);
    const first = await it.next();
    expect(first.value).toMatchObject({ event: 'progress', data: { total: 60_000 } });
    expect(first.value!.data.message).toMatch(/Waiting for text "never here"/);
    ac.abort();
    await it.return(undefined).catch(() => undefined);
    // the wait took no lock; what matters is that the server answers on, and the page acts
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: '1' })).value).toBe(1);
  });

  it('MCP over HTTP (/mcp): progress notifications reach the client, and a cancel frees the page', async () => {
    const pageId = await h.open('live/form.html');
    const { client } = await httpClient(server.url);
    try {
      const progress: { message?: string }[] = [];
      const ac = new AbortController();
      const resolved = nextEvent(h.rt, 'handoff-resolved', (e) => e.page_id === pageId, 30_000);
      const call = client
        .callTool(
          {
            name: 'browser_handoff',
            arguments: { page_id: pageId, instructions: 'Over /mcp', timeout_ms: 600_000 },
          },
          undefined,
          { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true, signal: ac.signal },
        )
        .catch((e: unknown) => e);
      await until(() => progress[0], 15_000, 'a progress notification');
      expect(progress[0]!.message).toMatch(/Waiting for a person .*Over \/mcp/);
      ac.abort();
      await call;
      expect(await resolved).toMatchObject({ via: 'cancelled' });
      expect(corePage(h.rt, pageId).handoffId).toBeNull();
    } finally {
      await client.close();
    }
  });

  it(
    'brow serve names its own console (token included) in browser_doctor',
    async () => {
      buildOnce();
      const served = await spawnServe(['--token', 'serve-console-token']);
      try {
        const res = await fetch(`${served.url}/v1/tools/browser_doctor`, {
          method: 'POST',
          headers: { authorization: 'Bearer serve-console-token', 'content-type': 'application/json' },
          body: '{}',
        });
        const out = (await res.json()) as { data: { console_url: string } };
        expect(out.data.console_url).toBe(`${served.url}/?token=serve-console-token`);
      } finally {
        await served.stop();
      }
    },
    SETUP_MS,
  );
});
