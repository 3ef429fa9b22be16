import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('browser_evaluate', () => {
  it('returns JSON values and describes what JSON cannot hold', async () => {
    const pageId = await h.open('read/scripts.html');
    const ev = (expression: string, argument?: unknown) =>
      h.ok('browser_evaluate', {
        page_id: pageId,
        expression,
        ...(argument !== undefined ? { argument } : {}),
      });
    expect((await ev('document.title')).value).toBe('Scripts');
    expect((await ev('window.appData')).value).toEqual({ user: 'ada', items: [1, 2, 3] });
    expect((await ev('(n) => appData.items.map((x) => x * n)', 10)).value).toEqual([10, 20, 30]);
    expect((await ev('await new Promise((r) => setTimeout(() => r(42), 20))')).value).toBe(42);
    expect((await ev('document.getElementById("box")')).value).toBe('[object HTMLDivElement]');
    expect((await ev('({ f() {}, u: undefined, n: NaN, big: 10n })')).value).toEqual({
      f: '[function f]',
      u: '[undefined]',
      n: 'NaN',
      big: '10n',
    });
    const cyc = await ev('(() => { const a = { name: "a" }; a.self = a; return a; })()');
    expect(cyc.value).toEqual({ name: 'a', self: '[Circular]' });
    const undef = await ev('undefined');
    expect(undef.value).toBeNull();
    expect(undef.type).toBe('undefined');
    const big = await ev('"x".repeat(200000)');
    expect(big.truncated).toBe(true);
    expect(JSON.stringify(big.value).length).toBeLessThan(51_000);
    expect((await ev('document.querySelectorAll("h1, div")')).value).toEqual([
      '[object HTMLHeadingElement]',
      '[object HTMLDivElement]',
    ]);
  });

  it('reports exceptions as script_error with the page message', async () => {
    const pageId = await h.open('read/scripts.html');
    const e = await h.err('browser_evaluate', { page_id: pageId, expression: 'notDefinedAnywhere + 1' });
    expect(e.code).toBe('script_error');
    expect(e.content).toContain('ReferenceError: notDefinedAnywhere is not defined');
    const thrown = await h.err('browser_evaluate', {
      page_id: pageId,
      expression: 'Promise.reject(new Error("nope"))',
    });
    expect(thrown.content).toContain('Error: nope');
    const bad = await h.err('browser_evaluate', { page_id: pageId, expression: '1 +' });
    expect(bad.code).toBe('script_error');
    const arg = await h.err('browser_evaluate', { page_id: pageId, expression: '1', argument: 2 });
    expect(arg.code).toBe('invalid_request');
  });

  it('stops a busy loop at the timeout', async () => {
    const pageId = await h.open('read/scripts.html');
    const e = await h.err('browser_evaluate', {
      page_id: pageId,
      expression: 'while (true) {}',
      timeout_ms: 500,
    });
    expect(e.code).toBe('timeout');
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: '1 + 1' })).value).toBe(2);
  });
});

describe('browser_execute', () => {
  it('runs async code with log, sleep, waitFor and keeps state across calls', async () => {
    const pageId = await h.open('read/scripts.html');
    const code = `
      const el = await waitFor('#late');
      await sleep(10);
      log('found', el.textContent, { n: 1 });
      state.runs = (state.runs ?? 0) + 1;
      return { text: el.textContent, runs: state.runs };`;
    const first = await h.ok('browser_execute', { page_id: pageId, code });
    expect(first.ok).toBe(true);
    expect(first.result).toEqual({ text: 'arrived late', runs: 1 });
    expect(first.logs).toEqual(['found arrived late {"n":1}']);
    expect(first.state).toEqual({ runs: 1 });
    const second = await h.ok('browser_execute', { page_id: pageId, code });
    expect(second.result.runs).toBe(2);
    expect(second.state).toEqual({ runs: 2 });
    expect(second.__content).toContain('Logs:');
  });

  it('caps logs at 200 entries of 2,000 chars', async () => {
    const pageId = await h.open('read/scripts.html');
    const r = await h.ok('browser_execute', {
      page_id: pageId,
      code: 'for (let i = 0; i < 250; i++) log("x".repeat(3000)); return 1;',
    });
    expect(r.logs).toHaveLength(200);
    expect(r.logs[0]).toHaveLength(2000);
    expect(r.logs_dropped).toBe(50);
  });

  it('reports a script that navigates, errors with the line, waitFor timeouts', async () => {
    const pageId = await h.open('read/scripts.html');
    const nav = await h.ok('browser_execute', {
      page_id: pageId,
      code: 'location.href = "article.html"; await sleep(5000); return 1;',
    });
    expect(nav.navigated).toBe(true);
    expect(nav.ok).toBe(false);
    expect(nav.__content).toContain('navigated');
    await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('read/scripts.html') });
    const err = await h.err('browser_execute', {
      page_id: pageId,
      code: 'log("before");\nthrow new Error("bad thing");',
    });
    expect(err.code).toBe('script_error');
    expect(err.content).toContain('Error: bad thing (line 2');
    expect(err.data.logs).toEqual(['before']);
    const wait = await h.err('browser_execute', {
      page_id: pageId,
      code: 'await waitFor("#never", { timeout: 200 });',
    });
    expect(wait.content).toContain('waitFor("#never") found nothing within 200 ms');
    const syntax = await h.err('browser_execute', { page_id: pageId, code: 'return (' });
    expect(syntax.code).toBe('script_error');
    const slow = await h.err('browser_execute', {
      page_id: pageId,
      code: 'await sleep(5000);',
      timeout_ms: 300,
    });
    expect(slow.code).toBe('timeout');
  });
});

describe('browser_add_init_script', () => {
  it('runs on the next navigation', async () => {
    const pageId = await h.open('read/scripts.html');
    const r = await h.ok('browser_add_init_script', {
      page_id: pageId,
      source: 'window.__marker = "set early";',
    });
    expect(r.identifier).toBeTruthy();
    expect(
      (await h.ok('browser_evaluate', { page_id: pageId, expression: 'window.__marker' })).value,
    ).toBeNull();
    await h.ok('browser_history', { page_id: pageId, action: 'reload' });
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'window.__marker' })).value).toBe(
      'set early',
    );
    // a script that does not parse is never added
    const bad = await h.err('browser_add_init_script', { page_id: pageId, source: 'function (' });
    expect(bad.code).toBe('script_injection_failed');
    expect(bad.content).toMatch(/does not parse/);

    // removed: the next document no longer runs it; removing it again names what is left
    await h.ok('browser_remove_init_script', { page_id: pageId, identifier: r.identifier });
    await h.ok('browser_history', { page_id: pageId, action: 'reload' });
    expect(
      (await h.ok('browser_evaluate', { page_id: pageId, expression: 'window.__marker' })).value,
    ).toBeNull();
    const gone = await h.err('browser_remove_init_script', { page_id: pageId, identifier: r.identifier });
    expect(gone.code).toBe('script_not_found');
    expect(gone.content).toContain(r.identifier);
  });
});

describe('read-only sessions', () => {
  it('refuse execute, init scripts and page-changing evaluate; reads pass', async () => {
    const s = await h.ok('browser_start_session', { read_only: true });
    const pageId = await h.open('read/scripts.html', { session_id: s.session_id });
    const ev = (expression: string) => h.call('browser_evaluate', { page_id: pageId, expression });
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'document.title' })).value).toBe(
      'Scripts',
    );
    expect(
      (
        await h.ok('browser_evaluate', {
          page_id: pageId,
          // links only: the page adds a second <p> 300 ms after load
          expression: '[...document.querySelectorAll("a")].length',
        })
      ).value,
    ).toBe(1);
    for (const expression of [
      'document.body.innerHTML = ""',
      'window.x = 1',
      'document.getElementById("box").remove()',
      'localStorage.setItem("a", "b")',
      'fetch("/echo")',
      'history.pushState({}, "", "#x")',
    ]) {
      const o = await ev(expression);
      expect(o.ok, expression).toBe(false);
      expect((o.data as any).error_code, expression).toBe('read_only');
    }
    // nothing was changed: the box is still there with its text
    const box = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: 'document.querySelector("#box").textContent',
    });
    expect(box.value).toBe('box');
    expect((await h.ok('browser_evaluate', { page_id: pageId, expression: 'typeof window.x' })).value).toBe(
      'undefined',
    );
    expect((await h.err('browser_execute', { page_id: pageId, code: 'return 1' })).code).toBe('read_only');
    expect((await h.err('browser_add_init_script', { page_id: pageId, source: '1' })).code).toBe('read_only');
  });
});
