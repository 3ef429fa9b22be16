/**
 * `brow replay FILE` through the CLI and its daemon: a flow recorded by ref (in this process),
 * exported as json and brow-cli files, replayed step by step; the renamed button fails the command
 * with a ref problem's exit code naming the step and the locator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import { PAGES_DIR } from '../fixtures/server.js';
import { buildOnce, cliEnv, type CliEnv } from '../cli/helpers.js';
import { harness, refOf, type Harness } from '../helpers.js';

vi.setConfig({ testTimeout: 180_000 });

const PASSWORD = 'hunter2-replay';
let h: Harness;
let cli: CliEnv;
let dir: string;
let renamed = false;

beforeAll(async () => {
  buildOnce();
  h = await harness();
  h.server.route('/replay/item.html', (_req, res) => {
    const html = readFileSync(join(PAGES_DIR, 'replay/item.html'), 'utf8');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(renamed ? html.replace('>Place order<', '>Submit order<') : html);
  });
  cli = cliEnv('replay');
  dir = mkdtempSync(join(tmpdir(), 'brow-replay-'));
  // the flow, by ref, in this process
  const pageId = await h.open('replay/login.html');
  let refs = await h.refs(pageId);
  await h.ok('browser_fill', {
    page_id: pageId,
    ref: refOf(refs, 'textbox', 'Email'),
    value: 'ann@example.com',
  });
  await h.ok('browser_fill', { page_id: pageId, ref: refOf(refs, 'textbox', 'Password'), value: PASSWORD });
  await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Sign in') });
  refs = await h.refs(pageId);
  await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'link', 'Order 42') });
  refs = await h.refs(pageId);
  await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Place order') });
  for (const format of ['json', 'brow-cli'] as const) {
    const out = await h.ok('browser_export_script', { format });
    writeFileSync(join(dir, `flow.${format}`), out.script);
  }
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('brow replay FILE', () => {
  it('replays a json export step by step and exits 0', async () => {
    const r = await cli.run(['replay', join(dir, 'flow.json')], { env: { BROW_SECRET_1: PASSWORD } });
    expect(r.code, r.stderr).toBe(0);
    // each step as it finished, then the summary
    expect(r.stderr).toContain('1. open_page http://');
    expect(r.stderr).toContain('4. click button "Sign in"');
    expect(r.stdout).toContain('all passed');
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
  });

  it('replays the brow-cli form, --json gives the answer as data', async () => {
    const r = await cli.run(['replay', join(dir, 'flow.brow-cli'), '--json'], {
      env: { BROW_SECRET_1: PASSWORD },
    });
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.ok).toBe(true);
    expect(o.data.steps.every((s: { ok: boolean }) => s.ok)).toBe(true);
  });

  it('fails at the renamed button with the step, the locator and a ref exit code', async () => {
    renamed = true;
    try {
      const r = await cli.run(['replay', join(dir, 'flow.json')], { env: { BROW_SECRET_1: PASSWORD } });
      expect(r.code).toBe(ERROR_TABLE.ref_not_found.exit);
      expect(r.stderr).toMatch(/Replay stopped at step \d+ of \d+ \(click button "Place order"/);
      expect(r.stderr).toContain('"Submit order"');
    } finally {
      renamed = false;
    }
  });

  it('names a file it cannot read', async () => {
    const r = await cli.run(['replay', join(dir, 'missing.json')]);
    expect(r.code).toBe(ERROR_TABLE.invalid_request.exit);
    expect(r.stderr).toContain('Cannot read');
  });
});
