/**
 * The CLI daemon for people in the loop (issue 16): the daemon serves the web console; `brow
 * handoff` prints where the person should go, a person's Chromium opens it, types and continues,
 * and the command prints `confirmed` with the change; not confirmed it exits 7; Ctrl-C on the
 * command ends the handoff in the daemon and frees the page.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOT_CONFIRMED_EXIT } from '../../src/doors/cli/output.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { BIN, ROOT } from '../doors/helpers.js';
import { buildOnce, cliEnv, type CliEnv } from '../cli/helpers.js';
import { clickInViewport, personBrowser } from '../live/console-helpers.js';
import { until } from '../live/helpers.js';

vi.setConfig({ testTimeout: 180_000 });

const CONSOLE_URL = /http:\/\/127\.0\.0\.1:\d+\/\?[^\s]+/;

let fixtures: FixtureServer;
let cli: CliEnv;
let person: Browser;
let pageId: string;
let nameAt: [number, number];

/** `brow args…` in the test's profile, its output followed as it comes. */
function start(args: string[]) {
  const proc = spawn(process.execPath, [BIN, ...args, '--session', cli.session], {
    cwd: ROOT,
    env: { ...process.env, ...cli.env },
  });
  const out = { stdout: '', stderr: '' };
  proc.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
  return { proc, out, exited };
}

async function pageState(): Promise<string> {
  const r = await cli.run(['list-pages', '--json']);
  return JSON.parse(r.stdout).data.pages.find((p: any) => p.page_id === pageId).state;
}

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  cli = cliEnv('handoff');
  person = await personBrowser();
  const opened = await cli.run(['open-page', fixtures.url('live/form.html'), '--json']);
  expect(opened.code, opened.stderr).toBe(0);
  pageId = JSON.parse(opened.stdout).data.page_id;
  const at = await cli.run([
    'evaluate',
    '(() => { const b = document.getElementById("name").getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()',
    '--json',
  ]);
  nameAt = JSON.parse(at.stdout).data.value;
}, 180_000);

afterAll(async () => {
  await person?.close();
  await cli?.cleanup();
  await fixtures?.close();
});

describe('brow handoff through the daemon', () => {
  it('the daemon serves the console; its status names it', async () => {
    const status = JSON.parse((await cli.run(['daemon', 'status', '--json'])).stdout);
    expect(status.console_url).toMatch(CONSOLE_URL);
    expect((await fetch(status.console_url)).status).toBe(200);
    expect((await cli.run(['daemon', 'status'])).stdout).toContain(`web console: ${status.console_url}\n`);
    // brow doctor runs in its own process, and names the daemon's console
    const doctor = await cli.run(['doctor', '--json']);
    expect(JSON.parse(doctor.stdout).data.console_url).toBe(status.console_url);
  });

  it('prints where to go; the person types and continues in the console; exits 0 with the change', async () => {
    const run = start(['handoff', 'Type your name, then Continue', '--timeout-ms', '180000']);
    const url = await until(() => CONSOLE_URL.exec(run.out.stderr)?.[0], 60_000, 'the console URL');
    expect(run.out.stderr).toMatch(/Type your name, then Continue/);
    const ui = await person.newPage();
    await ui.goto(url);
    await ui.waitForSelector(`.page[data-page-id="${pageId}"][aria-current="true"]`);
    await ui.waitForSelector('.handoff .continue');
    await until(
      () => ui.$eval('#viewport', (el) => Number((el as HTMLElement).dataset.seq ?? 0) > 0),
      15_000,
      'a first frame',
    );
    await clickInViewport(ui, ...nameAt);
    await ui.keyboard.type('Ada');
    await ui.locator('.handoff .continue').click();
    expect(await run.exited).toBe(0);
    expect(run.out.stdout).toMatch(/^Handoff h-\S+ confirmed: a confirm call resolved it/);
    expect(run.out.stdout).toContain('Ada');
    expect(run.out.stdout).toContain('Web console');
    await ui.close();
  });

  it('exits 7 (the timeout code) when nobody confirms', async () => {
    expect(NOT_CONFIRMED_EXIT).toBe(ERROR_TABLE.timeout.exit);
    const r = await cli.run(['handoff', 'Nobody comes', '--timeout-ms', '1000']);
    expect(r.code).toBe(7);
    expect(r.stdout).toMatch(/not confirmed: nobody continued before the timeout/);
  });

  it('Ctrl-C on the command ends the handoff in the daemon and frees the page', async () => {
    const run = start(['handoff', 'Interrupted', '--timeout-ms', '180000']);
    await until(() => CONSOLE_URL.test(run.out.stderr), 60_000, 'the handoff to start');
    expect(await pageState()).toBe('handoff');
    run.proc.kill('SIGINT');
    await run.exited;
    await until(async () => (await pageState()) === 'open', 10_000, 'the page to be free');
    const r = await cli.run(['evaluate', 'document.title']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('on a terminal, a long call shows a status line on stderr, and clears it', async () => {
    // script(1) gives the command a terminal; its output is what the terminal showed
    const cmd = [
      process.execPath,
      BIN,
      'wait',
      '--condition',
      'time',
      '--duration-ms',
      '1500',
      '--session',
      cli.session,
    ]
      .map((a) => `'${a}'`)
      .join(' ');
    const shown = execFileSync('script', ['-qec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, ...cli.env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(shown).toMatch(/\rWaiting for time \(0 s of \d+ s\)\./);
    // blanked before the answer is printed
    expect(shown).toMatch(/\r {20,}\r/);
    expect(shown).toMatch(/Wait for time satisfied after \d+ ms/);
  });
});
