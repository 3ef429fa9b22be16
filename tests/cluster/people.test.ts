/**
 * People and long calls through a cluster gateway (issue 19): a long call's progress crosses NATS
 * to the caller (the runtime's progress callback; MCP progress notifications through `brow mcp
 * --nats`); a handoff names the console of the gateway the agent called (the worker serves none);
 * the person's clicks and typing in that console reach the page on the worker; their confirm ends
 * the handoff. A real nats-server, a real `brow node` worker, Chromium; no browser mocks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRuntime } from '../../src/cluster/gateway.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { buildOnce, SETUP_MS, stdioClient } from '../doors/helpers.js';
import { until } from '../live/helpers.js';
import { startNats, startWorker, type Nats, type Worker } from './harness.js';

const TOKEN = 'people-test-token';
const confDir = mkdtempSync(join(tmpdir(), 'brow-nats-people-'));
const CONF = join(confDir, 'nats.conf');
writeFileSync(CONF, `authorization { token: "${TOKEN}" }\n`);
const CONSOLE_URL = /http:\/\/127\.0\.0\.1:\d+\/\?[^\s]+/;

let nats: Nats;
let worker: Worker;
let server: FixtureServer;
let gw: ClusterRuntime;
let mcp: { client: Client; stderr: () => string };

type Progress = { progress: number; total?: number; message?: string };

async function call(name: string, args: Record<string, unknown> = {}) {
  const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${JSON.stringify(r.content)} ${mcp.stderr()}`).toBeFalsy();
  return {
    data: (r.structuredContent ?? {}) as Record<string, any>,
    text: (r.content[0] as any).text as string,
  };
}

/** An MCP call with a progress token: its notifications are collected as they come. */
function longCall(name: string, args: Record<string, unknown>) {
  const progress: Progress[] = [];
  const result = mcp.client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => progress.push(p),
  }) as Promise<CallToolResult>;
  result.catch(() => undefined);
  return { result, progress };
}

beforeAll(async () => {
  buildOnce();
  ensureInjectedBuilt();
  nats = await startNats(['-c', CONF]);
  server = await startFixtureServer();
  worker = await startWorker(nats.url, 'wp', ['--capacity', '3', '--nats-token', TOKEN]);
  gw = await ClusterRuntime.connect({ url: nats.url, token: TOKEN });
  // the default tool set (core) and the two diagnostics these tests read; confirming stays the
  // person's (the console, the gateway), outside the agent's tool list
  mcp = await stdioClient(['--nats', nats.url, '--nats-token', TOKEN, '--caps=core,browser_doctor']);
}, SETUP_MS);

afterAll(async () => {
  await mcp?.client.close();
  await gw?.close();
  await worker?.kill();
  await nats?.stop();
  await server?.close();
  rmSync(confDir, { recursive: true, force: true });
}, 60_000);

describe('people and long calls through a cluster gateway', () => {
  it("a long call's progress reaches the gateway's caller: the runtime's callback and MCP notifications", async () => {
    const opened = await gw.invoke('browser_open_page', {
      url: server.url('/cluster/counter.html?late=1500'),
    });
    expect(opened.ok, opened.content).toBe(true);
    const page = opened.data.page_id as string;
    expect(page).toMatch(/^p-wp-\d+$/);
    const lines: string[] = [];
    const out = await gw.invoke(
      'browser_wait',
      { page_id: page, condition: 'text', value: 'Arrived', timeout_ms: 30_000 },
      { progress: (_done, _total, message) => lines.push(message ?? '') },
    );
    expect(out.ok, out.content).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^Waiting for/);

    // the same through brow mcp --nats: notifications/progress for the client's progress token
    const { data } = await call('browser_open_page', { url: server.url('/cluster/counter.html?late=1500') });
    const { result, progress } = longCall('browser_wait', {
      page_id: data.page_id,
      condition: 'text',
      value: 'Arrived',
      timeout_ms: 30_000,
    });
    const r = await result;
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.message).toMatch(/^Waiting for/);
    expect(progress[0]!.total).toBe(30_000);
    await gw.invoke('browser_close_page', { page_id: page });
  }, 60_000);

  it("a handoff names the gateway's console; the person's clicks and typing there reach the worker's page; their confirm ends it", async () => {
    const consoleUrl = await until(() => CONSOLE_URL.exec(mcp.stderr())?.[0], 20_000, 'the console URL');
    const { data } = await call('browser_open_page', { url: server.url('/live/form.html') });
    const pageId = data.page_id as string;
    expect(pageId).toMatch(/^p-wp-\d+$/);
    const centre = async (id: string): Promise<[number, number]> =>
      (
        await call('browser_evaluate', {
          page_id: pageId,
          expression: `(() => { const b = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()`,
        })
      ).data.value as [number, number];
    const nameAt = await centre('name');
    const goAt = await centre('go');

    const { result, progress } = longCall('browser_handoff', {
      page_id: pageId,
      instructions: 'Type your name, then Go and Continue',
      timeout_ms: 120_000,
    });
    const first = (await until(() => progress[0], 20_000, 'the handoff progress')).message ?? '';
    // the worker does not know the console: the gateway put its own address (token included) in the line
    const link = CONSOLE_URL.exec(first)?.[0];
    expect(link, first).toBeDefined();
    const u = new URL(link!);
    expect(u.origin).toBe(new URL(consoleUrl).origin);
    expect(u.searchParams.get('token')).toBe(new URL(consoleUrl).searchParams.get('token'));
    expect(u.searchParams.get('page')).toBe(pageId);
    expect(first).not.toContain('brow-console:');
    const handoffId = /handoff (h-wp-\d+)/.exec(first)?.[1];
    expect(handoffId, first).toBeDefined();

    // the person, in that console: the overview lists the handoff, then input and confirm go to the worker
    const api = (path: string) => `${u.origin}/console/api/${path}?token=${u.searchParams.get('token')}`;
    const overview = (await fetch(api('overview')).then((r) => r.json())) as any;
    expect(overview.data.handoffs.map((h: any) => h.handoff_id)).toContain(handoffId);
    const click = ([x, y]: [number, number]) => [
      { type: 'mouse', event: 'down', x, y, button: 'left', buttons: 1, click_count: 1 },
      { type: 'mouse', event: 'up', x, y, button: 'left', buttons: 0, click_count: 1 },
    ];
    const input = await fetch(api(`pages/${pageId}/input`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [...click(nameAt), { type: 'text', text: 'Ada' }, ...click(goAt)] }),
    });
    expect(input.status, await input.clone().text()).toBe(200);
    const confirm = await fetch(api(`handoffs/${handoffId}/confirm`), { method: 'POST' });
    expect(confirm.status, await confirm.clone().text()).toBe(200);

    const r = await result;
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const done = r.structuredContent as Record<string, any>;
    expect(done).toMatchObject({ handoff_id: handoffId, confirmed: true, via: 'confirm_call' });
    expect(new URL(done.console_url as string).searchParams.get('page')).toBe(pageId);
    expect(new URL(done.console_url as string).origin).toBe(u.origin);
    const shown = await call('browser_evaluate', {
      page_id: pageId,
      expression: "document.getElementById('out').textContent",
    });
    expect(shown.data.value).toBe('clicked Ada');

    // the doctor through this gateway names the same console, for the cluster and for each worker
    const doctor = await call('browser_doctor');
    expect(doctor.data.console_url).toBe(consoleUrl);
    expect(doctor.data.cluster.reports[0].console_url).toBe(consoleUrl);
    await call('browser_close_page', { page_id: pageId });
  }, 120_000);

  it('a gateway serving no console says so in the handoff, as a brow without one does', async () => {
    const opened = await gw.invoke('browser_open_page', { url: server.url('/live/form.html') });
    expect(opened.ok, opened.content).toBe(true);
    const pageId = opened.data.page_id as string;
    const lines: string[] = [];
    const running = gw.invoke(
      'browser_handoff',
      { page_id: pageId, instructions: 'Nothing to do', timeout_ms: 60_000 },
      { progress: (_d, _t, m) => lines.push(m ?? '') },
    );
    const first = await until(() => lines[0], 20_000, 'the handoff progress');
    expect(first).toContain('click Continue in the page (brow serves no web console here)');
    expect(first).not.toContain('brow-console:');
    const handoffId = /handoff (h-wp-\d+)/.exec(first)![1]!;
    const confirmed = await gw.invoke('browser_confirm_handoff', { handoff_id: handoffId });
    expect(confirmed.ok, confirmed.content).toBe(true);
    const out = await running;
    expect(out.ok, out.content).toBe(true);
    expect(out.data).toMatchObject({ confirmed: true, console_url: null });
    expect(out.content).not.toMatch(/brow-console:|Web console/);
    await gw.invoke('browser_close_page', { page_id: pageId });
  }, 60_000);
});
