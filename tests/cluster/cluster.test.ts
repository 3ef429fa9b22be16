/**
 * A brow cluster on this machine (issue 19): a real nats-server, `brow node` workers as child
 * processes, gateways in this process. Behaviour only: placement spreads sessions, calls keep
 * affinity, a SIGKILLed worker's sessions fail fast with worker_lost, SIGTERM drains, gateways
 * come and go without losing sessions, and the workers' own policies hold through a gateway.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRuntime } from '../../src/cluster/gateway.js';
import { consoleRoute } from '../../src/doors/console/routes.js';
import { eventsRoute } from '../../src/doors/http/events-route.js';
import { startHttpServer } from '../../src/doors/http/server.js';
import { createBrow } from '../../src/doors/lib/brow.js';
import type { Outcome } from '../../src/runtime/outcome.js';
import type { BrowEvent } from '../../src/runtime/runtime.js';
import { STRAY_REJECTION } from '../../src/runtime/stop-signals.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { eventually } from '../scale.js';
import { stdioClient } from '../doors/helpers.js';
import { startNats, startWorker, type Nats, type Worker } from './harness.js';

const BIN = new URL('../../bin/brow.js', import.meta.url).pathname;
const TOKEN = 'cluster-test-token';
/**
 * The NATS server wants a token, and takes messages of 32 KB at most (the default is 1 MB): answers
 * larger than that (a long evaluate, a screenshot) then cross as chunks, as a big snapshot would.
 */
const confDir = mkdtempSync(join(tmpdir(), 'brow-nats-conf-'));
const CONF = join(confDir, 'nats.conf');
writeFileSync(CONF, `authorization { token: "${TOKEN}" }\nmax_payload: 32768\n`);
const workerOf = (id: unknown) => String(id).split('-').slice(1, -1).join('-');

let nats: Nats;
let server: FixtureServer;
const workers: Worker[] = [];
const gateways: ClusterRuntime[] = [];
const children: ChildProcess[] = [];
let gw: ClusterRuntime;

async function gateway(prefix?: string): Promise<ClusterRuntime> {
  const g = await ClusterRuntime.connect({ url: nats.url, token: TOKEN, ...(prefix ? { prefix } : {}) });
  gateways.push(g);
  return g;
}

async function ok(g: ClusterRuntime, name: string, input: Record<string, unknown> = {}): Promise<any> {
  const o = await g.invoke(name, input);
  if (!o.ok) throw new Error(`${name} failed: ${o.content}`);
  return o.data;
}

function failed(o: Outcome): { code: string; reason: unknown } {
  if (o.ok) throw new Error(`unexpectedly ok: ${o.content}`);
  return { code: o.data.error_code, reason: o.data.reason };
}

async function addRef(g: ClusterRuntime, pageId: string): Promise<string> {
  const snap = await ok(g, 'browser_list_elements', { page_id: pageId });
  return (snap.snapshot.refs as any[]).find((r) => r.role === 'button' && r.accessible_name === 'Add one')
    .ref;
}

/** Snapshot → click "Add one" by its ref → the count changed: the whole round trip through the gateway. */
async function clickCounts(g: ClusterRuntime, pageId: string): Promise<string> {
  const snap = await ok(g, 'browser_list_elements', { page_id: pageId });
  const ref = (snap.snapshot.refs as any[]).find(
    (r) => r.role === 'button' && r.accessible_name === 'Add one',
  ).ref;
  await ok(g, 'browser_click', { page_id: pageId, ref });
  const read = await ok(g, 'browser_evaluate', {
    page_id: pageId,
    expression: "document.getElementById('count').textContent",
  });
  return String(read.value);
}

beforeAll(async () => {
  ensureInjectedBuilt();
  nats = await startNats(['-c', CONF]);
  server = await startFixtureServer();
  workers.push(
    ...(await Promise.all([
      startWorker(nats.url, 'wa', ['--capacity', '4', '--nats-token', TOKEN]),
      startWorker(nats.url, 'wb', ['--capacity', '4', '--nats-token', TOKEN]),
    ])),
  );
  gw = await gateway();
}, 60_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close().catch(() => undefined)));
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.kill()));
  await nats?.stop();
  await server?.close();
  rmSync(confDir, { recursive: true, force: true });
}, 60_000);

describe('brow cluster on NATS', () => {
  let pageA = '';
  let pageB = '';
  let sessions: string[] = [];

  it('spreads new sessions over both workers, and every call of a session reaches its worker', async () => {
    const started = [];
    for (let i = 0; i < 4; i++) started.push(await ok(gw, 'browser_start_session'));
    const owners = started.map((s) => workerOf(s.session_id));
    expect(new Set(owners)).toEqual(new Set(['wa', 'wb']));
    const onA = started.find((s) => workerOf(s.session_id) === 'wa')!.session_id;
    const onB = started.find((s) => workerOf(s.session_id) === 'wb')!.session_id;
    pageA = (await ok(gw, 'browser_open_page', { session_id: onA, url: server.url('/cluster/counter.html') }))
      .page_id;
    pageB = (await ok(gw, 'browser_open_page', { session_id: onB, url: server.url('/cluster/counter.html') }))
      .page_id;
    sessions = [onA, onB];
    expect(workerOf(pageA)).toBe('wa');
    expect(workerOf(pageB)).toBe('wb');
    expect(await clickCounts(gw, pageA)).toBe('Count: 1');
    expect(await clickCounts(gw, pageB)).toBe('Count: 1');
    expect(await clickCounts(gw, pageA)).toBe('Count: 2');
    const listed = (await ok(gw, 'browser_list_sessions')).sessions.map((s: any) => s.session_id);
    expect(listed).toEqual(expect.arrayContaining(started.map((s) => s.session_id)));
    // the spare sessions go; the two with pages stay for the next tests
    for (const s of started)
      if (s.session_id !== onA && s.session_id !== onB)
        await ok(gw, 'browser_stop_session', { session_id: s.session_id });
  }, 60_000);

  it('a call naming no page goes to the caller’s last page, on its worker', async () => {
    await ok(gw, 'browser_activate_page', { page_id: pageB });
    expect((await ok(gw, 'browser_list_elements')).page_id).toBe(pageB);
  }, 30_000);

  it('streams events from the workers and reports the cluster in doctor and cluster status', async () => {
    const seen: BrowEvent[] = [];
    const off = gw.subscribe({ types: ['navigated'] }, (e) => seen.push(e));
    await ok(gw, 'browser_navigate', { page_id: pageA, url: server.url('/cluster/counter.html?again=1') });
    await eventually(() => seen.some((e) => e.page_id === pageA), 5000, 20);
    off();
    expect(seen.some((e) => e.page_id === pageA && workerOf(e.session_id) === 'wa')).toBe(true);
    // a reader resuming with since_seq gets them from the history (the worker's)
    expect(
      (await gw.history({ session_id: sessions[0]!, types: ['navigated'] })).map((e) => e.page_id),
    ).toContain(pageA);

    const doctor = await ok(gw, 'browser_doctor');
    expect(doctor.cluster.workers.map((w: any) => w.id).sort()).toEqual(['wa', 'wb']);
    const status = await promisify(execFile)(process.execPath, [
      BIN,
      'cluster',
      'status',
      '--nats',
      nats.url,
      '--nats-token',
      TOKEN,
      '--json',
    ]);
    const ws = JSON.parse(status.stdout).workers;
    expect(ws.map((w: any) => w.id)).toEqual(['wa', 'wb']);
    expect(ws[0]).toMatchObject({ capacity: 4, draining: false });
    expect(ws[0].chromium_version).toMatch(/Chrom/);
  }, 30_000);

  it('a new gateway replays the history of every worker: a reader resuming after a seq gets what it missed', async () => {
    const [sA, sB] = sessions as [string, string];
    await ok(gw, 'browser_navigate', { page_id: pageA, url: server.url('/cluster/counter.html?h=1') });
    await ok(gw, 'browser_navigate', { page_id: pageB, url: server.url('/cluster/counter.html?h=1') });
    // a gateway that has had no listener: everything comes from the workers
    const fresh = await gateway();
    const all = await fresh.history({ types: ['navigated'] });
    const from = new Set(all.map((e) => workerOf(e.session_id)));
    expect(from).toEqual(new Set(['wa', 'wb']));
    const onA = all.filter((e) => e.session_id === sA);
    expect(onA.length).toBeGreaterThan(0);
    // resume after the second-to-last navigation of session A: only the later ones come
    const mark = onA.length > 1 ? onA[onA.length - 2]!.seq : 0;
    const resumed = await fresh.history({ session_id: sA, types: ['navigated'] }, mark);
    expect(resumed.map((e) => e.seq)).toEqual(onA.filter((e) => e.seq > mark).map((e) => e.seq));
    expect(resumed.every((e) => e.session_id === sA)).toBe(true);

    // the same over /v1/events on that gateway: since_seq replays from the workers, then the live stream follows
    const http = await startHttpServer(fresh, { port: 0, extraRoutes: [eventsRoute(fresh)] });
    const ac = new AbortController();
    try {
      const res = await fetch(`${http.url}/v1/events?session_id=${sB}&types=navigated&since_seq=0`, {
        signal: ac.signal,
      });
      const reader = res.body!.getReader();
      let text = '';
      const ids = () => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]!);
      const onB = (await fresh.history({ session_id: sB, types: ['navigated'] })).map(
        (e) => `${e.session_id}:${e.seq}`,
      );
      while (ids().length < onB.length) text += new TextDecoder().decode((await reader.read()).value);
      expect(ids()).toEqual(onB);
      await ok(gw, 'browser_navigate', { page_id: pageB, url: server.url('/cluster/counter.html?h=2') });
      while (ids().length < onB.length + 1) text += new TextDecoder().decode((await reader.read()).value);
      expect(ids().at(-1)).toMatch(new RegExp(`^${sB}:\\d+$`));
      expect(new Set(ids()).size).toBe(ids().length);
    } finally {
      ac.abort();
      await http.close();
      await fresh.close();
    }
  }, 30_000);

  it("keeps the worker's policies: read-only sessions, the scheme allowlist, attach off", async () => {
    const ro = (await ok(gw, 'browser_start_session', { read_only: true })).session_id;
    const page = (
      await ok(gw, 'browser_open_page', { session_id: ro, url: server.url('/cluster/counter.html') })
    ).page_id;
    const snap = await ok(gw, 'browser_list_elements', { page_id: page });
    const ref = (snap.snapshot.refs as any[]).find((r) => r.role === 'button').ref;
    expect(failed(await gw.invoke('browser_click', { page_id: page, ref })).code).toBe('read_only');
    expect(
      failed(await gw.invoke('browser_navigate', { page_id: pageA, url: 'file:///etc/passwd' })).code,
    ).toBe('url_blocked');
    expect(failed(await gw.invoke('browser_attach_session', { cdp_url: 'http://127.0.0.1:9' })).code).toBe(
      'attach_disabled',
    );
    await ok(gw, 'browser_stop_session', { session_id: ro });
  }, 30_000);

  it('passes the caller’s abort on to the worker', async () => {
    const ac = new AbortController();
    const call = gw.invoke(
      'browser_wait',
      { page_id: pageA, condition: 'text', value: 'Never shown', timeout_ms: 100_000 },
      { signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 300);
    const out = await call;
    // the worker's wait ended early: it answers, not the gateway's own deadline
    expect(out.ok).toBe(false);
    expect(failed(out).code, out.content).not.toBe('session_closed');
    expect(out.content).toMatch(/cancelled/);
    // the page is still usable afterwards
    expect(await clickCounts(gw, pageA)).toMatch(/^Count: \d$/);
  }, 60_000);

  it('a second gateway sees and uses a session started through the first; a gateway restart loses nothing', async () => {
    const second = await gateway();
    const listed = (await ok(second, 'browser_list_sessions')).sessions.map((s: any) => s.session_id);
    expect(listed).toEqual(expect.arrayContaining(sessions));
    expect(await clickCounts(second, pageB)).toMatch(/^Count: \d$/);
    await gw.close();
    gw = await gateway();
    expect(await clickCounts(gw, pageA)).toMatch(/^Count: \d$/);
    expect(await clickCounts(gw, pageB)).toMatch(/^Count: \d$/);
  }, 60_000);

  it('answers larger than a NATS message cross in chunks (a long evaluate, a screenshot)', async () => {
    const big = await ok(gw, 'browser_evaluate', { page_id: pageA, expression: "'x'.repeat(45000)" });
    expect(String(big.value)).toHaveLength(45000);
    const shot = await gw.invoke('browser_screenshot', { page_id: pageA });
    expect(shot.ok, shot.content).toBe(true);
    expect(shot.ok && shot.images?.[0]?.data.length).toBeGreaterThan(1000);
  }, 30_000);

  it('every door works on a gateway: the HTTP tool API and the console overview', async () => {
    const http = await startHttpServer(gw, { port: 0, extraRoutes: [consoleRoute(gw)] });
    try {
      const listed = await fetch(`${http.url}/v1/tools/browser_list_sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.json() as Promise<any>);
      expect(listed.data.sessions.map((s: any) => s.session_id)).toEqual(expect.arrayContaining(sessions));
      const overview = await fetch(`${http.url}/console/api/overview`).then((r) => r.json() as Promise<any>);
      const pages = overview.data.sessions.flatMap((s: any) => s.pages.map((p: any) => p.page_id));
      expect(pages).toEqual(expect.arrayContaining([pageA, pageB]));
    } finally {
      await http.close();
    }
  }, 30_000);

  it('keeps clusters apart by prefix, and NATS credentials are required', async () => {
    const other = await gateway('team2');
    expect(failed(await other.invoke('browser_start_session', {}))).toEqual({
      code: 'resource_limit',
      reason: 'no_workers',
    });
    await expect(ClusterRuntime.connect({ url: nats.url, token: 'wrong' })).rejects.toThrow(
      /Cannot connect to NATS.*(Authorization|auth)/i,
    );
  }, 30_000);

  it('brow serve --nats, createBrow({nats}) and the console viewport are gateways too', async () => {
    const serve = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--nats', nats.url, '--nats-token', TOKEN, '--no-console'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROW_NO_BUNDLE: '1' } },
    );
    children.push(serve);
    let out = '';
    serve.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    serve.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    await eventually(() => /tool API at (\S+)\/v1\/tools/.test(out) || serve.exitCode !== null, 15_000);
    const base = /tool API at (\S+)\/v1\/tools/.exec(out)?.[1];
    expect(base, out).toBeTruthy();
    const listed = await fetch(`${base}/v1/tools/browser_list_sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then((r) => r.json() as Promise<any>);
    expect(listed.data.sessions.map((s: any) => s.session_id)).toEqual(expect.arrayContaining(sessions));
    serve.kill('SIGTERM');
    expect(await new Promise((r) => serve.once('exit', r))).toBe(0);

    // the CLI daemon, started by a browser command, is a gateway when BROW_NATS names the cluster
    // a runtime dir of its own: the daemon's socket and log go with the test, not into the user's
    const runtimeDir = mkdtempSync(join(tmpdir(), 'brow-cluster-rt-'));
    const env = {
      ...process.env,
      BROW_NATS: nats.url,
      BROW_NATS_TOKEN: TOKEN,
      BROW_CONSOLE: 'false',
      BROW_RUNTIME_DIR: runtimeDir,
    };
    const profile = `cluster-${process.pid}`;
    try {
      const cli = await promisify(execFile)(
        process.execPath,
        [BIN, 'list-sessions', '--session', profile, '--json'],
        {
          env,
        },
      );
      const fromCli = JSON.parse(cli.stdout).data.sessions.map((s: any) => s.session_id);
      expect(fromCli).toEqual(expect.arrayContaining(sessions));
    } finally {
      await promisify(execFile)(process.execPath, [BIN, 'daemon', 'stop', '--session', profile], { env });
      rmSync(runtimeDir, { recursive: true, force: true });
    }

    const brow = await createBrow({ nats: { url: nats.url, token: TOKEN } });
    try {
      const page = await brow.listPages({ session_id: sessions[1] });
      expect(page.ok && (page.data.pages as any[]).map((p) => p.page_id)).toContain(pageB);
    } finally {
      await brow.close();
    }

    const frames: unknown[] = [];
    const stop = gw.live().watch(pageA, { frame: (f) => frames.push(f) });
    try {
      let polls = 0;
      await eventually(async () => {
        if (++polls % 20 === 10)
          await ok(gw, 'browser_click', { page_id: pageA, ref: await addRef(gw, pageA) });
        return frames.length > 0;
      }, 10_000);
      expect(frames.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
  }, 60_000);

  it('brow mcp --nats is a gateway: an MCP client drives a session on a worker', async () => {
    const { client, stderr } = await stdioClient(['--nats', nats.url, '--nats-token', TOKEN, '--caps=core']);
    try {
      const { tools } = await client.listTools();
      expect(tools.some((t) => t.name === 'browser_click')).toBe(true);
      const text = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          content: { type: string; text?: string }[];
          structuredContent?: any;
        };
        expect(r.isError, `${name}: ${JSON.stringify(r.content)} ${stderr()}`).toBeFalsy();
        return r;
      };
      const opened = await text('browser_open_page', { url: server.url('cluster/counter.html') });
      const pageId = opened.structuredContent.page_id as string;
      // the page lives on a worker: its id names one
      expect(['wa', 'wb']).toContain(workerOf(pageId));
      const listing = (await text('browser_list_elements', { page_id: pageId })).content[0]!.text!;
      const ref = /\[button ref=(e\d+)[^\]]*\] Add one/.exec(listing)?.[1];
      expect(ref, listing).toBeTruthy();
      await text('browser_click', { page_id: pageId, ref });
      const count = await text('browser_evaluate', {
        page_id: pageId,
        expression: "document.getElementById('count').textContent",
      });
      expect(count.structuredContent.value).toBe('Count: 1');
      await text('browser_close_page', { page_id: pageId });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SIGKILL: the dead worker's sessions fail fast with worker_lost, the others go on, new sessions go to the survivor", async () => {
    const wb = workers.find((w) => w.name === 'wb')!;
    const running = gw.invoke('browser_wait', {
      page_id: pageB,
      condition: 'text',
      value: 'Never shown',
      timeout_ms: 100_000,
    });
    // the call is on the worker (it says so in its status) before the kill
    for (let i = 0; i < 200; i++) {
      const st = (await gw.workers.refresh()).find((w) => w.id === 'wb');
      if (st && st.running > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    // SIGKILL, its Chromium too (found first: an orphan would outlive the test)
    const killed = wb.kill();
    expect(failed(await running)).toEqual({ code: 'session_closed', reason: 'worker_lost' });
    expect(failed(await gw.invoke('browser_list_elements', { page_id: pageB }))).toEqual({
      code: 'session_closed',
      reason: 'worker_lost',
    });
    expect(await clickCounts(gw, pageA)).toMatch(/^Count: \d$/);
    const fresh = await ok(gw, 'browser_start_session');
    expect(workerOf(fresh.session_id)).toBe('wa');
    await ok(gw, 'browser_stop_session', { session_id: fresh.session_id });
    await killed;
  }, 60_000);

  it('SIGTERM drains: the running call finishes, then the worker stops its sessions and leaves', async () => {
    const wc = await startWorker(nats.url, 'wc', ['--capacity', '8', '--nats-token', TOKEN]);
    workers.push(wc);
    await gw.workers.refresh();
    const s = (await ok(gw, 'browser_start_session')).session_id;
    expect(workerOf(s)).toBe('wc'); // the most free
    const page = (
      await ok(gw, 'browser_open_page', { session_id: s, url: server.url('/cluster/counter.html?late=1500') })
    ).page_id;
    const running = gw.invoke('browser_wait', {
      page_id: page,
      condition: 'text',
      value: 'Arrived',
      timeout_ms: 60_000,
    });
    for (let i = 0; i < 200; i++) {
      const st = (await gw.workers.refresh()).find((w) => w.id === 'wc');
      if (st && st.running > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    wc.proc.kill('SIGTERM');
    const out = await running;
    expect(out.ok, out.content).toBe(true);
    expect(await wc.exited).toBe(0);
    expect(failed(await gw.invoke('browser_list_elements', { page_id: page })).code).toBe('session_closed');
    const next = await ok(gw, 'browser_start_session');
    expect(workerOf(next.session_id)).toBe('wa');
    await ok(gw, 'browser_stop_session', { session_id: next.session_id });
  }, 60_000);
  it('survives a NATS restart: a call in flight fails clearly, then the same session works again', async () => {
    const running = gw.invoke('browser_wait', {
      page_id: pageA,
      condition: 'text',
      value: 'Never shown',
      timeout_ms: 100_000,
    });
    // the call has reached its worker (the worker's status counts it as running)
    const reached = async () =>
      ((await gw.workers.refresh()).find((w) => w.id === workerOf(pageA))?.running ?? 0) > 0;
    expect(await eventually(reached, 10_000), 'the wait to reach its worker').toBe(true);
    await nats.stop();
    expect(failed(await running)).toEqual({ code: 'connection_failed', reason: 'nats_disconnected' });
    nats = await startNats(['-c', CONF], nats.port);
    let out: Outcome | null = null;
    for (let i = 0; i < 200; i++) {
      out = await gw.invoke('browser_list_elements', { page_id: pageA });
      if (out.ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out?.ok, out?.content).toBe(true);
    expect(await clickCounts(gw, pageA)).toMatch(/^Count: \d+$/);
  }, 60_000);

  it('no worker met a rejection nothing handled (it logs one and goes on; before, it died of it)', () => {
    for (const w of workers) expect(w.log(), `worker ${w.name}`).not.toContain(STRAY_REJECTION);
  });
});
