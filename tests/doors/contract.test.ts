/** One contract table through every door built so far: MCP over stdio, MCP over HTTP, the code-mode tool API. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { CONTRACT_CASES, prepareContract, type ContractEnv } from './contract.js';
import {
  buildOnce,
  configFile,
  httpClient,
  mcpDoor,
  spawnServe,
  stdioClient,
  toolApiDoor,
  type DoorCall,
  type DoorResult,
  type Spawned,
  SETUP_MS,
} from './helpers.js';

interface Door {
  name: string;
  call: DoorCall;
  env?: ContractEnv;
}

let fixtures: FixtureServer;
let serve: Spawned;
const clients: Client[] = [];
const doors: Door[] = [];

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  const config = configFile();
  serve = await spawnServe(['--config', config]);
  // the contract table covers every tool: all of them, not the default core set
  const stdio = await stdioClient(['--caps=all', '--config', config]);
  const http = await httpClient(serve.url);
  clients.push(stdio.client, http.client);
  doors.push(
    { name: 'mcp-stdio', call: mcpDoor(stdio.client) },
    { name: 'mcp-http', call: mcpDoor(http.client) },
    { name: 'tool-api', call: toolApiDoor(serve.url) },
  );
  // each door has its own pages and sessions: prepare them side by side
  await Promise.all(doors.map(async (d) => (d.env = await prepareContract(d.call, fixtures))));
}, SETUP_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await serve?.stop();
  await fixtures?.close();
});

/** The part of an answer every door must agree on. */
const outcome = (r: DoorResult) => ({ ok: r.ok, error_code: r.error_code });

describe('door contract', () => {
  it.each(CONTRACT_CASES)('$name', async (c) => {
    const results: Record<string, DoorResult> = {};
    for (const d of doors) results[d.name] = await d.call(c.tool, c.input(d.env!));
    const expected = c.expect.ok
      ? { ok: true, error_code: null }
      : { ok: false, error_code: c.expect.error_code };
    for (const [door, r] of Object.entries(results)) {
      expect({ door, ...outcome(r) }, r.text).toEqual({ door, ...expected });
      if (!r.ok) {
        // every failure names its code in the text a model reads, and carries a hint
        expect(r.text).toContain(`[${r.error_code}]`);
        expect(typeof r.data.hint).toBe('string');
        expect(r.data.hint.length).toBeGreaterThan(0);
      }
    }
  });

  it('the doors fail the same way, word for word', async () => {
    const texts = await Promise.all(doors.map((d) => d.call('browser_list_pages', { colour: 'red' })));
    const messages = new Set(texts.map((t) => `${t.data.message} ${t.data.hint}`));
    expect(messages.size).toBe(1);
  });
});
