/** MCP over streamable HTTP on `brow serve`: every capability in both doors, sessions per client, --shared-sessions, --caps. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { startHttpServer } from '../../src/doors/http/server.js';
import { mcpHttpRoute } from '../../src/doors/mcp/http.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import {
  buildOnce,
  configFile,
  httpClient,
  mcpDoor,
  must,
  spawnServe,
  toolApiDoor,
  type Spawned,
  SETUP_MS,
} from './helpers.js';
import { scaled } from '../scale.js';

let fixtures: FixtureServer;
const spawned: Spawned[] = [];

async function serve(args: string[] = []): Promise<Spawned> {
  const s = await spawnServe(['--config', configFile(), ...args]);
  spawned.push(s);
  return s;
}

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
}, SETUP_MS);

afterAll(async () => {
  await Promise.all(spawned.map((s) => s.stop()));
  await fixtures?.close();
});

describe('one server, two doors', () => {
  let s: Spawned;
  beforeAll(async () => {
    s = await serve();
  }, SETUP_MS);

  it('every registry capability is an MCP tool and answers at /v1/tools/<name>', async () => {
    const { client } = await httpClient(s.url);
    try {
      const { tools } = await client.listTools();
      const names = capabilities.map((c) => c.name).sort();
      expect(tools.map((t) => t.name).sort()).toEqual(names);

      const listed = (await (await fetch(`${s.url}/v1/tools`)).json()) as { tools: { name: string }[] };
      expect(listed.tools.map((t) => t.name).sort()).toEqual(names);

      // an unknown field reaches each capability's own schema: proof the route is that capability
      const api = toolApiDoor(s.url);
      for (const name of names) {
        const r = await api(name, { __probe: 1 });
        expect({ name, code: r.error_code }).toEqual({ name, code: 'invalid_request' });
        expect(r.text).toContain('"__probe"');
        expect(r.data.hint).toContain(`${name} takes`);
      }
    } finally {
      await client.close();
    }
  });

  it('each MCP client has its own browser sessions, released when its MCP session ends', async () => {
    const a = await httpClient(s.url);
    const b = await httpClient(s.url);
    const api = toolApiDoor(s.url); // no owner: sees every session
    try {
      const opened = await must(mcpDoor(a.client), 'browser_open_page', {
        url: fixtures.url('doors/search.html'),
      });
      const { page_id, session_id } = opened.data as { page_id: string; session_id: string };

      const bPages = (await must(mcpDoor(b.client), 'browser_list_pages')).data.pages as {
        page_id: string;
      }[];
      expect(bPages.map((p) => p.page_id)).not.toContain(page_id);
      const bSessions = (await must(mcpDoor(b.client), 'browser_list_sessions')).data.sessions as any[];
      expect(bSessions.map((x) => x.session_id)).not.toContain(session_id);
      // B's own page goes into a session of its own
      const bOpened = await must(mcpDoor(b.client), 'browser_open_page', {
        url: fixtures.url('doors/search.html'),
      });
      expect(bOpened.data.session_id).not.toBe(session_id);

      const all = async () =>
        ((await must(api, 'browser_list_sessions')).data.sessions as any[]).map(
          (x) => x.session_id as string,
        );
      expect(await all()).toContain(session_id);

      await a.transport.terminateSession(); // DELETE /mcp
      await a.client.close();
      await expect.poll(all, { timeout: scaled(15_000) }).not.toContain(session_id);
      expect(await all()).toContain(bOpened.data.session_id); // B's is untouched
    } finally {
      await a.client.close().catch(() => undefined);
      await b.client.close();
    }
  });

  it("a client never reaches another client's page, by id or by omitting page_id", async () => {
    const a = await httpClient(s.url);
    const b = await httpClient(s.url);
    try {
      const opened = await must(mcpDoor(a.client), 'browser_open_page', {
        url: fixtures.url('doors/search.html'),
      });
      const { page_id } = opened.data as { page_id: string };
      const byId = await mcpDoor(b.client)('browser_list_elements', { page_id });
      expect(byId.ok).toBe(false);
      expect(byId.data.error_code).toBe('page_not_found');
      // B has no page of its own: omitting page_id must not fall through to A's page
      const omitted = await mcpDoor(b.client)('browser_list_elements', {});
      expect(omitted.ok).toBe(false);
      expect(omitted.data.error_code).toBe('page_not_found');
      expect((await mcpDoor(a.client)('browser_list_elements', {})).ok).toBe(true);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('answers the MCP transport errors a client expects', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const unknown = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'no-such-session' },
      body: list,
    });
    expect(unknown.status).toBe(404);
    const noSession = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: list });
    expect(noSession.status).toBe(400);
    const notJson = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: '{oops' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error.code).toBe(-32700);
  });
});

describe('--shared-sessions', () => {
  it('lets every MCP client see and drive the same sessions', async () => {
    const s = await serve(['--shared-sessions']);
    const a = await httpClient(s.url);
    const b = await httpClient(s.url);
    try {
      const opened = await must(mcpDoor(a.client), 'browser_open_page', {
        url: fixtures.url('doors/search.html'),
      });
      const bPages = (await must(mcpDoor(b.client), 'browser_list_pages')).data.pages as {
        page_id: string;
      }[];
      expect(bPages.map((p) => p.page_id)).toContain(opened.data.page_id);
      await a.transport.terminateSession();
      await a.client.close();
      // a shared session outlives the client that opened it
      const still = (await must(mcpDoor(b.client), 'browser_list_pages')).data.pages as { page_id: string }[];
      expect(still.map((p) => p.page_id)).toContain(opened.data.page_id);
    } finally {
      await b.client.close();
    }
  });
});

describe('--caps on brow serve', () => {
  it('turns groups off in MCP and the tool API alike', async () => {
    const s = await serve(['--caps=-actions,-navigation']);
    const off = capabilities
      .filter((c) => c.group === 'actions' || c.group === 'navigation')
      .map((c) => c.name);
    const on = capabilities.filter((c) => !off.includes(c.name)).map((c) => c.name);
    expect(off).toContain('browser_click');

    const { client } = await httpClient(s.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...on].sort());
      const listed = (await (await fetch(`${s.url}/v1/tools`)).json()) as { tools: { name: string }[] };
      expect(listed.tools.map((t) => t.name).sort()).toEqual([...on].sort());

      const viaMcp = await mcpDoor(client)('browser_click', { ref: 'e1' });
      const viaApi = await toolApiDoor(s.url)('browser_click', { ref: 'e1' });
      expect(viaMcp.error_code).toBe('capability_unavailable');
      expect(viaApi.error_code).toBe('capability_unavailable');
      expect(viaApi.text).toContain('--caps');
      // what stays on still works
      expect((await toolApiDoor(s.url)('browser_doctor')).ok).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('a client that vanishes without closing', () => {
  it('has its MCP session reaped after the idle time, and its browser sessions released', async () => {
    const runtime = new BrowRuntime();
    const mcp = mcpHttpRoute(runtime, { idleMs: 500 });
    const server = await startHttpServer(runtime, { port: 0, extraRoutes: [mcp.route] });
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const post = async (body: unknown, sid?: string) => {
        const res = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: sid
            ? { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }
            : headers,
          body: JSON.stringify(body),
        });
        await res.text();
        return res;
      };
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'gone', version: '0' },
        },
      });
      const sid = init.headers.get('mcp-session-id')!;
      expect(sid).toBeTruthy();
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
      await post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'browser_start_session', arguments: {} },
        },
        sid,
      );
      const owned = () => [...runtime.core.sessions.values()].filter((x) => x.options.owner === sid).length;
      expect(owned()).toBe(1);
      expect(mcp.sessions).toBe(1);
      // no DELETE, no open stream: the client is simply gone
      await expect.poll(() => mcp.sessions, { timeout: scaled(10_000) }).toBe(0);
      await expect.poll(owned, { timeout: scaled(10_000) }).toBe(0);
    } finally {
      await mcp.close();
      await server.close();
      await runtime.close();
    }
  });
});
