/** The CLI through its daemon, process after process: a round trip, --json parity with the tool API, exit codes, idle reaping. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { forCli } from '../../src/doors/cli/main.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import type { Outcome } from '../../src/runtime/outcome.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { configFile, spawnServe, type Spawned } from '../doors/helpers.js';
import { alive, buildOnce, childPids, cliEnv, normalize, until, type CliEnv } from './helpers.js';

// every call is a new node process talking to a daemon: slow on a busy two-core machine
vi.setConfig({ testTimeout: 180_000 });

const PAGE = `<!doctype html><html lang="en"><head><title>CLI fixture</title></head><body>
<h1>Counter</h1><p id="out">Clicked 0 times</p>
<button onclick="document.getElementById('out').textContent = 'Clicked ' + (++window.n) + ' times'">Add one</button>
<label>Name <input id="name"></label>
<script>window.n = 0</script></body></html>`;

let fixtures: FixtureServer;
let cli: CliEnv;
let url: string;

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  fixtures.route('/cli/counter', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  url = fixtures.url('cli/counter');
  cli = cliEnv('daemon');
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
  await fixtures?.close();
});

const refIn = (text: string, role: string, name: string) => {
  const m = new RegExp(`\\[${role} ref=(e\\d+)[^\\]]*\\] ${name}`).exec(text);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text}`);
  return m[1]!;
};

const hasReadPage = capabilities.some((c) => c.name === 'browser_read_page');

describe('brow <command> across processes', () => {
  it('open-page → list-elements → click → read the page, one daemon keeping the page', async () => {
    const opened = await cli.run(['open-page', url]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(
      /^Opened page p-\S+ in session s-\S+: http:\/\/127\.0\.0\.1:\d+\/cli\/counter — CLI fixture/,
    );
    const status = JSON.parse((await cli.run(['daemon', 'status', '--json'])).stdout);
    expect(status).toMatchObject({ running: true, profile: cli.session });

    const listed = await cli.run(['list-elements']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('URL: ' + url);
    const button = refIn(listed.stdout, 'button', 'Add one');

    const clicked = await cli.run(['click', button]);
    expect(clicked.code, clicked.stderr).toBe(0);
    expect(clicked.stdout).toContain(`click [button ref=${button}] Add one`);

    const filled = await cli.run(['fill', refIn(listed.stdout, 'textbox', 'Name'), 'Ada Lovelace']);
    expect(filled.code, filled.stderr).toBe(0);

    const read = hasReadPage
      ? await cli.run(['read-page'])
      : await cli.run(['list-elements', '--scope', 'full']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('Clicked 1 times');
    // every command went to the same daemon
    const again = JSON.parse((await cli.run(['daemon', 'status', '--json'])).stdout);
    expect(again.pid).toBe(status.pid);
  });

  it('answers failures with the error table exit code and the hint on stderr', async () => {
    const cases: [string[], keyof typeof ERROR_TABLE][] = [
      [['click', 'e99999'], 'ref_not_found'],
      [['navigate', 'javascript:alert(1)'], 'url_blocked'],
      [['list-elements', '--page-id', 'p-nosuch-1'], 'page_not_found'],
      [['list-pages', '--session-id', 's-nosuch-1'], 'session_not_found'],
    ];
    for (const [argv, code] of cases) {
      const r = await cli.run(argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(ERROR_TABLE[code].exit);
      expect(r.stderr).toContain(`[${code}]`);
      expect(r.stdout).toBe('');
      const json = await cli.run([...argv, '--json']);
      expect(json.code).toBe(ERROR_TABLE[code].exit);
      expect(JSON.parse(json.stdout).data).toMatchObject({ error_code: code, hint: expect.any(String) });
    }
  });
});

describe('--json equals the tool API', () => {
  let serve: Spawned;
  let parity: CliEnv;
  beforeAll(async () => {
    serve = await spawnServe(['--config', configFile()]);
    parity = cliEnv('parity');
  }, 60_000);
  afterAll(async () => {
    await parity?.cleanup();
    await serve?.stop();
  });

  const api = async (name: string, input: Record<string, unknown>) => {
    const res = await fetch(`${serve.url}/v1/tools/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return (await res.json()) as Record<string, any>;
  };
  const viaCli = async (argv: string[]) => {
    const r = await parity.run([...argv, '--json']);
    return JSON.parse(r.stdout) as Record<string, any>;
  };

  it('for the same calls, the same {ok, content, data}', async () => {
    const same = async (argv: string[], name: string, input: Record<string, unknown>) => {
      const fromCli = await viaCli(argv);
      const fromApi = await api(name, input);
      expect(Object.keys(fromCli).sort(), argv.join(' ')).toEqual(Object.keys(fromApi).sort());
      // the same answer, with the tools its text names written as brow commands
      expect(normalize(fromCli), argv.join(' ')).toEqual(normalize(forCli(fromApi as Outcome)));
      return fromApi;
    };
    const page_id = (await same(['open-page', url], 'browser_open_page', { url })).data.page_id as string;
    const listed = await same(['list-elements'], 'browser_list_elements', { page_id });
    const button = refIn(listed.content, 'button', 'Add one');
    await same(['click', button], 'browser_click', { page_id, ref: button });
    await same(['list-elements', '--scope', 'changes'], 'browser_list_elements', {
      page_id,
      scope: 'changes',
    });
    await same(['click', 'e99999'], 'browser_click', { page_id, ref: 'e99999' });
    await same(['fill', button, 'x'], 'browser_fill', { page_id, ref: button, value: 'x' });
    // an error that names no id is word for word the same
    const err = ['list-elements', '--page-id', 'p-nosuch-1'];
    expect(await viaCli(err)).toEqual(
      forCli((await api('browser_list_elements', { page_id: 'p-nosuch-1' })) as Outcome),
    );
  });
});

describe('the daemon', () => {
  it('exits after --idle-timeout without commands, closing its Chromium', async () => {
    const session = `idle-${process.pid}`;
    const log = join(cli.dir, `${session}.log`);
    const daemonPid = () =>
      Number(/brow daemon\[(\d+)\]: profile/.exec(existsSync(log) ? readFileSync(log, 'utf8') : '')?.[1]);
    // the daemon may be gone 2 s after the command, so watch its browser while the command runs
    const browsers = new Set<number>();
    let running = true;
    const watch = (async () => {
      while (running) {
        if (daemonPid()) for (const p of childPids(daemonPid())) browsers.add(p);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const opened = await cli.run(['open-page', url, '--idle-timeout', '2s'], { session });
    running = false;
    await watch;
    expect(opened.code, opened.stderr).toBe(0);
    const pid = daemonPid();
    expect(readFileSync(log, 'utf8')).toContain('idle timeout 2000 ms');
    expect(browsers.size).toBeGreaterThan(0);
    expect(await until(() => !alive(pid), 30_000)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('stopping (idle for 2000 ms)');
    expect(existsSync(join(cli.dir, `${session}.sock`))).toBe(false);
    expect(await until(() => [...browsers].every((p) => !alive(p)), 10_000)).toBe(true);
    const after = await cli.run(['daemon', 'status'], { session });
    expect(after.code).toBe(1);
    expect(after.stdout).toContain('No brow daemon is running');
  });

  it('daemon stop ends it (and its browser); the next command starts a new one', async () => {
    const session = `stop-${process.pid}`;
    const opened = await cli.run(['open-page', url], { session });
    expect(opened.code, opened.stderr).toBe(0);
    const before = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout);
    const browsers = childPids(before.pid);
    const stopped = await cli.run(['daemon', 'stop'], { session });
    expect(stopped.stdout).toContain('Stopped the brow daemon');
    expect(alive(before.pid)).toBe(false);
    expect(await until(() => browsers.every((p) => !alive(p)), 10_000)).toBe(true);
    const listed = await cli.run(['list-pages'], { session });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('No pages are open.');
    const after = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout);
    expect(after.pid).not.toBe(before.pid);
    await cli.run(['daemon', 'stop'], { session }); // one browser fewer for the rest of the run
  });

  it('a daemon killed hard is replaced by the next command (its stale socket removed)', async () => {
    const session = `kill-${process.pid}`;
    expect((await cli.run(['list-pages'], { session })).code).toBe(0);
    const before = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout);
    process.kill(before.pid, 'SIGKILL');
    expect(await until(() => !alive(before.pid), 10_000)).toBe(true);
    expect(existsSync(join(cli.dir, `${session}.sock`))).toBe(true);
    const r = await cli.run(['list-pages'], { session });
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout);
    expect(after.running).toBe(true);
    expect(after.pid).not.toBe(before.pid);
    await cli.run(['daemon', 'stop'], { session });
  });

  it('commands that start the daemon at once share one daemon', async () => {
    const session = `race-${process.pid}`;
    const runs = await Promise.all([1, 2, 3].map(() => cli.run(['list-pages'], { session })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const log = readFileSync(join(cli.dir, `${session}.log`), 'utf8');
    expect(log.match(/listening on/g)).toHaveLength(1);
    expect(JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout).running).toBe(
      true,
    );
    await cli.run(['daemon', 'stop'], { session });
  });

  // the file's shared daemon (cli.session, started with no config file) serves where a test only
  // needs a daemon that runs, not one it starts or stops: each daemon is a Chromium launch
  it('says so when the running daemon has another configuration than asked for', async () => {
    const session = cli.session;
    const first = await cli.run(['list-pages'], { session });
    expect(first.code, first.stderr).toBe(0);
    const file = configFile({ max_sessions: 3 });
    const r = await cli.run(['list-pages', '--config', file], { session });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`runs with no config file, not ${file}`);
    expect(r.stderr).toContain(`brow daemon stop --session ${session}`);
  });

  it('a second profile is a separate daemon with its own browser', async () => {
    const a = cli.session;
    const b = `pb-${process.pid}`;
    const inA = await cli.run(['open-page', url], { session: a });
    expect(inA.code, inA.stderr).toBe(0);
    const inB = await cli.run(['list-pages'], { session: b });
    expect(inB.code, inB.stderr).toBe(0);
    expect(inB.stdout).toContain('No pages are open.');
    const sa = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session: a })).stdout);
    const sb = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session: b })).stdout);
    expect(sa.pid).not.toBe(sb.pid);
    await cli.run(['daemon', 'stop'], { session: b });
  });
});
