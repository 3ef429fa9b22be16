/**
 * People in the loop under `brow mcp` (issue 16): the server serves the web console on a loopback
 * port; browser_handoff with a progress token reports where the person should go, a person's own
 * Chromium opens that URL, types into the live viewport and clicks Continue, and the call returns
 * confirmed with their change. A cancelled call frees the page at once; a pick made in the console
 * reaches browser_pick; browser_doctor names the console.
 */
import { createServer } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { clickInViewport, personBrowser } from '../live/console-helpers.js';
import { until } from '../live/helpers.js';
import { buildOnce, configFile, SETUP_MS, stdioClient } from './helpers.js';

let fixtures: FixtureServer;
let mcp: { client: Client; stderr: () => string };
let person: Browser;
let pageId: string;
/** Where the name field and the Go button are (read before a handoff locks the agent out). */
let nameAt: [number, number];
let goAt: [number, number];

const CONSOLE_URL = /http:\/\/127\.0\.0\.1:\d+\/\?[^\s]+/;

type Progress = { progress: number; total?: number; message?: string };

async function call(name: string, args: Record<string, unknown> = {}) {
  const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  return { ...r, data: (r.structuredContent ?? {}) as Record<string, any>, text: (r.content[0] as any).text };
}

/** Start a long call with a progress token; resolves its first progress once one arrives. */
function longCall(name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const progress: Progress[] = [];
  const result = mcp.client.callTool({ name, arguments: args }, undefined, {
    timeout: 180_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => progress.push(p),
    ...(signal ? { signal } : {}),
  }) as Promise<CallToolResult>;
  result.catch(() => undefined);
  const first = until(() => progress[0], 20_000, `a progress notification from ${name}`);
  return { result, progress, first };
}

/** The centre of an element of the page (CSS px), read by the agent's own evaluate. */
async function centre(id: string): Promise<[number, number]> {
  const r = await call('browser_evaluate', {
    page_id: pageId,
    expression: `(() => { const b = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()`,
  });
  return r.data.value as [number, number];
}

async function openConsole(url: string): Promise<Page> {
  const ui = await person.newPage();
  await ui.goto(url);
  return ui;
}

beforeAll(async () => {
  buildOnce();
  ensureInjectedBuilt();
  fixtures = await startFixtureServer();
  // the default set (core, with browser_handoff) and what these tests read besides; not
  // browser_confirm_handoff: the console confirms through the whole runtime
  mcp = await stdioClient([
    '--caps=core,browser_doctor,browser_pick,browser_read_picks',
    '--config',
    configFile({ prelaunch: false }),
  ]);
  person = await personBrowser();
  const opened = await call('browser_open_page', { url: fixtures.url('live/form.html') });
  pageId = opened.data.page_id;
  nameAt = await centre('name');
  goAt = await centre('go');
}, SETUP_MS);

afterAll(async () => {
  await person?.close();
  await mcp?.client.close();
  await fixtures?.close();
});

describe('brow mcp serves the web console', () => {
  it('prints its URL on stderr and names it in browser_doctor', async () => {
    const printed = await until(
      () => CONSOLE_URL.exec(mcp.stderr())?.[0],
      20_000,
      'the console URL on stderr',
    );
    const doctor = await call('browser_doctor');
    expect(doctor.data.console_url).toBe(printed);
    expect(doctor.text).toContain(`Web console: ${printed}`);
    // the token rules of brow serve: without it, refused
    const bare = new URL(printed);
    bare.search = '';
    expect((await fetch(bare)).status).toBe(401);
    expect((await fetch(printed)).status).toBe(200);
  });

  it('a handoff with a progress token says where to go; the person types and continues there', async () => {
    const { result, progress, first } = longCall('browser_handoff', {
      page_id: pageId,
      instructions: 'Type your name, then Continue',
      timeout_ms: 180_000,
    });
    const message = (await first).message ?? '';
    expect(message).toMatch(/Type your name, then Continue/);
    const url = CONSOLE_URL.exec(message)?.[0];
    expect(url, message).toBeDefined();
    expect(new URL(url!).searchParams.get('page')).toBe(pageId);

    const ui = await openConsole(url!);
    // the link opens on the handoff's page, whose card waits in the queue
    await ui.waitForSelector(`.page[data-page-id="${pageId}"][aria-current="true"]`);
    await ui.waitForSelector('.handoff .continue');
    await until(
      () => ui.$eval('#viewport', (el) => Number((el as HTMLElement).dataset.seq ?? 0) > 0),
      15_000,
      'a first frame',
    );
    // the person types into the live page through the console
    const box = await ui.$eval('#screen', (img) => (img as HTMLImageElement).naturalWidth);
    expect(box).toBeGreaterThan(100);
    await clickInViewport(ui, ...nameAt);
    await ui.keyboard.type('Grace');
    await ui.locator('.handoff .continue').click();

    const r = await result;
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as Record<string, any>;
    expect(data).toMatchObject({ confirmed: true, via: 'confirm_call', console_url: url });
    expect(JSON.stringify(data.changes)).toContain('Grace');
    expect((r.content[0] as any).text).toContain(`Web console (the person's view of this page): ${url}`);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]!.total).toBe(180_000);
    // the resolved handoff leaves the queue and its toast
    await until(async () => (await ui.$$('.handoff')).length === 0, 10_000, 'the queue to empty');
    await until(() => ui.$eval('#toast', (t) => (t as HTMLElement).hidden), 10_000, 'the toast to go');
    await ui.close();
  });

  it('a cancelled handoff frees the page at once', async () => {
    const ac = new AbortController();
    const { result, first } = longCall(
      'browser_handoff',
      { page_id: pageId, instructions: 'Nobody comes', timeout_ms: 180_000 },
      ac.signal,
    );
    await first;
    const pages = await call('browser_list_pages');
    expect(pages.data.pages.find((p: any) => p.page_id === pageId).state).toBe('handoff');
    ac.abort('the user pressed stop');
    await expect(result).rejects.toThrow();
    // the page is the agent's again: no handoff_pending
    await until(
      async () =>
        (await call('browser_list_pages')).data.pages.find((p: any) => p.page_id === pageId).state === 'open',
      10_000,
      'the page to leave the handoff',
    );
    const typed = await call('browser_evaluate', { page_id: pageId, expression: '1 + 1' });
    expect(typed.isError).toBeFalsy();
  });

  it('browser_wait reports progress', async () => {
    const { result, first } = longCall('browser_wait', {
      page_id: pageId,
      condition: 'text',
      value: 'never on this page',
      timeout_ms: 1500,
    });
    expect((await first).message).toMatch(/Waiting for text "never on this page"/);
    const r = await result;
    expect(r.isError).toBe(true);
    expect((r.structuredContent as any).error_code).toBe('timeout');
  });

  it('a pick made in the console is returned by browser_pick', async () => {
    const { result, first } = longCall('browser_pick', {
      page_id: pageId,
      instructions: 'Point at the Go button',
      timeout_ms: 120_000,
    });
    const url = CONSOLE_URL.exec((await first).message ?? '')?.[0];
    expect(url).toBeDefined();
    const ui = await openConsole(url!);
    await ui.waitForSelector('.pick-request .pick-now');
    expect(await ui.$eval('.pick-request .instructions', (x) => x.textContent)).toBe(
      'Point at the Go button',
    );
    await until(
      () => ui.$eval('#viewport', (el) => Number((el as HTMLElement).dataset.seq ?? 0) > 0),
      15_000,
      'a first frame',
    );
    await ui.locator('.pick-request .pick-now').click();
    await clickInViewport(ui, ...goAt);
    const r = await result;
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as Record<string, any>;
    expect(data.element).toMatchObject({ tag: 'button', name: 'Go' });
    expect(data.element.ref).toMatch(/^e\d+$/);
    // the console says the agent got it, because it did
    await until(
      async () => /sent to the agent/.test(await ui.$eval('#toast', (t) => t.textContent ?? '')),
      5000,
      'the toast',
    );
    const clicked = await call('browser_click', { page_id: pageId, ref: data.element.ref });
    expect(clicked.isError).toBeFalsy();
    await ui.close();
  });

  it('a pick nobody asked for is kept for browser_read_picks', async () => {
    const url = CONSOLE_URL.exec(mcp.stderr())![0];
    const ui = await openConsole(`${url}&page=${pageId}`);
    await until(
      () => ui.$eval('#viewport', (el) => Number((el as HTMLElement).dataset.seq ?? 0) > 0),
      15_000,
      'a first frame',
    );
    await ui.locator('#pick').click();
    await clickInViewport(ui, 60, 30);
    await until(
      async () => /kept for the agent/.test(await ui.$eval('#toast', (t) => t.textContent ?? '')),
      5000,
      'the toast',
    );
    const picks = await call('browser_read_picks', { clear: false });
    expect(picks.data.picks.length).toBeGreaterThanOrEqual(1);
    const last = picks.data.picks.at(-1);
    expect(last).toMatchObject({ page_id: pageId, delivered: false });
    expect(last.element.ref).toMatch(/^e\d+$/);
    const read = await call('browser_read_picks', {});
    expect(read.data.picks.length).toBe(picks.data.picks.length);
    expect((await call('browser_read_picks', {})).data.picks).toEqual([]);
    await ui.close();
  });

  it('--no-console serves none; --console-port picks the port', async () => {
    const off = await stdioClient([
      '--no-console',
      '--caps=core,browser_doctor',
      '--config',
      configFile({ prelaunch: false }),
    ]);
    try {
      const doctor = (await off.client.callTool({ name: 'browser_doctor', arguments: {} })) as CallToolResult;
      expect((doctor.structuredContent as any).console_url).toBeNull();
      expect((doctor.content[0] as any).text).toMatch(/Web console: not served/);
      expect(off.stderr()).not.toMatch(/web console at/);
    } finally {
      await off.client.close();
    }
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const fixed = await stdioClient([
      '--console-port',
      String(port),
      '--config',
      configFile({ prelaunch: false }),
    ]);
    try {
      const url = await until(() => CONSOLE_URL.exec(fixed.stderr())?.[0], 20_000, 'the console URL');
      expect(new URL(url).port).toBe(String(port));
    } finally {
      await fixed.client.close();
    }
  });
});
