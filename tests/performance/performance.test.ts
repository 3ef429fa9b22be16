/** browser_performance on a fixture with a known LCP block, a layout shift and a 200 ms click handler. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeTrace } from '../../src/core/performance/trace.js';
import { PAGES_DIR } from '../fixtures/server.js';
import { harness, refOf, type Harness } from '../helpers.js';

/** How long the fixture server waits before it answers the vitals page. */
const SERVER_DELAY_MS = 400;

describe('browser_performance', () => {
  let h: Harness;
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'brow-perf-'));
    h = await harness({ workspace_root: workspace, max_sessions: 8 });
    // the vitals page, its first byte held back SERVER_DELAY_MS: TTFB has a floor it cannot be under
    h.server.route('/performance/vitals-slow.html', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(readFileSync(join(PAGES_DIR, 'performance/vitals.html')));
      }, SERVER_DELAY_MS);
    });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('measures LCP, CLS, INP of a click through brow, TTFB, FCP and the longest task; saves a trace that parses', async () => {
    const page = await h.open('performance/vitals-slow.html');
    const started = await h.ok('browser_performance', { page_id: page, action: 'start', reload: true });
    expect(started).toMatchObject({ recording: true, reloaded: true });
    // the banner shifts the content once the page has loaded
    await h.ok('browser_wait', { page_id: page, condition: 'text', value: 'Banner inserted' });
    const busy = refOf(await h.refs(page), 'button', 'Busy work');
    await h.ok('browser_click', { page_id: page, ref: busy });
    await h.ok('browser_wait', { page_id: page, condition: 'text', value: 'done' });
    const r = await h.ok('browser_performance', { page_id: page, action: 'stop', path: 'out/vitals.json' });
    console.log(r.__content);

    expect(r.recording).toBe(false);
    expect(r.lcp_ms).toBeGreaterThan(0);
    expect(r.lcp_element).toMatch(/^p#hero "Large hero text block/);
    expect(r.cls).toBeGreaterThan(0);
    expect(r.layout_shifts).toBeGreaterThan(0);
    // the click ran a 200 ms busy loop: the interaction lasted at least most of it
    expect(r.interactions).toBeGreaterThan(0);
    expect(r.inp_ms).toBeGreaterThanOrEqual(150);
    expect(r.inp_note).toMatch(/button#busy/);
    // the server held the first byte back SERVER_DELAY_MS; the page paints only after its first byte
    expect(r.ttfb_ms).toBeGreaterThanOrEqual(SERVER_DELAY_MS);
    expect(r.fcp_ms).toBeGreaterThan(0);
    expect(r.ttfb_ms).toBeLessThanOrEqual(r.fcp_ms);
    expect(r.long_tasks.length).toBeGreaterThan(0);
    expect(r.long_tasks.length).toBeLessThanOrEqual(5);
    // the click's task is among the longest, named by its handler, which ran the 200 ms busy loop
    // (on a loaded machine the reload's unload can take as long, so it need not be the first)
    const click = (r.long_tasks as { what: string; duration_ms: number }[]).find(
      (t) => t.what === 'click handler',
    );
    expect(click, JSON.stringify(r.long_tasks)).toBeTruthy();
    expect(click!.duration_ms).toBeGreaterThanOrEqual(150);
    expect(r.warnings).toEqual([]);

    expect(r.trace_path).toBe(join('out', 'vitals.json'));
    const file = join(workspace, 'out/vitals.json');
    expect(existsSync(file)).toBe(true);
    const trace = JSON.parse(readFileSync(file, 'utf8'));
    expect(Array.isArray(trace.traceEvents ?? trace)).toBe(true);
    expect(summarizeTrace(trace).long_tasks.length).toBeGreaterThan(0);

    expect(r.__content).toMatch(/^LCP \d+ ms \(p#hero/m);
    expect(r.__content).toMatch(/^CLS 0\.\d+/m);
    expect(r.__content).toMatch(/^INP \d+ ms \(pointerup|^INP \d+ ms \(\w+ on button#busy/m);
    expect(r.__content).toMatch(/^Longest tasks:/m);
    expect(r.__content).toContain('Trace: out/vitals.json');
  });

  it('without an interaction INP is "not measured"; the default trace path is in the workspace', async () => {
    const page = await h.open('performance/vitals.html');
    await h.ok('browser_wait', { page_id: page, condition: 'load_state', state: 'load' });
    await h.ok('browser_performance', { page_id: page, action: 'start' });
    const r = await h.ok('browser_performance', { page_id: page, action: 'stop' });
    expect(r.inp_ms).toBeNull();
    expect(r.inp_note).toMatch(/^not measured \(no interaction/);
    expect(r.__content).toMatch(/^INP not measured \(no interaction/m);
    // observers are buffered: the load's LCP is there without a reload
    expect(r.lcp_element).toMatch(/p#hero/);
    expect(r.trace_path).toMatch(/^traces[/\\]p/);
    expect(existsSync(join(workspace, r.trace_path))).toBe(true);
  });

  it('refuses stop without start, start twice, and a trace path outside the workspace (the recording survives it)', async () => {
    const page = await h.open('performance/other.html');
    const stop = await h.err('browser_performance', { page_id: page, action: 'stop' });
    expect(stop.code).toBe('invalid_request');
    expect(stop.data.hint).toMatch(/action: "start"/);

    expect(
      (await h.err('browser_performance', { page_id: page, action: 'start', path: '../x.json' })).code,
    ).toBe('path_not_allowed');
    await h.ok('browser_performance', { page_id: page, action: 'start' });
    const twice = await h.err('browser_performance', { page_id: page, action: 'start' });
    expect(twice.code).toBe('invalid_request');
    expect(twice.data.hint).toMatch(/action: "stop"/);
    expect(
      (await h.err('browser_performance', { page_id: page, action: 'stop', path: '/etc/x.json' })).code,
    ).toBe('path_not_allowed');
    const r = await h.ok('browser_performance', { page_id: page, action: 'stop' });
    expect(r.trace_bytes).toBeGreaterThan(0);
    // ended: a second stop is refused again
    expect((await h.err('browser_performance', { page_id: page, action: 'stop' })).code).toBe(
      'invalid_request',
    );
  });

  it('one trace at a time per browser: another page of the session is refused while one records', async () => {
    const s = await h.ok('browser_start_session', {});
    const a = (
      await h.ok('browser_open_page', {
        session_id: s.session_id,
        url: h.server.url('performance/other.html'),
      })
    ).page_id;
    const b = (
      await h.ok('browser_open_page', {
        session_id: s.session_id,
        url: h.server.url('performance/other.html'),
      })
    ).page_id;
    await h.ok('browser_performance', { page_id: a, action: 'start' });
    const other = await h.err('browser_performance', { page_id: b, action: 'start' });
    expect(other.code).toBe('invalid_request');
    expect(other.content).toMatch(/Another page of this browser/);
    await h.ok('browser_performance', { page_id: a, action: 'stop' });
    await h.ok('browser_performance', { page_id: b, action: 'start' });
    await h.ok('browser_performance', { page_id: b, action: 'stop' });
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });

  it('a page that navigates during the recording still answers; one that closes does not hang stop', async () => {
    const s = await h.ok('browser_start_session', {});
    const open = async () =>
      (
        await h.ok('browser_open_page', {
          session_id: s.session_id,
          url: h.server.url('performance/vitals.html'),
        })
      ).page_id as string;
    const page = await open();
    await h.ok('browser_performance', { page_id: page, action: 'start' });
    await h.ok('browser_navigate', { page_id: page, url: h.server.url('performance/other.html') });
    const moved = await h.ok('browser_performance', { page_id: page, action: 'stop' });
    expect(moved.url).toBe(h.server.url('performance/other.html'));
    expect(moved.trace_bytes).toBeGreaterThan(0);
    // the new document got the observers too
    expect(moved.lcp_element).toMatch(/h1|p/);

    const doomed = await open();
    await h.ok('browser_performance', { page_id: doomed, action: 'start' });
    await h.ok('browser_close_page', { page_id: doomed });
    const gone = await h.err('browser_performance', { page_id: doomed, action: 'stop' });
    expect(['page_closed', 'page_not_found']).toContain(gone.code);
    // the closed page's trace was ended with it: the browser records again
    const next = await open();
    await h.ok('browser_performance', { page_id: next, action: 'start' });
    expect(
      (await h.ok('browser_performance', { page_id: next, action: 'stop' })).trace_bytes,
    ).toBeGreaterThan(0);
    await h.ok('browser_stop_session', { session_id: s.session_id });
  });
});
