/**
 * Persistent Chromium profiles (user_data_dir): a login made in a named profile is still there
 * after a full brow restart; sessions without one start clean; a bad name is refused.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/core/browser/browser-pool.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { scaled } from '../scale.js';

let server: FixtureServer;
let dataDir: string;

beforeAll(async () => {
  ensureInjectedBuilt();
  server = await startFixtureServer();
  // "remember me": a persistent cookie, as sites set to keep a login
  server.route('/pd-login', (_req, res) => {
    res.writeHead(303, { location: '/pd-home', 'set-cookie': 'remember=alice; Max-Age=86400; Path=/' });
    res.end();
  });
  server.route('/pd-home', (req, res) => {
    const who = /(?:^|;\s*)remember=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<title>Home</title><h1>${who ? `Signed in as ${who}` : 'Signed out'}</h1>`);
  });
  dataDir = mkdtempSync(join(tmpdir(), 'brow-profiles-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The work, or a failure that names the step when it takes longer than any step should (not a timing test). */
async function step<T>(what: string, work: Promise<T>): Promise<T> {
  const bound = scaled(45_000);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${bound} ms`)), bound);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    const took = Date.now() - started;
    if (took > 10_000) console.log(`profile-dir: ${what} took ${took} ms`);
  }
}

async function call(rt: BrowRuntime, name: string, input: Record<string, unknown>) {
  const o = await step(name, rt.invoke(name, input));
  if (!o.ok) throw new Error(`${name}: ${o.content}`);
  return o.data as any;
}

describe('user_data_dir', () => {
  it('a login in a named profile survives a brow restart; other sessions start clean', async () => {
    const first = new BrowRuntime({ data_dir: dataDir });
    try {
      const s = await call(first, 'browser_start_session', { user_data_dir: 'alice' });
      expect(s.user_data_dir).toBe(join(dataDir, 'chromium-profiles', 'alice'));
      expect(s.incognito).toBe(false);
      const p = await call(first, 'browser_open_page', {
        session_id: s.session_id,
        url: server.url('pd-login'),
      });
      await call(first, 'browser_evaluate', {
        page_id: p.page_id,
        expression: `localStorage.setItem('theme', 'dark')`,
      });
      expect((await call(first, 'browser_read_page', { page_id: p.page_id })).markdown).toContain(
        'Signed in as alice',
      );
      expect(statSync(s.user_data_dir).mode & 0o777).toBe(0o700);
    } finally {
      await step('closing the first brow', first.close());
    }

    const second = new BrowRuntime({ data_dir: dataDir });
    try {
      const s = await call(second, 'browser_start_session', { user_data_dir: 'alice' });
      const p = await call(second, 'browser_open_page', {
        session_id: s.session_id,
        url: server.url('pd-home'),
      });
      expect((await call(second, 'browser_read_page', { page_id: p.page_id })).markdown).toContain(
        'Signed in as alice',
      );
      const theme = await call(second, 'browser_evaluate', {
        page_id: p.page_id,
        expression: `localStorage.getItem('theme')`,
      });
      expect(theme.value).toBe('dark');
      // stopping and starting the profile again in the same run works too (one Chromium per profile)
      await call(second, 'browser_stop_session', { session_id: s.session_id });
      const again = await call(second, 'browser_start_session', { user_data_dir: 'alice' });
      const q = await call(second, 'browser_open_page', {
        session_id: again.session_id,
        url: server.url('pd-home'),
      });
      expect((await call(second, 'browser_read_page', { page_id: q.page_id })).markdown).toContain(
        'Signed in as alice',
      );
      // a session without a profile knows nothing of it
      const clean = await call(second, 'browser_start_session', {});
      expect(clean.user_data_dir).toBeUndefined();
      const plain = await call(second, 'browser_open_page', {
        session_id: clean.session_id,
        url: server.url('pd-home'),
      });
      expect((await call(second, 'browser_read_page', { page_id: plain.page_id })).markdown).toContain(
        'Signed out',
      );
    } finally {
      await step('closing the second brow', second.close());
    }
    // four Chromium launches, each with its own profile on disk: slow on a loaded two-core machine
  }, 150_000);

  it('a profile browser that hangs on its way out is killed past the bound, and the profile starts again', async () => {
    // the bound lowered from its 20 s; SIGSTOP holds Chromium as a stalled disk or a starved machine would
    const pool = new BrowserPool(
      () => ({ executable: '', headless: true, process_per_session: false }),
      1000,
    );
    const dir = join(dataDir, 'chromium-profiles', 'stuck');
    try {
      const host = await pool.acquireProfile(dir, true);
      const proc = host.browser.process()!;
      const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      process.kill(proc.pid!, 'SIGSTOP');
      const started = Date.now();
      expect(await pool.closeProfile(host)).toBe(true);
      // puppeteer alone waits out its 60 s protocol timeout here (and on a process that never exits, for ever)
      expect(Date.now() - started).toBeLessThan(scaled(15_000));
      await gone;
      expect(proc.signalCode).toBe('SIGKILL');
      // its lock is free: the profile launches again
      const again = await pool.acquireProfile(dir, true);
      expect(again).not.toBe(host);
      expect(await again.browser.version()).toMatch(/Chrom/);
    } finally {
      await pool.close();
    }
  }, 90_000);

  it('refuses a profile name that is a path', async () => {
    const rt = new BrowRuntime({ data_dir: dataDir });
    try {
      const o = await rt.invoke('browser_start_session', { user_data_dir: '../../etc' });
      expect(o.ok).toBe(false);
      expect(o.data.error_code).toBe('invalid_request');
      expect(o.content).toMatch(/not a profile name/);
    } finally {
      await rt.close();
    }
  });
});
