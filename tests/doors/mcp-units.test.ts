/** The MCP door's pure parts: --caps parsing, the runtime view, outcomes as MCP results. No browser. */
import { afterAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { CAPABILITY_GROUPS, parseCaps, restrictRuntime } from '../../src/doors/mcp/caps.js';
import { toMcpResult, toMcpTool } from '../../src/doors/mcp/tools.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';

const names = (pred: (c: (typeof capabilities)[number]) => boolean) =>
  capabilities.filter(pred).map((c) => c.name);

describe('--caps', () => {
  it('keeps everything when empty', () => {
    expect(names(parseCaps(undefined, capabilities))).toEqual(names(() => true));
    expect(names(parseCaps(' , ', capabilities))).toEqual(names(() => true));
  });

  it('-group turns a group off and leaves the rest on', () => {
    const on = names(parseCaps('-actions,-navigation', capabilities));
    expect(on).toEqual(names((c) => c.group !== 'actions' && c.group !== 'navigation'));
  });

  it('plain groups keep only those; tool names work too; -x wins over x', () => {
    expect(names(parseCaps('sessions,pages', capabilities))).toEqual(
      names((c) => c.group === 'sessions' || c.group === 'pages'),
    );
    expect(names(parseCaps('pages,browser_doctor,-browser_close_page', capabilities))).toEqual(
      names((c) => (c.group === 'pages' || c.name === 'browser_doctor') && c.name !== 'browser_close_page'),
    );
  });

  it('accepts a known group that has no capabilities yet, refuses an unknown name', () => {
    expect(CAPABILITY_GROUPS).toContain('scripts');
    expect(() => parseCaps('-scripts,-styles', capabilities)).not.toThrow();
    expect(() => parseCaps('-scriptz', capabilities)).toThrow(/neither a capability group/);
  });

  describe('the runtime view', () => {
    const runtime = new BrowRuntime();
    afterAll(() => runtime.close());
    const view = restrictRuntime(runtime, parseCaps('-actions', capabilities));

    it('lists only enabled capabilities and refuses the others without touching a browser', async () => {
      expect(view.capabilities.map((c) => c.name)).toEqual(names((c) => c.group !== 'actions'));
      const r = await view.invoke('browser_click', { ref: 'e1' });
      expect(r).toMatchObject({ ok: false, data: { error_code: 'capability_unavailable' } });
      expect(runtime.core.sessions.size).toBe(0);
    });

    it('passes everything else to the runtime', async () => {
      expect((await view.invoke('browser_doctor', {})).ok).toBe(true);
      expect((await view.invoke('browser_nope', {})).data).toMatchObject({ error_code: 'invalid_request' });
      expect(view.core).toBe(runtime.core);
    });
  });
});

describe('MCP shapes', () => {
  it('a capability becomes a tool with hints', () => {
    const stop = capabilities.find((c) => c.name === 'browser_stop_session')!;
    expect(toMcpTool(stop)).toMatchObject({
      name: 'browser_stop_session',
      inputSchema: { type: 'object', required: ['session_id'], additionalProperties: false },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    });
    expect(toMcpTool(stop).inputSchema).not.toHaveProperty('$schema');
    const click = capabilities.find((c) => c.name === 'browser_click')!;
    // open world is MCP's default: left out; a click changes the page
    expect(toMcpTool(click).annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('an output schema drops a description that only repeats its field name, and keeps the others', () => {
    const open = capabilities.find((c) => c.name === 'browser_open_page')!;
    const out = toMcpTool(open, 'full').outputSchema as any;
    // `page_id: "Page id"` says nothing the name does not
    expect(out.properties.page_id).toEqual({ type: 'string' });
    // a description that says more stays, and nested objects are treated the same way
    expect(out.properties.page.description).toMatch(/\S/);
    expect(out.properties.page.properties.page_id).not.toHaveProperty('description');
    // inputs keep every description: they tell a model how to fill a field
    expect((toMcpTool(open).inputSchema as any).properties.url.description).toMatch(/\S/);
  });

  it('an ok outcome: text, then images; data as structuredContent', () => {
    const r = toMcpResult({
      ok: true,
      content: 'Saw it.',
      data: { page_id: 'p-1' },
      images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    });
    expect(r).toEqual({
      content: [
        { type: 'text', text: 'Saw it.' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
      structuredContent: { page_id: 'p-1' },
    });
  });

  it('a failure: isError, "[code] message" and the hint; the error data as structuredContent', () => {
    const data = {
      error_code: 'stale_ref' as const,
      message: 'e5 is stale.',
      hint: 'Take a fresh snapshot.',
      reason: 'navigated',
    };
    const r = toMcpResult({ ok: false, content: 'Browser operation failed [stale_ref]: …', data });
    expect(r).toEqual({
      isError: true,
      content: [{ type: 'text', text: '[stale_ref] e5 is stale.\nTake a fresh snapshot.' }],
      structuredContent: data,
    });
  });
});
