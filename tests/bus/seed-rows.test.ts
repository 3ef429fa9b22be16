/**
 * Seed 002's rows as the seed says them (issue 15): sessions::list titles, doctor's data_dir, the
 * snapshot's truncation hint, an evaluate timeout as a result, session-started's URL, requests in
 * flight as pending, and the seed's configuration keys applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/doors/bus/config-sync.js';
import { busEnv, until, type BusEnv } from './setup.js';
import { eventually } from '../scale.js';

let env: BusEnv;
let sid: string;

beforeAll(async () => {
  env = await busEnv();
  sid = (await env.call('browser::sessions::start', { url: env.server.url('bus/second.html') })).session_id;
});
afterAll(async () => {
  await env?.close();
});

describe('seed 002 rows', () => {
  it('sessions::list entries carry the title of the page at url', async () => {
    const { sessions } = await env.call('browser::sessions::list');
    const mine = sessions.find((s: { session_id: string }) => s.session_id === sid);
    expect(mine).toMatchObject({ url: env.server.url('bus/second.html'), title: 'Second page' });
  });

  it('doctor carries data_dir', async () => {
    const d = await env.call('browser::doctor');
    expect(typeof d.data_dir).toBe('string');
    expect(d.data_dir.length).toBeGreaterThan(0);
  });

  it("the snapshot's truncation hint names browser::snapshot's own fields, and they work", async () => {
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/form.html') });
    await env.call('browser::evaluate', {
      session_id: sid,
      expression:
        "document.body.insertAdjacentHTML('beforeend', '<nav>' + Array.from({ length: 200 }, (_, i) => '<button>Button ' + i + '</button>').join('') + '</nav>')",
    });
    const cut = await env.call('browser::snapshot', { session_id: sid, max_chars: 500 });
    expect(cut.truncated).toBe(true);
    const hint = cut.tree.split('\n').at(-1);
    expect(hint).toMatch(/snapshot truncated: \d+ more lines; call browser::snapshot with ref .* max_chars/);
    expect(hint).not.toMatch(/raise max_chars|read a subtree/);
    // the fields it names are taken: a ref's subtree
    const whole = await env.call('browser::snapshot', { session_id: sid });
    expect(whole.truncated).toBe(false);
    const line = (whole.tree as string).split('\n').find((l) => /button "Button 7"/.test(l))!;
    const ref = /\[ref=(e\d+)\]/.exec(line)![1]!;
    const sub = await env.call('browser::snapshot', { session_id: sid, ref });
    expect(sub.tree).toContain(`[ref=${ref}]`);
    expect(sub.tree).not.toContain('Button 8');
  });

  it('an evaluate timeout is {ok: false, error}, as the seed shapes it', async () => {
    const r = await env.call('browser::evaluate', {
      session_id: sid,
      expression: 'new Promise(() => {})',
      timeout_ms: 300,
    });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/did not finish within 300 ms/);
    // the session is still usable
    expect((await env.call('browser::evaluate', { session_id: sid, expression: '1 + 1' })).value).toBe(2);
  });

  it('session-started carries the URL the start call asked for', async () => {
    const seen: any[] = [];
    env.agent.registerFunction('sub::seed-started', async (p: unknown) => {
      seen.push(p);
      return null;
    });
    env.agent.registerTrigger({
      type: 'browser::session-started',
      function_id: 'sub::seed-started',
      config: {},
    });
    await env.engine.waitFor(
      () => env.engine.triggers().some((t) => t.function_id === 'sub::seed-started' && t.status === 'ok'),
      'the session-started binding',
    );
    const url = env.server.url('bus/console.html');
    const started = await env.call('browser::sessions::start', { url });
    await until(() => seen.some((p) => p.session_id === started.session_id), 'session-started');
    expect(seen.find((p) => p.session_id === started.session_id)).toMatchObject({ url, headless: true });
    // without a url it is about:blank
    const blank = await env.call('browser::sessions::start', {});
    await until(() => seen.some((p) => p.session_id === blank.session_id), 'session-started (blank)');
    expect(seen.find((p) => p.session_id === blank.session_id).url).toBe('about:blank');
    await env.call('browser::sessions::stop', { session_id: started.session_id });
    await env.call('browser::sessions::stop', { session_id: blank.session_id });
  });

  it('a request in flight reads pending (no failed: false), so failed_only catches its 500 later', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    env.server.route('/late-500', (_req, res) => {
      void gate.then(() => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('late failure');
      });
    });
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/second.html') });
    const before = await env.call('browser::network::read', { session_id: sid });
    await env.call('browser::evaluate', { session_id: sid, expression: "void fetch('/late-500')" });
    const inFlight = async () =>
      (await env.call('browser::network::read', { session_id: sid, failed_only: true })).entries.filter(
        (e: { url: string }) => e.url.endsWith('/late-500'),
      );
    let pending: any[] = [];
    await eventually(async () => (pending = await inFlight()).length > 0, 5000, 25);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ pending: true, method: 'GET' });
    expect(pending[0]).not.toHaveProperty('failed');
    // a since_seq read resumes before the request still in flight
    const page = await env.call('browser::network::read', {
      session_id: sid,
      failed_only: true,
      since_seq: before.last_seq,
    });
    expect(page.last_seq).toBeLessThan(pending[0].seq);

    release();
    let done: any;
    await eventually(
      async () => {
        const r = await env.call('browser::network::read', {
          session_id: sid,
          failed_only: true,
          since_seq: page.last_seq,
        });
        done = r.entries.find(
          (e: { url: string; pending?: boolean }) => e.url.endsWith('/late-500') && !e.pending,
        );
        return !!done;
      },
      10_000,
      25,
    );
    expect(done).toMatchObject({ status: 500, failed: true });
    expect(done).not.toHaveProperty('pending');
  });
});

describe("seed 002's configuration keys", () => {
  it('applies screenshot_quality, max_snapshot_nodes, user_data_dir; skips an unknown key', async () => {
    const lines: string[] = [];
    const report = applyConfig(
      env.runtime,
      {
        executable: '',
        user_data_dir: '/tmp/brow-seed-profile',
        headless: true,
        max_sessions: 6,
        console_buffer: 500,
        network_buffer: 500,
        default_timeout_ms: 30_000,
        max_timeout_ms: 120_000,
        idle_stop_ms: 300_000,
        screenshot_quality: 60,
        allowed_schemes: ['http', 'https'],
        max_snapshot_nodes: 2000,
        allow_attach: false,
        not_a_key: 1,
      },
      (m) => lines.push(m),
    );
    expect(report.applied).toBe(true);
    expect(report.keys).toEqual(
      expect.arrayContaining(['screenshot_quality', 'max_snapshot_nodes', 'max_sessions', 'user_data_dir']),
    );
    expect(report.not_applied).toEqual({});
    expect(report.unknown).toEqual(['not_a_key']);
    expect(env.runtime.config).toMatchObject({
      max_sessions: 6,
      screenshot_quality: 60,
      max_snapshot_nodes: 2000,
      user_data_dir: '/tmp/brow-seed-profile',
    });
    // back to fresh contexts for the tests that follow
    applyConfig(env.runtime, { user_data_dir: '' }, () => undefined);
    expect(env.runtime.config.user_data_dir).toBe('');
    expect(lines.join('\n')).toMatch(/unknown key\(s\) skipped: "not_a_key"/);
  });

  it('max_snapshot_nodes bounds the snapshot walk', async () => {
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/form.html') });
    applyConfig(env.runtime, { max_snapshot_nodes: 10 }, () => undefined);
    const cut = await env.call('browser::snapshot', { session_id: sid });
    expect(cut.truncated).toBe(true);
    expect(cut.tree.split('\n').at(-1)).toMatch(
      /snapshot truncated: the page walk stopped at max_snapshot_nodes; call browser::snapshot with ref/,
    );
    applyConfig(env.runtime, { max_snapshot_nodes: 200_000 }, () => undefined);
    const whole = await env.call('browser::snapshot', { session_id: sid });
    expect(whole.truncated).toBe(false);
    expect(whole.tree.split('\n').length).toBeGreaterThan(cut.tree.split('\n').length);
  });

  it("screenshot_quality is the screenshot JPEG's quality", async () => {
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/form.html') });
    const bytes = async (q: number) => {
      applyConfig(env.runtime, { screenshot_quality: q }, () => undefined);
      const s = await env.call('browser::screenshot', { session_id: sid });
      return Buffer.from(s.content[0].data, 'base64').length;
    };
    const low = await bytes(5);
    const high = await bytes(100);
    expect(low).toBeLessThan(high);
  });
});
