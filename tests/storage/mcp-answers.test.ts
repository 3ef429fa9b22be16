/** Through the MCP door (compact and full structured answers): saved values and filled passwords never appear. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/doors/mcp/server.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';

const SECRET = 'tok-9f3a71c2e5';
let fixtures: FixtureServer;
let rt: BrowRuntime;
const clients: Record<'compact' | 'full', Client> = {} as never;

beforeAll(async () => {
  delete process.env.BROW_STATE_KEY;
  ensureInjectedBuilt();
  fixtures = await startFixtureServer();
  rt = new BrowRuntime({ data_dir: mkdtempSync(join(tmpdir(), 'brow-data-')) });
  for (const structured of ['compact', 'full'] as const) {
    const server = createMcpServer(rt, { owner: null, structured });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'storage-answers', version: '0.0.0' });
    await client.connect(b);
    clients[structured] = client;
  }
});
afterAll(async () => {
  for (const c of Object.values(clients)) await c.close();
  await rt.close();
  await fixtures.close();
});

async function call(mode: 'compact' | 'full', name: string, args: Record<string, unknown>) {
  const r = (await clients[mode].callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r;
}

describe('storage answers through MCP', () => {
  it('save, load and start-from-profile answer counts; the values stay in the file', async () => {
    const open = await rt.invoke('browser_open_page', { url: fixtures.url('storage/login.html') });
    const page = open.data.page_id as string;
    await rt.core.findPage(page)!.raw.evaluate((s: string) => {
      localStorage.setItem('token', s);
      sessionStorage.setItem('csrf', s);
    }, SECRET);
    await rt.invoke('browser_cookies', {
      page_id: page,
      action: 'set',
      cookies: [{ name: 'sid', value: SECRET, url: `${fixtures.origin}/`, httpOnly: true }],
    });
    for (const mode of ['compact', 'full'] as const) {
      const saved = await call(mode, 'browser_save_state', { profile: `mcp-${mode}` });
      expect(JSON.stringify(saved)).not.toContain(SECRET);
      expect(saved.structuredContent).toMatchObject({ cookies: 1, origins: 1 });
      const loaded = await call(mode, 'browser_load_state', { profile: `mcp-${mode}` });
      expect(JSON.stringify(loaded)).not.toContain(SECRET);
      const started = await call(mode, 'browser_start_session', { profile: `mcp-${mode}` });
      expect(JSON.stringify(started)).not.toContain(SECRET);
    }
  });

  it('fill_form never echoes a password, in text or structured content', async () => {
    for (const mode of ['compact', 'full'] as const) {
      const open = await rt.invoke('browser_open_page', { url: fixtures.url('storage/login.html') });
      const page = open.data.page_id as string;
      const refs = ((await rt.invoke('browser_list_elements', { page_id: page })).data as any).snapshot
        .refs as any[];
      const pw = refs.find((r) => r.accessible_name === 'Password').ref as string;
      const user = refs.find((r) => r.accessible_name === 'User').ref as string;
      const r = await call(mode, 'browser_fill_form', {
        page_id: page,
        fields: [
          { ref: user, value: 'ada' },
          { ref: pw, value: SECRET },
        ],
      });
      expect(JSON.stringify(r)).not.toContain(SECRET);
      expect(JSON.stringify(r)).toContain('ada');
    }
  });
});
