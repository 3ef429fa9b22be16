/** The code-mode tool API (seed 001) through `brow/sdk`: `tool.call(name, params)` → `{ok, content, data}`. */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolClient, tool } from '../../src/doors/sdk/tool-client.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { buildOnce, configFile, refInText, ROOT, spawnServe, type Spawned, SETUP_MS } from './helpers.js';

let fixtures: FixtureServer;
let s: Spawned;
const saved = { url: process.env.BROW_URL, token: process.env.BROW_TOKEN };

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  s = await spawnServe(['--config', configFile()]);
  process.env.BROW_URL = s.url;
  delete process.env.BROW_TOKEN;
}, SETUP_MS);

afterAll(async () => {
  if (saved.url === undefined) delete process.env.BROW_URL;
  else process.env.BROW_URL = saved.url;
  if (saved.token !== undefined) process.env.BROW_TOKEN = saved.token;
  await s?.stop();
  await fixtures?.close();
});

describe("seed 001's default path, written as the seed writes it", () => {
  it('open → read_page → list_elements → fill by ref → Enter → read_page', async () => {
    const read = (page_id: string) => tool.call('browser_read_page', { page_id });

    const page = await tool.call('browser_open_page', { url: fixtures.url('doors/search.html') });
    expect(page.ok, page.content).toBe(true);
    const page_id = page.data.page_id as string;
    expect((await read(page_id)).content).toContain('Find furniture and lighting');

    const snapshot = await tool.call('browser_list_elements', { page_id });
    expect(snapshot.ok).toBe(true);
    const field_ref = refInText(snapshot.content, 'textbox', /^Search$/);
    // the pipeline form of the same choice: data.snapshot.refs records
    const records = snapshot.data.snapshot!.refs as any[];
    const byData = records.find((r) => r.role === 'textbox' && r.allowed_actions.includes('fill'));
    expect(byData.ref).toBe(field_ref);
    for (const key of ['ref', 'role', 'accessible_name', 'text', 'attributes', 'allowed_actions']) {
      expect(byData).toHaveProperty(key);
    }

    const filled = await tool.call('browser_fill', { page_id, ref: field_ref, value: 'example query' });
    expect(filled.ok, filled.content).toBe(true);
    const pressed = await tool.call('browser_press', { page_id, key: 'Enter' });
    expect(pressed.ok, pressed.content).toBe(true);
    const after = await read(page_id);
    expect(after.ok).toBe(true);
    expect(after.content).toContain('0 results for "example query"');

    expect(page.name).toBe('browser_open_page');
    expect(page.execution_time).toBeGreaterThan(0);
    expect(page.tool_call_id).toMatch(/\S/);
  });

  it('a stale ref fails with ok:false, data.error_code and a hint in content', async () => {
    const page = await tool.call('browser_open_page', { url: fixtures.url('doors/search.html') });
    const page_id = page.data.page_id as string;
    const ref = refInText(
      (await tool.call('browser_list_elements', { page_id })).content,
      'textbox',
      /^Search$/,
    );
    await tool.call('browser_navigate', { page_id, url: `${fixtures.url('doors/search.html')}?q=oak` });
    const r = await tool.call('browser_click', { page_id, ref });
    expect(r.ok).toBe(false);
    expect(r.data.error_code).toBe('stale_ref');
    expect(r.content).toMatch(/^Browser operation failed \[stale_ref\]: .+/);
    expect(r.content).toContain(r.data.hint);
  });
});

describe('the wire format', () => {
  it('POST /v1/tools/<name> answers exactly {ok, content, data}', async () => {
    const res = await fetch(`${s.url}/v1/tools/browser_list_pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['content', 'data', 'ok']);
    expect(body.ok).toBe(true);

    const bad = (await (
      await fetch(`${s.url}/v1/tools/browser_list_pages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"colour":"red"}',
      })
    ).json()) as { ok: boolean; content: string; data: Record<string, unknown> };
    expect(Object.keys(bad).sort()).toEqual(['content', 'data', 'ok']);
    expect(bad.ok).toBe(false);
    expect(bad.data.error_code).toBe('invalid_request');
  });

  it('refuses malformed requests in the same shape, with a hint', async () => {
    const post = (path: string, body: string, method = 'POST') =>
      fetch(`${s.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? null : body,
      });
    const cases: [Response, number][] = [
      [await post('/v1/tools/browser_list_pages', '{not json'), 400],
      [await post('/v1/tools/browser_list_pages', '', 'GET'), 405],
      [await post('/v1/nothing-here', '{}'), 404],
      [
        await post('/v1/tools/browser_list_pages', JSON.stringify({ pad: 'x'.repeat(11 * 1024 * 1024) })),
        413,
      ],
    ];
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as { ok: boolean; content: string; data: Record<string, string> };
      expect(body.ok).toBe(false);
      expect(body.data.error_code).toBe('invalid_request');
      expect(body.data.hint?.length).toBeGreaterThan(5);
      expect(body.content).toMatch(/^Browser operation failed \[invalid_request\]/);
    }
  });

  it('lists the tools with their JSON schemas', async () => {
    const tools = await tool.list();
    const open = tools.find((t) => t.name === 'browser_open_page')!;
    expect(open.input_schema).toMatchObject({ type: 'object', properties: { url: { type: 'string' } } });
  });
});

describe('the client', () => {
  it("is the package's `brow/sdk` export", () => {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('brow/sdk'); console.log(typeof m.tool.call, typeof m.createToolClient);",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function');
  });

  it('follows BROW_URL when it changes', () => {
    expect(tool.url).toBe(s.url);
    process.env.BROW_URL = 'http://127.0.0.1:1/';
    try {
      expect(tool.url).toBe('http://127.0.0.1:1');
    } finally {
      process.env.BROW_URL = s.url;
    }
  });

  it('answers connection_failed (never throws) when no server listens', async () => {
    const r = await createToolClient({ url: 'http://127.0.0.1:1' }).call('browser_list_pages');
    expect(r.ok).toBe(false);
    expect(r.data.error_code).toBe('connection_failed');
    expect(r.content).toContain('brow serve');
  });

  it('defaults to http://127.0.0.1:7777', () => {
    const url = process.env.BROW_URL;
    delete process.env.BROW_URL;
    try {
      expect(createToolClient().url).toBe('http://127.0.0.1:7777');
    } finally {
      process.env.BROW_URL = url;
    }
  });
});
