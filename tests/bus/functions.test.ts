/** Every browser::* function through the engine double, called by a real iii-sdk client. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUS_FUNCTIONS } from '../../src/doors/bus/functions.js';
import { parseBusError } from '../../src/doors/bus/errors.js';
import { TRIGGER_TYPES } from '../../src/doors/bus/triggers.js';
import { runBusFunction } from '../../src/doors/bus/worker.js';
import { busEnv, type BusEnv } from './setup.js';
import { scaled } from '../scale.js';

let env: BusEnv;
let sid: string;
const refIn = (tree: string, line: RegExp): string => {
  const hit = tree.split('\n').find((l) => line.test(l));
  const ref = hit ? /\[ref=(e\d+)\]/.exec(hit)?.[1] : undefined;
  if (!ref) throw new Error(`no line ${line} in\n${tree}`);
  return ref;
};
const snapshot = async () => (await env.call('browser::snapshot', { session_id: sid })).tree as string;
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  env = await busEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('registration', () => {
  it('registers every function of the table with request and response schemas', async () => {
    expect(env.engine.functionIds()).toEqual(expect.arrayContaining(BUS_FUNCTIONS.map((f) => f.id)));
    const nav = env.engine.functionInfo('browser::navigate')!;
    expect(nav.description).toMatch(/URL/);
    expect((nav.request_format as any).properties.url.type).toBe('string');
    expect((nav.request_format as any).required).toEqual(['session_id', 'url']);
    expect((nav.request_format as any).additionalProperties).toBe(false);
    expect((nav.response_format as any).properties.timed_out.type).toBe('boolean');
    // the engine's own introspection sees the same thing
    const info = await env.call('engine::functions::info', { function_id: 'browser::snapshot' });
    expect(info.request_format.properties.diff.type).toBe('boolean');
  });

  it('registers the worker and the trigger types with their binding and payload schemas', async () => {
    const me = env.engine.workers().find((w) => w.name === 'browser');
    expect(me?.metadata).toMatchObject({ runtime: 'node', version: '0.22.1' });
    const types = env.engine.triggerTypes();
    expect(types.map((t) => t.id)).toEqual(expect.arrayContaining(TRIGGER_TYPES.map((t) => t.id)));
    const consoleType = types.find((t) => t.id === 'browser::console-event')!;
    expect((consoleType.trigger_request_format as any).properties.session_id.type).toBe('string');
    expect((consoleType.trigger_request_format as any).additionalProperties).toBe(false);
    const info = await env.call('engine::triggers::info', { trigger_type_id: 'browser::session-stopped' });
    expect(info.call_request_format.properties.reason.enum).toEqual(['stopped', 'idle', 'crashed']);
  });
});

describe('sessions', () => {
  it('doctor reports without launching a browser', async () => {
    const d = await env.call('browser::doctor');
    expect(d).toMatchObject({
      max_sessions: 4,
      active_sessions: 0,
      browser_running: false,
      attach_enabled: false,
    });
    expect(d.chromium_path).toBe('/usr/bin/chromium');
    expect(Array.isArray(d.issues)).toBe(true);
  });

  it('starts a session on a URL, lists it, and stops it idempotently', async () => {
    const s = await env.call('browser::sessions::start', { url: env.server.url('bus/form.html') });
    expect(s).toEqual({
      session_id: expect.any(String),
      url: env.server.url('bus/form.html'),
      headless: true,
      read_only: false,
      incognito: true,
    });
    sid = s.session_id;
    const list = await env.call('browser::sessions::list');
    expect(list.sessions.find((x: any) => x.session_id === sid)).toMatchObject({
      url: env.server.url('bus/form.html'),
      active: true,
      headless: true,
      created_ms: expect.any(Number),
      last_used_ms: expect.any(Number),
    });
    const other = await env.call('browser::sessions::start', {});
    expect(other.url).toBe('about:blank');
    expect(await env.call('browser::sessions::stop', { session_id: other.session_id })).toEqual({
      ok: true,
      was_running: true,
    });
    expect(await env.call('browser::sessions::stop', { session_id: other.session_id })).toEqual({
      ok: true,
      was_running: false,
    });
    expect(await env.call('browser::sessions::stop', { session_id: 's-never' })).toEqual({
      ok: true,
      was_running: false,
    });
  });

  it('reports a failed first navigation in `error` and keeps the session', async () => {
    const s = await env.call('browser::sessions::start', { url: `http://127.0.0.1:${await closedPort()}/` });
    expect(s.error).toMatch(/ERR_CONNECTION_REFUSED/);
    await env.call('browser::sessions::stop', { session_id: s.session_id });
  });

  it('refuses a blocked scheme at start and leaves no session behind', async () => {
    const before = (await env.call('browser::sessions::list')).sessions.length;
    expect((await env.fail('browser::sessions::start', { url: 'javascript:alert(1)' })).code).toBe(
      'url_blocked',
    );
    expect((await env.call('browser::sessions::list')).sessions.length).toBe(before);
  });

  it('attach and tabs::list answer attach_disabled unless allow_attach', async () => {
    expect((await env.fail('browser::sessions::attach', { cdp_url: 'http://127.0.0.1:9' })).code).toBe(
      'attach_disabled',
    );
    expect((await env.fail('browser::tabs::list', { cdp_url: 'http://127.0.0.1:9' })).code).toBe(
      'attach_disabled',
    );
  });
});

describe('navigation and snapshots', () => {
  it('snapshots the outline with refs and a generation', async () => {
    const s = await env.call('browser::snapshot', { session_id: sid });
    expect(s.url).toBe(env.server.url('bus/form.html'));
    expect(s.title).toBe('Bus form');
    expect(s.truncated).toBe(false);
    expect(s.tree).toMatch(/^- heading "Sign up" \[level=1\] \[ref=e\d+\]$/m);
    expect(s.tree).toMatch(/^ {2}- textbox "Name" \[ref=e\d+\]$/m);
    expect(s.tree).toMatch(/^ {2}- combobox "Color" = "Red" \[ref=e\d+\]$/m);
    expect(s.generation).toBeGreaterThanOrEqual(1);
  });

  it('navigates, and reports HTTP and network errors and timeouts as data', async () => {
    const gen = (await env.call('browser::snapshot', { session_id: sid })).generation;
    const ok = await env.call('browser::navigate', {
      session_id: sid,
      url: env.server.url('bus/second.html'),
    });
    expect(ok).toEqual({
      ok: true,
      url: env.server.url('bus/second.html'),
      title: 'Second page',
      timed_out: false,
    });
    expect((await env.call('browser::snapshot', { session_id: sid })).generation).toBeGreaterThan(gen);
    const http = await env.call('browser::navigate', {
      session_id: sid,
      url: env.server.url('status?code=404'),
    });
    expect(http).toMatchObject({ ok: false, timed_out: false, error: expect.stringMatching(/HTTP 404/) });
    const net = await env.call('browser::navigate', {
      session_id: sid,
      url: `http://127.0.0.1:${await closedPort()}/`,
    });
    expect(net).toMatchObject({
      ok: false,
      timed_out: false,
      error: expect.stringMatching(/net::ERR_CONNECTION_REFUSED/),
    });
    const slow = await env.call('browser::navigate', {
      session_id: sid,
      url: env.server.url('slow?ms=3000'),
      timeout_ms: 300,
    });
    expect(slow).toMatchObject({ ok: false, timed_out: true });
    const blocked = await env.fail('browser::navigate', { session_id: sid, url: 'chrome://settings' });
    expect(blocked.code).toBe('url_blocked');
    expect(blocked.message).toMatch(/scheme "chrome:" is not allowed \(allowed: http, https\)/);
  });

  it('goes back, forward and reloads', async () => {
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/form.html') });
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/second.html') });
    expect(await env.call('browser::history', { session_id: sid, action: 'back' })).toEqual({
      ok: true,
      url: env.server.url('bus/form.html'),
      moved: true,
    });
    expect((await env.call('browser::history', { session_id: sid, action: 'forward' })).url).toBe(
      env.server.url('bus/second.html'),
    );
    expect((await env.call('browser::history', { session_id: sid, action: 'back' })).moved).toBe(true);
  });
});

describe('act', () => {
  it('types, presses, selects and clicks by ref', async () => {
    const tree = await snapshot();
    const name = refIn(tree, /textbox "Name"/);
    const typed = await env.call('browser::act', { session_id: sid, action: 'type', ref: name, text: 'Ada' });
    expect(typed).toMatchObject({ ok: true, detail: expect.stringMatching(/type/) });
    expect((await env.call('browser::act', { session_id: sid, action: 'press', key: 'Enter' })).ok).toBe(
      true,
    );
    expect(await snapshot()).toMatch(/paragraph "Enter pressed"/);
    await env.call('browser::act', {
      session_id: sid,
      action: 'select',
      ref: refIn(tree, /combobox "Color"/),
      value: 'Green',
    });
    expect(await snapshot()).toMatch(/combobox "Color" = "Green"/);
    const clicked = await env.call('browser::act', {
      session_id: sid,
      action: 'click',
      ref: refIn(tree, /button "Send"/),
    });
    expect(clicked.ok).toBe(true);
    expect(clicked.effect.action).toBe('click');
    expect(await snapshot()).toMatch(/paragraph "Hello, Ada"/);
  });

  it('hovers, drags and scrolls', async () => {
    const tree = await snapshot();
    await env.call('browser::act', {
      session_id: sid,
      action: 'hover',
      ref: refIn(tree, /button "Hover me"/),
    });
    expect(await snapshot()).toMatch(/Tooltip shown/);
    await env.call('browser::act', {
      session_id: sid,
      action: 'drag',
      ref: refIn(tree, /button "Drag source"/),
      to_ref: refIn(tree, /region "Drop target"/),
    });
    expect(await snapshot()).toMatch(/paragraph "Dropped"/);
    const scrolled = await env.call('browser::act', { session_id: sid, action: 'scroll', delta_y: 500 });
    expect(scrolled.ok).toBe(true);
    expect(
      await env.call('browser::act', { session_id: sid, action: 'scroll', delta_y: -500 }),
    ).toMatchObject({ ok: true });
  });

  it('clicks and hovers at viewport coordinates', async () => {
    const clicked = await env.call('browser::act', { session_id: sid, action: 'click', x: 450, y: 80 });
    expect(clicked.ok).toBe(true);
    expect(clicked.detail).toMatch(/at \(450, 80\)/);
    expect(await snapshot()).toMatch(/Pad clicked at 450,80/);
    expect((await env.call('browser::act', { session_id: sid, action: 'hover', x: 10, y: 10 })).ok).toBe(
      true,
    );
    const outside = await env.fail('browser::act', { session_id: sid, action: 'click', x: 5000, y: 10 });
    expect(outside.code).toBe('invalid_request');
    expect(outside.message).toMatch(/outside the 1280×800 viewport/);
  });

  it('says what an action is missing, and fails closed on an unknown ref', async () => {
    expect((await env.fail('browser::act', { session_id: sid, action: 'click' })).message).toMatch(
      /needs a ref, or both x and y/,
    );
    expect((await env.fail('browser::act', { session_id: sid, action: 'type' })).message).toMatch(
      /needs text/,
    );
    expect((await env.fail('browser::act', { session_id: sid, action: 'drag', ref: 'e1' })).message).toMatch(
      /needs a target: to_ref, to_x and to_y, or offset_x\/offset_y/,
    );
    expect((await env.fail('browser::act', { session_id: sid, action: 'click', ref: 'e99999' })).code).toBe(
      'ref_not_found',
    );
  });

  it('fails closed with stale_ref on a ref from before a navigation', async () => {
    const old = refIn(await snapshot(), /button "Send"/);
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/form.html?again') });
    const err = await env.fail('browser::act', { session_id: sid, action: 'click', ref: old });
    expect(err.code).toBe('stale_ref');
    expect(err.message).toMatch(/browser::snapshot/);
  });

  it('refuses actions in a read-only session', async () => {
    const ro = await env.call('browser::sessions::start', {
      url: env.server.url('bus/form.html'),
      read_only: true,
    });
    expect(ro.read_only).toBe(true);
    const tree = (await env.call('browser::snapshot', { session_id: ro.session_id })).tree;
    const err = await env.fail('browser::act', {
      session_id: ro.session_id,
      action: 'click',
      ref: refIn(tree, /button "Send"/),
    });
    expect(err.code).toBe('read_only');
    await env.call('browser::sessions::stop', { session_id: ro.session_id });
  });
});

describe('console and network', () => {
  it('reads console entries with filters and paging', async () => {
    const before = (await env.call('browser::console::read', { session_id: sid })).last_seq;
    await env.call('browser::navigate', { session_id: sid, url: env.server.url('bus/console.html') });
    // the page's fetch can fail (a console error) after the load: wait for this load's failure,
    // so that nothing arrives after `all` below
    await until(async () =>
      (
        await env.call('browser::console::read', { session_id: sid, level: 'error', since_seq: before })
      ).entries.some((e: any) => e.text.includes('404')),
    );
    const all = await env.call('browser::console::read', { session_id: sid });
    expect(all.entries.map((e: any) => e.text)).toEqual(
      expect.arrayContaining(['hello from the page', 'careful: a warning', 'boom: an error']),
    );
    const e0 = all.entries.find((e: any) => e.text === 'hello from the page');
    expect(e0).toMatchObject({ seq: expect.any(Number), timestamp: expect.any(Number), level: 'log' });
    expect(Object.keys(e0).sort()).toEqual(expect.arrayContaining(['level', 'seq', 'text', 'timestamp']));
    expect(all.last_seq).toBeGreaterThan(0);
    expect(all.dropped).toBe(0);
    const errors = await env.call('browser::console::read', { session_id: sid, level: 'error' });
    expect(errors.entries.map((e: any) => e.text)).toContain('boom: an error');
    expect(errors.entries.every((e: any) => e.level === 'error' || e.level === 'exception')).toBe(true);
    const matched = await env.call('browser::console::read', { session_id: sid, pattern: 'warn' });
    expect(matched.entries.map((e: any) => e.text)).toEqual(['careful: a warning']);
    const after = await env.call('browser::console::read', { session_id: sid, since_seq: all.last_seq });
    expect(after.entries).toEqual([]);
  });

  it('reads the network log; failed_only is what broke', async () => {
    await until(async () =>
      (await env.call('browser::network::read', { session_id: sid, failed_only: true })).entries.some(
        // failed_only also lists requests still in flight (pending: true): wait for the answer
        (e: any) => e.url.endsWith('/missing-resource.json') && !e.pending,
      ),
    );
    const failed = await env.call('browser::network::read', { session_id: sid, failed_only: true });
    const done = (e: any) => e.url.endsWith('/missing-resource.json') && !e.pending;
    expect(failed.entries.find(done)).toMatchObject({
      method: 'GET',
      status: 404,
      failed: true,
    });
    const all = await env.call('browser::network::read', { session_id: sid, pattern: 'console\\.html' });
    expect(all.entries[0]).toMatchObject({ status: 200, failed: false, mime_type: 'text/html' });
  });
});

async function until(cond: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > scaled(timeoutMs)) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('scripts, screenshots, DOM and styles', () => {
  it('screenshot returns a JPEG as image content, with the page it shows', async () => {
    const s = await env.call('browser::screenshot', { session_id: sid });
    expect(s.content[0]).toMatchObject({ type: 'image', mime: 'image/jpeg' });
    expect(Buffer.from(s.content[0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(s.content[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/Screenshot of/) });
    expect(s.details).toEqual({
      session_id: sid,
      url: env.server.url('bus/console.html'),
      width: expect.any(Number),
      height: expect.any(Number),
    });
    expect(s.details.width).toBeGreaterThan(0);
  });

  it('evaluate returns the completion value; a script error is data', async () => {
    expect(await env.call('browser::evaluate', { session_id: sid, expression: '6 * 7' })).toMatchObject({
      ok: true,
      value: 42,
    });
    const bad = await env.call('browser::evaluate', { session_id: sid, expression: 'nope.nope' });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/nope/);
  });

  it('execute logs and keeps state across calls', async () => {
    const a = await env.call('browser::execute', {
      session_id: sid,
      code: 'log("one"); state.n = 1; return 7',
    });
    expect(a).toMatchObject({ ok: true, result: 7, state: { n: 1 } });
    expect(a.logs.join(' ')).toMatch(/one/);
    const b = await env.call('browser::execute', { session_id: sid, code: 'state.n += 1; return state.n' });
    expect(b.result).toBe(2);
  });

  it('reads the DOM tree, of the page or below a ref', async () => {
    const page = await env.call('browser::dom::read', { session_id: sid });
    expect(page.root).toMatchObject({ tag: 'body', ref: expect.stringMatching(/^e\d+$/) });
    expect(page.truncated).toBe(false);
    expect(page.root.children.map((c: any) => c.tag)).toEqual(expect.arrayContaining(['h1', 'button']));
    const h1 = refIn(await snapshot(), /heading "Console page"/);
    const sub = await env.call('browser::dom::read', { session_id: sid, ref: h1, depth: 0 });
    expect(sub.root).toMatchObject({ tag: 'h1', ref: h1, text: 'Console page' });
  });

  it('reads computed styles and writes an inline style', async () => {
    const button = refIn(await snapshot(), /button "Log"/);
    const read = await env.call('browser::styles::read', { session_id: sid, ref: button });
    expect(read.ref).toBe(button);
    expect(read.properties.map((p: any) => p.name)).toContain('display');
    const written = await env.call('browser::styles::write', {
      session_id: sid,
      ref: button,
      property: 'color',
      value: 'rgb(255, 0, 0)',
    });
    expect(written).toEqual({ ok: true, inline_style: expect.stringMatching(/color: rgb\(255, 0, 0\)/) });
    const color = await env.call('browser::styles::read', {
      session_id: sid,
      ref: button,
      properties: ['color'],
    });
    expect(color.properties).toEqual([{ name: 'color', value: 'rgb(255, 0, 0)' }]);
    expect(color.inline_style).toMatch(/color/);
  });

  it('a function whose capability is missing answers capability_unavailable', async () => {
    const row = {
      ...BUS_FUNCTIONS.find((f) => f.id === 'browser::doctor')!,
      capability: 'browser_not_built',
    };
    const err = await runBusFunction(env.runtime, row, {}).catch((e: unknown) => e as Error);
    expect(parseBusError((err as Error).message)?.code).toBe('capability_unavailable');
    expect((err as Error).message).toMatch(/browser::doctor needs the capability browser_not_built/);
  });
});

describe('error shapes', () => {
  it('an unknown field, a missing field and an unknown session are invalid_request / session_not_found', async () => {
    const unknown = await env.fail('browser::snapshot', { session_id: sid, scope: 'full' });
    expect(unknown).toMatchObject({ code: 'invalid_request', wire: 'invocation_failed' });
    expect(unknown.message).toMatch(/unknown field\(s\) "scope".*browser::snapshot takes: session_id, diff/);
    expect((await env.fail('browser::navigate', { url: 'http://x/' })).message).toMatch(/session_id: /);
    const missing = await env.fail('browser::snapshot', { session_id: 's-nope' });
    expect(missing.code).toBe('session_not_found');
    // hints name bus functions, not the capability names of other doors
    expect(missing.message).toMatch(/— Call browser::sessions::list for live session ids/);
  });

  it('an unknown function is the engine’s function_not_found', async () => {
    await expect(env.call('browser::nope', {})).rejects.toMatchObject({ code: 'function_not_found' });
  });
});
