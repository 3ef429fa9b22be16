/** The one event stream on the other doors: server-sent events on HTTP, and browser_wait for an event. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsRoute } from '../../src/doors/http/events-route.js';
import { startHttpServer, type RunningServer } from '../../src/doors/http/server.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { eventually } from '../scale.js';
import { until } from './setup.js';

let runtime: BrowRuntime;
let fixtures: FixtureServer;
let http: RunningServer;

interface Sse {
  events: { id: string; event: string; data: any }[];
  status: number;
  close(): void;
}

/** Read a server-sent event stream in the background. */
async function sse(path: string): Promise<Sse> {
  const ctl = new AbortController();
  const res = await fetch(`${http.url}${path}`, { signal: ctl.signal });
  const out: Sse = { events: [], status: res.status, close: () => ctl.abort() };
  if (!res.ok || !res.body) return out;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buf += value;
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const field = (k: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(`${k}:`))
            ?.slice(k.length + 1)
            .trim();
        const data = field('data');
        if (data)
          out.events.push({ id: field('id') ?? '', event: field('event') ?? '', data: JSON.parse(data) });
      }
    }
  })();
  return out;
}

const must = async (name: string, input: Record<string, unknown>) => {
  const o = await runtime.invoke(name, input);
  if (!o.ok) throw new Error(o.content);
  return o.data as any;
};

beforeAll(async () => {
  ensureInjectedBuilt();
  fixtures = await startFixtureServer();
  runtime = new BrowRuntime();
  http = await startHttpServer(runtime, {
    port: 0,
    extraRoutes: [eventsRoute(runtime, { heartbeatMs: 200 })],
  });
});
afterAll(async () => {
  await http?.close();
  await runtime?.close();
  await fixtures?.close();
});

describe('GET /v1/events', () => {
  it('streams the events of one session, filtered by type, with resumable ids', async () => {
    const a = (await must('browser_start_session', {})).session_id as string;
    const b = (await must('browser_start_session', {})).session_id as string;
    const stream = await sse(`/v1/events?session_id=${a}&types=console-event,navigated`);
    expect(stream.status).toBe(200);
    await must('browser_open_page', { session_id: b, url: fixtures.url('bus/console.html') });
    await must('browser_open_page', { session_id: a, url: fixtures.url('bus/console.html') });
    await until(
      () => stream.events.some((e) => e.data.entry?.text === 'boom: an error'),
      'the console events',
    );
    stream.close();
    expect(stream.events.every((e) => e.data.session_id === a)).toBe(true);
    expect(new Set(stream.events.map((e) => e.event))).toEqual(new Set(['console-event', 'navigated']));
    const boom = stream.events.find((e) => e.data.entry?.text === 'boom: an error')!;
    expect(boom.id).toBe(`${a}:${boom.data.seq}`);
    const seqs = stream.events.map((e) => e.data.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);

    // a reader that went away resumes after the last seq it saw, from the recent history
    const last = stream.events.find((e) => e.data.entry?.text === 'hello from the page')!.data.seq;
    const resumed = await sse(`/v1/events?session_id=${a}&since_seq=${last}`);
    await until(() => resumed.events.some((e) => e.data.entry?.text === 'boom: an error'), 'the replay');
    resumed.close();
    expect(resumed.events.every((e) => e.data.seq > last)).toBe(true);
    expect(resumed.events.map((e) => e.event)).toContain('console-event');
  });

  it('refuses unknown types and a bad since_seq with invalid_request', async () => {
    const bad = await fetch(`${http.url}/v1/events?types=console,navigated`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).data).toMatchObject({
      error_code: 'invalid_request',
      message: expect.stringMatching(/console/),
    });
    expect((await fetch(`${http.url}/v1/events?since_seq=-1`)).status).toBe(400);
  });

  it('keeps the stream open with heartbeats and ends it when the reader goes', async () => {
    const res = await fetch(`${http.url}/v1/events?types=session-stopped`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': ping')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    expect(text.startsWith(': brow events')).toBe(true);
  });
});

describe('browser_wait for an event', () => {
  it('resolves on the next event of that type in the session', async () => {
    const opened = await must('browser_open_page', { url: fixtures.url('bus/form.html') });
    const events = runtime.core.events;
    const others = events.listening('navigated', opened.session_id);
    const waiting = runtime.invoke('browser_wait', {
      page_id: opened.page_id,
      condition: 'event',
      value: 'navigated',
      timeout_ms: 10_000,
    });
    expect(
      await eventually(() => events.listening('navigated', opened.session_id) > others, 10_000),
      "browser_wait's subscription",
    ).toBe(true);
    await must('browser_navigate', { page_id: opened.page_id, url: fixtures.url('bus/second.html') });
    const r = await waiting;
    expect(r.ok).toBe(true);
    expect(r.data.detail).toMatchObject({
      event: { type: 'navigated', session_id: opened.session_id, url: fixtures.url('bus/second.html') },
    });
  });

  it('times out saying what it waited for, and refuses an unknown event type', async () => {
    const page_id = (await must('browser_open_page', { url: fixtures.url('bus/second.html') })).page_id;
    const t = await runtime.invoke('browser_wait', {
      page_id,
      condition: 'event',
      value: 'dialog',
      timeout_ms: 200,
    });
    expect(t.ok).toBe(false);
    expect(t.data).toMatchObject({ error_code: 'timeout', message: expect.stringMatching(/"dialog" event/) });
    const u = await runtime.invoke('browser_wait', {
      page_id,
      condition: 'event',
      value: 'nope',
      timeout_ms: 200,
    });
    expect(u.data).toMatchObject({
      error_code: 'invalid_request',
      message: expect.stringMatching(/Unknown event type "nope"/),
    });
  });
});
