/** Saved login state: survives a full brow restart; 0600; encrypted with BROW_STATE_KEY; paths kept in the workspace. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt, refOf } from '../helpers.js';
import { scaled } from '../scale.js';

let server: FixtureServer;
let dataDir: string;
let workspace: string;
const users = new Map<string, string>();
const runtimes: BrowRuntime[] = [];

/** The fixture site's server side: a form POST signs in (session cookie), whoami reads the cookie. */
function siteRoutes(s: FixtureServer): void {
  s.route('/storage-login', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const user = new URLSearchParams(Buffer.concat(chunks).toString()).get('user') ?? '';
      const token = `t${users.size + 1}x${Math.random().toString(36).slice(2)}`;
      users.set(token, user);
      res.writeHead(303, {
        location: '/storage/account.html',
        'set-cookie': [`sid=${token}; HttpOnly; Path=/; SameSite=Lax`, 'seen=1; Max-Age=3600; Path=/'],
      });
      res.end();
    });
  });
  s.route('/storage-whoami', (req: IncomingMessage, res: ServerResponse) => {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ user: (sid && users.get(sid)) || null }));
  });
}

beforeAll(async () => {
  // each test sets the key it means; one from the developer's shell must not encrypt the others
  delete process.env.BROW_STATE_KEY;
  ensureInjectedBuilt();
  server = await startFixtureServer();
  siteRoutes(server);
  dataDir = mkdtempSync(join(tmpdir(), 'brow-data-'));
  workspace = mkdtempSync(join(tmpdir(), 'brow-ws-'));
});
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await server.close();
});
afterEach(() => {
  delete process.env.BROW_STATE_KEY;
});

function brow(): BrowRuntime {
  const rt = new BrowRuntime({ data_dir: dataDir, workspace_root: workspace });
  runtimes.push(rt);
  return rt;
}

async function ok(rt: BrowRuntime, name: string, input: Record<string, unknown> = {}): Promise<any> {
  const o = await rt.invoke(name, input);
  if (!o.ok) throw new Error(`${name} failed: ${o.content}`);
  return Object.assign(o.data, { __content: o.content });
}

async function err(rt: BrowRuntime, name: string, input: Record<string, unknown> = {}) {
  const o = await rt.invoke(name, input);
  if (o.ok) throw new Error(`${name} unexpectedly succeeded: ${o.content}`);
  return { code: o.data.error_code as string, content: o.content, data: o.data };
}

/** Sign in on the fixture site through its form; returns the page on the account page. */
async function signIn(rt: BrowRuntime, user: string, sessionId?: string): Promise<string> {
  const open = await ok(rt, 'browser_open_page', {
    url: server.url('storage/login.html'),
    ...(sessionId ? { session_id: sessionId } : {}),
  });
  const page = open.page_id as string;
  const refs = (await ok(rt, 'browser_list_elements', { page_id: page, scope: 'interactive' })).snapshot.refs;
  await ok(rt, 'browser_fill_form', {
    page_id: page,
    fields: [
      { ref: refOf(refs, 'textbox', 'User'), value: user },
      { ref: refOf(refs, 'textbox', 'Password'), value: 'sesame' },
    ],
  });
  await ok(rt, 'browser_click', { page_id: page, ref: refOf(refs, 'button', 'Sign in') });
  await accountText(rt, page);
  return page;
}

/** What the account page shows once its whoami call answered. */
async function accountText(rt: BrowRuntime, page: string): Promise<string> {
  const raw = rt.core.findPage(page)!.raw;
  await raw.waitForFunction(() => document.title.startsWith('Account ('), { timeout: scaled(10_000) });
  return raw.evaluate(() => document.querySelector('main')!.innerText);
}

// each test starts one or two brows, each launching its Chromium: the budget follows the machine's load
describe('saved state', { timeout: scaled(60_000) }, () => {
  it('survives a full brow restart: signed in, theme and draft restored', async () => {
    const first = brow();
    const page = await signIn(first, 'ada');
    expect(await accountText(first, page)).toMatch(
      /Signed in as ada[\s\S]*Theme: dark[\s\S]*Draft: unsent note/,
    );
    const saved = await ok(first, 'browser_save_state', { profile: 'work' });
    expect(saved.cookies).toBe(2);
    expect(saved.origins).toBe(1);
    expect(saved.file).toBe(join(dataDir, 'profiles', 'work.json'));
    // the answer counts; the values are not in it
    const token = [...users.keys()].pop()!;
    expect(saved.__content).not.toContain(token);
    expect(JSON.stringify(saved)).not.toContain(token);
    expect(JSON.stringify(saved)).not.toContain('unsent note');
    expect(statSync(saved.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(saved.file, 'utf8')).toContain(token);
    await first.close();

    // a new brow, a fresh session: signed out until the state is loaded
    const second = brow();
    const cold = await ok(second, 'browser_open_page', { url: server.url('storage/account.html') });
    expect(await accountText(second, cold.page_id)).toMatch(/Signed out[\s\S]*Theme: none/);
    await ok(second, 'browser_stop_session', { session_id: cold.session_id });

    const s = await ok(second, 'browser_start_session', {});
    const loaded = await ok(second, 'browser_load_state', { session_id: s.session_id, profile: 'work' });
    expect(loaded.cookies).toBe(2);
    expect(loaded.__content).not.toContain(token);
    const warm = await ok(second, 'browser_open_page', {
      session_id: s.session_id,
      url: server.url('storage/account.html'),
    });
    expect(await accountText(second, warm.page_id)).toMatch(
      /Signed in as ada[\s\S]*Theme: dark[\s\S]*Draft: unsent note/,
    );
    const cookies = await ok(second, 'browser_cookies', { session_id: s.session_id, action: 'get' });
    expect(cookies.cookies.find((c: any) => c.name === 'sid')).toMatchObject({
      httpOnly: true,
      value: token,
    });

    // a tab already on the origin when the state loads gets its sessionStorage at once
    const s2 = await ok(second, 'browser_start_session', {});
    const open = await ok(second, 'browser_open_page', {
      session_id: s2.session_id,
      url: server.url('storage/login.html'),
    });
    expect(open.session_id).toBe(s2.session_id);
    await ok(second, 'browser_load_state', { session_id: open.session_id, profile: 'work' });
    const draft = await second.core
      .findPage(open.page_id)!
      .raw.evaluate(() => [sessionStorage.getItem('draft'), localStorage.getItem('profile')]);
    expect(draft).toEqual(['unsent note', JSON.stringify({ user: 'ada', theme: 'dark' })]);
    await second.close();
  });

  it('browser_start_session {profile, save_on_stop} starts signed in and saves back on stop', async () => {
    const rt = brow();
    // a new profile: nothing to load, saved when the session stops
    const s1 = await ok(rt, 'browser_start_session', { profile: 'fresh', save_on_stop: true });
    expect(s1.__content).toMatch(/Profile "fresh" is new\. It is saved back when the session stops\./);
    const page = await signIn(rt, 'grace', s1.session_id);
    // no page is open when it stops: localStorage is read for the cookies' origin all the same
    await ok(rt, 'browser_close_page', { page_id: page });
    await ok(rt, 'browser_stop_session', { session_id: s1.session_id });
    const file = join(dataDir, 'profiles', 'fresh.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const s2 = await ok(rt, 'browser_start_session', { profile: 'fresh', save_on_stop: true });
    expect(s2.__content).toMatch(/Loaded profile "fresh": 2 cookie\(s\), storage of 1 origin\(s\)\./);
    const p = await ok(rt, 'browser_open_page', {
      session_id: s2.session_id,
      url: server.url('storage/account.html'),
    });
    // the tab that held sessionStorage was closed before the save: only it is gone
    expect(await accountText(rt, p.page_id)).toMatch(
      /Signed in as grace[\s\S]*Theme: dark[\s\S]*Draft: none/,
    );

    // a read-only session may start from a profile, and refuses loading one later
    const ro = await ok(rt, 'browser_start_session', { profile: 'fresh', read_only: true });
    const roPage = await ok(rt, 'browser_open_page', {
      session_id: ro.session_id,
      url: server.url('storage/account.html'),
    });
    expect(await accountText(rt, roPage.page_id)).toMatch(/Signed in as grace/);
    const roLoad = await err(rt, 'browser_load_state', { session_id: ro.session_id, profile: 'fresh' });
    expect(roLoad.code).toBe('read_only');
    expect(roLoad.data.hint).toMatch(/browser_start_session \{profile, read_only\}/);
    await ok(rt, 'browser_stop_session', { session_id: ro.session_id });

    const missing = await err(rt, 'browser_start_session', { profile: 'nobody' });
    expect(missing.code).toBe('invalid_request');
    expect(missing.content).toMatch(/No saved profile "nobody"[\s\S]*fresh/);
    const noProfile = await err(rt, 'browser_start_session', { save_on_stop: true });
    expect(noProfile.code).toBe('invalid_request');
    // the failed starts left no session behind
    expect([...rt.core.sessions.values()].filter((s) => !s.closed)).toHaveLength(1);

    // brow shutting down stops the session, which saves back too
    await ok(rt, 'browser_cookies', {
      session_id: s2.session_id,
      action: 'set',
      cookies: [{ name: 'late', value: 'v', url: `${server.origin}/` }],
    });
    await rt.close();
    const again = brow();
    const s3 = await ok(again, 'browser_start_session', { profile: 'fresh' });
    expect(s3.__content).toMatch(/Loaded profile "fresh": 3 cookie\(s\)/);
    await again.close();
  });

  it('encrypts with BROW_STATE_KEY; a missing or wrong key is a typed error with a hint', async () => {
    const rt = brow();
    await signIn(rt, 'lin');
    process.env.BROW_STATE_KEY = 'correct horse battery staple';
    const saved = await ok(rt, 'browser_save_state', { path: 'state/lin.json' });
    expect(saved.encrypted).toBe(true);
    expect(saved.file).toBe(join(workspace, 'state', 'lin.json'));
    expect(statSync(saved.file).mode & 0o777).toBe(0o600);
    const body = readFileSync(saved.file, 'utf8');
    expect(JSON.parse(body)).toMatchObject({ brow_state: 1, encrypted: 'aes-256-gcm', kdf: 'scrypt' });
    expect(body).not.toContain([...users.keys()].pop()!);
    expect(body).not.toContain('unsent note');

    const s = await ok(rt, 'browser_start_session', {});
    delete process.env.BROW_STATE_KEY;
    const missing = await err(rt, 'browser_load_state', { session_id: s.session_id, path: 'state/lin.json' });
    expect(missing.code).toBe('invalid_request');
    expect(missing.data.reason).toBe('key_missing');
    expect(missing.data.hint).toMatch(/BROW_STATE_KEY/);
    process.env.BROW_STATE_KEY = 'wrong key';
    const wrong = await err(rt, 'browser_load_state', { session_id: s.session_id, path: 'state/lin.json' });
    expect(wrong.code).toBe('invalid_request');
    expect(wrong.data.reason).toBe('key_wrong');

    process.env.BROW_STATE_KEY = 'correct horse battery staple';
    await ok(rt, 'browser_load_state', { session_id: s.session_id, path: 'state/lin.json' });
    const p = await ok(rt, 'browser_open_page', {
      session_id: s.session_id,
      url: server.url('storage/account.html'),
    });
    expect(await accountText(rt, p.page_id)).toMatch(/Signed in as lin/);
    await rt.close();
  });

  it('refuses paths outside the workspace, bad profile names and files that are not saved state', async () => {
    const rt = brow();
    const s = await ok(rt, 'browser_start_session', {});
    const out = await err(rt, 'browser_save_state', { session_id: s.session_id, path: '../escape.json' });
    expect(out.code).toBe('path_not_allowed');
    const abs = await err(rt, 'browser_save_state', { session_id: s.session_id, path: '/etc/brow.json' });
    expect(abs.code).toBe('path_not_allowed');
    symlinkSync(tmpdir(), join(workspace, 'out-link'));
    const viaLink = await err(rt, 'browser_save_state', {
      session_id: s.session_id,
      path: 'out-link/state.json',
    });
    expect(viaLink.code).toBe('path_not_allowed');
    const name = await err(rt, 'browser_save_state', { session_id: s.session_id, profile: '../../x' });
    expect(name.code).toBe('invalid_request');
    const both = await err(rt, 'browser_save_state', {
      session_id: s.session_id,
      profile: 'a',
      path: 'a.json',
    });
    expect(both.code).toBe('invalid_request');
    writeFileSync(join(workspace, 'not-state.json'), '{"hello": 1}');
    const foreign = await err(rt, 'browser_load_state', { session_id: s.session_id, path: 'not-state.json' });
    expect(foreign.code).toBe('invalid_request');
    writeFileSync(join(workspace, 'damaged.json'), '{"brow_state": 1, "cookies": {}, "origins": []}');
    const damaged = await err(rt, 'browser_load_state', { session_id: s.session_id, path: 'damaged.json' });
    expect(damaged.code).toBe('invalid_request');
    expect(damaged.content).toMatch(/is damaged/);
    const absent = await err(rt, 'browser_load_state', { session_id: s.session_id, path: 'none.json' });
    expect(absent.code).toBe('invalid_request');
    // an origin that cannot be visited is named; the others are restored
    writeFileSync(
      join(workspace, 'partly.json'),
      JSON.stringify({
        brow_state: 1,
        saved_at: new Date().toISOString(),
        cookies: [],
        origins: [
          { origin: 'http://[bad', local_storage: [['k', 'v']], session_storage: [] },
          { origin: server.origin, local_storage: [['kept', 'yes']], session_storage: [] },
        ],
      }),
    );
    const partly = await ok(rt, 'browser_load_state', { session_id: s.session_id, path: 'partly.json' });
    expect(partly.failed_origins).toEqual(['http://[bad']);
    expect(partly.__content).toMatch(/localStorage of 1 origin\(s\) could not be restored: http:\/\/\[bad\./);
    const p = await ok(rt, 'browser_open_page', {
      session_id: s.session_id,
      url: server.url('storage/login.html'),
    });
    const kept = await rt.core.findPage(p.page_id)!.raw.evaluate(() => localStorage.getItem('kept'));
    expect(kept).toBe('yes');
    const gone = await err(rt, 'browser_save_state', { session_id: 's_nope', profile: 'x' });
    expect(gone.code).toBe('session_not_found');
    await rt.close();
  });
});
