/**
 * `brow mcp` on stdio, driven by a real MCP client: the tool list is the registry's core set
 * unless --caps says otherwise, and seed 001's default path works.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities, getCapability } from '../../src/capabilities/registry.js';
import { coreTools } from '../../src/doors/mcp/caps.js';
import { inputJsonSchema, outputJsonSchema } from '../../src/doors/mcp/tools.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import {
  buildOnce,
  configFile,
  mcpDoor,
  refInText,
  runCli,
  stdioClient,
  type DoorCall,
  SETUP_MS,
} from './helpers.js';

const HAS_SCREENSHOT = getCapability('browser_screenshot') !== undefined;

let fixtures: FixtureServer;
let client: Client;
let call: DoorCall;

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  ({ client } = await stdioClient(['--config', configFile()]));
  call = mcpDoor(client);
}, SETUP_MS);

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
});

/** Each listed tool is its capability: schema, title, description and annotations. */
function expectToolsMatchRegistry(tools: Awaited<ReturnType<Client['listTools']>>['tools']): void {
  for (const t of tools) {
    const cap = getCapability(t.name)!;
    expect(cap, t.name).toBeDefined();
    expect(t.title).toBe(cap.title);
    expect(t.description).toBe(cap.description);
    expect(t.inputSchema).toEqual(inputJsonSchema(cap));
    expect(t.inputSchema.type).toBe('object');
    // compact is the default: the outputSchema describes the compact data
    expect(t.outputSchema).toEqual(outputJsonSchema(cap, 'compact'));
    expect(t.annotations).toMatchObject({
      readOnlyHint: cap.annotations.readOnly,
      destructiveHint: !cap.annotations.readOnly && cap.annotations.destructive,
    });
    // hints at MCP's defaults (idempotent false, open world true) are left out
    expect(t.annotations?.idempotentHint).toBe(cap.annotations.idempotent ? true : undefined);
    expect([false, undefined]).toContain(t.annotations?.openWorldHint);
  }
}

describe('the tool list', () => {
  it('lists the core tools by default (SPEC §8: within 24 KB), each with its schema, title and annotations', async () => {
    const { tools } = await client.listTools();
    // as sets: Node orders a module namespace by export name, vitest by declaration
    expect(tools.map((t) => t.name).sort()).toEqual(coreTools(capabilities).sort());
    // a person can still be asked in: the handoff is one of them
    expect(tools.map((t) => t.name)).toContain('browser_handoff');
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(24_000);
    expectToolsMatchRegistry(tools);
  });

  it('answers a tool outside the set with capability_unavailable and how to add it', async () => {
    const r = await call('browser_cookies', { action: 'get' });
    expect(r.error_code).toBe('capability_unavailable');
    expect(r.text).toContain('--caps=core,storage');
    expect(r.text).toContain('--caps=all');
    // nothing is lost: the server still answers the tools it lists
    const pages = await call('browser_list_pages', {});
    expect(pages.ok, pages.text).toBe(true);
  });

  it('a hint that names a tool outside the set says so, and how to add it', async () => {
    const r = await call('browser_list_pages', { session_id: 's-none-0' });
    expect(r.error_code).toBe('session_not_found');
    // the hint is written for the whole list: it names browser_list_sessions, not in the core set
    expect(r.text).toContain('browser_list_sessions');
    expect(r.text).toMatch(
      /browser_list_sessions is not in this server's tool set: --caps=core,sessions adds it/,
    );
    expect(r.data.hint).toContain('--caps=core,sessions');
    // a hint naming only listed tools is left as it is
    const closed = await call('browser_click', { page_id: 'p-none-0', ref: 'e1' });
    expect(closed.error_code).toBe('page_not_found');
    expect(closed.text).not.toContain('not in this server');
  });

  it('closes a page it opened: tabs an agent opens need not pile up under the default set', async () => {
    const opened = await call('browser_open_page', { url: fixtures.url('doors/search.html') });
    expect(opened.ok, opened.text).toBe(true);
    const id = opened.data.page_id as string;
    const closed = await call('browser_close_page', { page_id: id });
    expect(closed.ok, closed.text).toBe(true);
    const pages = await call('browser_list_pages', {});
    expect(pages.data.pages.map((p: any) => p.page_id)).not.toContain(id);
    const gone = await call('browser_list_elements', { page_id: id });
    expect(gone.error_code).toBe('page_closed');
  });

  it('says who it is and how to start', () => {
    expect(client.getServerVersion()?.name).toBe('brow');
    expect(client.getInstructions()).toMatch(/browser_open_page/);
  });
});

describe('fields a model fills with ""', () => {
  it('an empty page_id or session_id means the default; an empty ref is ref_not_found', async () => {
    const page = await call('browser_open_page', { url: fixtures.url('doors/search.html') });
    expect(page.ok, page.text).toBe(true);
    // models often send "" for an optional field they do not mean to set
    const listed = await call('browser_list_elements', { page_id: '', session_id: '' });
    expect(listed.ok, listed.text).toBe(true);
    expect(listed.text).toContain(`Page ID: ${page.data.page_id}`);
    const field = refInText(listed.text, 'textbox', /^Search$/);
    const filled = await call('browser_fill', { page_id: '', ref: field, value: 'desk' });
    expect(filled.ok, filled.text).toBe(true);
    expect(filled.data.action.outcome).toBe('completed');
    // a ref is never optional: "" is not one
    const empty = await call('browser_click', { page_id: '', ref: '' });
    expect(empty.error_code).toBe('ref_not_found');
    expect(empty.text).toMatch(/refs look like e12/);
  });
});

describe("seed 001's default path over MCP", () => {
  it('open → read → list elements → fill by ref → Enter → read', async () => {
    const read = (page_id: string) => call('browser_read_page', { page_id });

    const page = await call('browser_open_page', { url: fixtures.url('doors/search.html') });
    expect(page.ok, page.text).toBe(true);
    const page_id = page.data.page_id as string;
    expect(page_id).toMatch(/\S/);
    expect(page.text).toContain(page_id);

    const first = await read(page_id);
    expect(first.ok, first.text).toBe(true);
    expect(first.text).toContain('Find furniture and lighting');

    const snapshot = await call('browser_list_elements', { page_id });
    expect(snapshot.ok, snapshot.text).toBe(true);
    // seed 001's text form: header lines, then `[role ref=eN … actions=…] label`
    expect(snapshot.text).toMatch(/^Page snapshot for /);
    expect(snapshot.text).toContain(`Page ID: ${page_id}`);
    expect(snapshot.text).toMatch(/^Scope: interactive$/m);
    expect(snapshot.text).toMatch(/\[textbox ref=e\d+ [^\]]*actions=[a-z,]*fill[a-z,]*\] Search/);
    const field = refInText(snapshot.text, 'textbox', /^Search$/);
    // structuredContent is the compact data: the same ref as a row [ref, role, name, box, actions]
    const record = (snapshot.data.snapshot.refs as any[][]).find((r) => r[0] === field)!;
    expect(record.slice(0, 3)).toEqual([field, 'textbox', 'Search']);
    expect(record[4]).toContain('fill');

    const filled = await call('browser_fill', { page_id, ref: field, value: 'lamp' });
    expect(filled.ok, filled.text).toBe(true);
    expect(filled.text).toContain(field);
    expect(filled.text.length).toBeLessThan(1500); // a compact effect, not a snapshot
    expect(filled.data.action.outcome).toBe('completed');

    const pressed = await call('browser_press', { page_id, key: 'Enter' });
    expect(pressed.ok, pressed.text).toBe(true);
    expect(pressed.text).toContain('q=lamp');
    expect(pressed.data.action.navigation).toBeTruthy();

    const after = await read(page_id);
    expect(after.ok, after.text).toBe(true);
    expect(after.text).toContain('3 results for "lamp"');
    expect(after.text).toContain('Floor lamp');

    // the field's old ref named an element of the previous document
    const stale = await call('browser_fill', { page_id, ref: field, value: 'chair' });
    expect(stale.ok).toBe(false);
    expect(stale.error_code).toBe('stale_ref');
    expect(stale.text).toMatch(/^\[stale_ref\] /);
    expect(stale.text).toMatch(/snapshot/i); // the hint says what to do next
    expect(stale.data).toMatchObject({ error_code: 'stale_ref', reason: 'navigated' });
  });

  it('browser_read_page answers Markdown', async () => {
    const page = await call('browser_open_page', { url: `${fixtures.url('doors/search.html')}?q=oak` });
    const r = await call('browser_read_page', { page_id: page.data.page_id });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toMatch(/^# .*Catalogue$/m);
    expect(r.text).toContain('- [Oak table](#oak-table)');
    expect(r.data.markdown).toContain('1 results for "oak"');
  });
});

describe('images', () => {
  (HAS_SCREENSHOT ? it : it.skip)(
    HAS_SCREENSHOT
      ? 'a screenshot comes back as MCP image content'
      : 'a screenshot comes back as MCP image content — skipped: browser_screenshot is not in the registry yet',
    async () => {
      const page = await call('browser_open_page', { url: fixtures.url('doors/search.html') });
      const r = await call('browser_screenshot', { page_id: page.data.page_id });
      expect(r.ok, r.text).toBe(true);
      expect(r.images.length).toBeGreaterThan(0);
      const img = r.images[0]!;
      expect(img.mimeType).toMatch(/^image\/(png|jpeg|webp)$/);
      const bytes = Buffer.from(img.data, 'base64');
      expect(bytes.length).toBeGreaterThan(100);
      const magic = bytes.subarray(0, 12).toString('latin1');
      expect(magic.startsWith('\x89PNG') || magic.startsWith('\xff\xd8') || magic.slice(8) === 'WEBP').toBe(
        true,
      );
      // the image is content, not data: structuredContent stays small JSON
      expect(JSON.stringify(r.data)).not.toContain(img.data.slice(0, 200));
    },
  );
});

describe('--caps on brow mcp', () => {
  it('--caps=all lists every registry capability', async () => {
    const all = await stdioClient(['--caps=all']);
    try {
      const { tools } = await all.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(capabilities.map((c) => c.name).sort());
      expectToolsMatchRegistry(tools);
    } finally {
      await all.client.close();
    }
  });

  it('keeps only the named groups', async () => {
    const small = await stdioClient(['--caps', 'sessions,pages']);
    try {
      const { tools } = await small.client.listTools();
      const expected = capabilities
        .filter((c) => c.group === 'sessions' || c.group === 'pages')
        .map((c) => c.name);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
      const r = await mcpDoor(small.client)('browser_click', { ref: 'e1' });
      expect(r.error_code).toBe('capability_unavailable');
    } finally {
      await small.client.close();
    }
  });

  it('refuses a name that is neither a group nor a tool', async () => {
    const r = await runCli(['mcp', '--caps=-scriptz']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('"scriptz" is neither a capability group');
  });
});
