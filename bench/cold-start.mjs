// Cold start and CLI time per command, with a per-phase breakdown (issue 13, 2e).
//
//   node bench/cold-start.mjs [--runs N] [--cli-runs N] [--no-agent-browser] [--no-cold] [--no-cli]
//                             [--variant NAME:VAR=VALUE,…]…
//
// Cold start: spawn `node bin/brow.js mcp` (stdio MCP) → initialize → tools/list →
// browser_open_page {url of the small form} → browser_list_elements {scope: full}; the phases are
// timed from the client's side. agent-browser (bench/node_modules, when installed) does the same
// in the same run: a fresh daemon, `open URL`, `snapshot`; the runs alternate between the two.
//
// --variant adds a brow with extra environment to the rotation, e.g. --variant no-prespawn:BROW_NO_PRESPAWN=1
// (Chromium launched as before, once the runtime has loaded) to see what a change buys in the same run.
//
// CLI: with the daemon for a private session up and one page open, `node bin/brow.js <command>`
// is timed end to end for list-pages and snapshot (the quick client, fast.bundle.js; BROW_NO_FAST=1
// the full one, main.bundle.js), beside the floor (`node -e 0`) and the time to load each client
// module alone.
//
// Medians of N runs (after one warm-up) and the load average are printed; nothing is asserted.
// Needs dist/ (node scripts/build.mjs). Every process started here is killed by pid at the end.
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startPageServer } from './pages.mjs';
import { killTree, processTree, sleep } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';
import { CHROMIUM, REPO_DIR } from './systems/common.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const num = (name, d) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const RUNS = num('runs', 5);
/** Extra brow variants: [name, env]. */
const VARIANTS = args.flatMap((a, i) => {
  if (a !== '--variant') return [];
  const [name, vars = ''] = args[i + 1].split(/:(.*)/s);
  return [
    [
      name,
      Object.fromEntries(
        vars
          .split(',')
          .filter(Boolean)
          .map((kv) => kv.split(/=(.*)/s)),
      ),
    ],
  ];
});
const CLI_RUNS = num('cli-runs', 15);
const BIN = join(REPO_DIR, 'bin/brow.js');
const now = () => performance.now();
const ms = (x) => (x == null ? '—' : `${Math.round(x)}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

if (!existsSync(join(REPO_DIR, 'dist/doors/cli/main.js'))) {
  console.error('dist/ missing: run node scripts/build.mjs first');
  process.exit(1);
}

/** A newline-delimited JSON-RPC client on a child's stdio, every answer timed. */
function rpcChild(command, argv, opts) {
  const child = spawn(command, argv, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map();
  let buf = '';
  let stderr = '';
  let id = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      const p = pending.get(msg.id);
      if (p) {
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(JSON.stringify(msg.error)));
        else p.resolve(msg.result);
      }
    }
  });
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((r) => child.once('exit', r));
  child.once('exit', () => {
    for (const p of pending.values()) p.reject(new Error(`server exited: ${stderr.slice(-600)}`));
  });
  return {
    child,
    exited,
    request(method, params = {}) {
      const msg = { jsonrpc: '2.0', id: ++id, method, params };
      return new Promise((resolve, reject) => {
        pending.set(msg.id, { resolve, reject });
        child.stdin.write(`${JSON.stringify(msg)}\n`);
      });
    },
    notify(method, params = {}) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
    },
    stderr: () => stderr,
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc. */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(v[11]) + Number(v[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function stopTree(pid, exited, closeInput) {
  const tree = processTree(pid);
  closeInput?.();
  await Promise.race([exited, sleep(5000)]);
  for (const p of tree) killTree(p);
}

/** One cold start of brow's MCP door; the time at which each phase ended, from the spawn. */
async function browCold(url, extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'brow-cold-'));
  const t0 = now();
  const rpc = rpcChild(process.execPath, [BIN, 'mcp'], {
    cwd: dir,
    env: { ...process.env, BROW_CHROME: CHROMIUM, BROW_RUNTIME_DIR: dir, ...extraEnv },
  });
  try {
    await rpc.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'cold-start', version: '0' },
    });
    rpc.notify('notifications/initialized');
    const initialize = now() - t0;
    const { tools } = await rpc.request('tools/list');
    const list = now() - t0;
    const open = await rpc.request('tools/call', { name: 'browser_open_page', arguments: { url } });
    if (open.isError) throw new Error(open.content[0].text);
    const opened = now() - t0;
    const pageId = open.structuredContent.page_id;
    const snap = await rpc.request('tools/call', {
      name: 'browser_list_elements',
      arguments: { page_id: pageId, scope: 'full' },
    });
    if (snap.isError || !snap.content[0].text.includes('Reveal answer'))
      throw new Error(`snapshot: ${snap.content[0].text.slice(0, 200)}`);
    const total = now() - t0;
    return { initialize, list, open: opened, total, tools: tools.length, cpu: cpuMs(rpc.child.pid) };
  } catch (e) {
    throw new Error(`${e.message} ${rpc.stderr().slice(-400)}`);
  } finally {
    await stopTree(rpc.child.pid, rpc.exited, () => rpc.child.stdin.end());
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One cold start of agent-browser: a fresh daemon, `open URL`, `snapshot` (bench/systems adapter). */
async function agentBrowserCold(url, AgentBrowser) {
  const ab = new AgentBrowser();
  const t0 = now();
  try {
    await ab.start(); // `--version`: the CLI binary's own start
    const version = now() - t0;
    await ab.navigate(url);
    const open = now() - t0;
    const snap = await ab.snapshot();
    if (!snap.text.includes('Reveal answer')) throw new Error(`snapshot: ${snap.text.slice(0, 200)}`);
    return { version, open, total: now() - t0 };
  } finally {
    await ab.stop().catch(() => {});
  }
}

function run(command, argv, env) {
  return new Promise((resolve, reject) => {
    const t = now();
    execFile(command, argv, { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${argv.join(' ')}: ${err.message} ${stderr}`));
      else resolve({ ms: now() - t, stdout });
    });
  });
}

function row(label, values, extra = '') {
  const v = values.filter((x) => Number.isFinite(x));
  const m = median(v);
  console.log(
    `  ${label.padEnd(34)} ${ms(m).padStart(6)} ms   (${v.length ? `${ms(Math.min(...v))}–${ms(Math.max(...v))}` : 'n/a'})${extra}`,
  );
  return m;
}

async function coldStart(server) {
  const url = server.url('form');
  let AgentBrowser = null;
  if (!flag('no-agent-browser')) {
    try {
      ({ AgentBrowser } = await import('./systems/agent-browser.mjs'));
      if (!existsSync(join(REPO_DIR, 'bench/node_modules/agent-browser'))) AgentBrowser = null;
    } catch {
      AgentBrowser = null;
    }
  }
  const systems = [['brow', {}], ...VARIANTS, ...(AgentBrowser ? [['agent-browser', null]] : [])];
  const results = new Map(systems.map(([name]) => [name, []]));
  for (let i = 0; i <= RUNS; i++) {
    // the systems take turns in a rotated order
    for (let k = 0; k < systems.length; k++) {
      const [name, env] = systems[(k + i) % systems.length];
      const r = env ? await browCold(url, env) : await agentBrowserCold(url, AgentBrowser);
      console.error(`  run ${i}${i === 0 ? ' (warm-up)' : ''} ${name}: ${ms(r.total)} ms   load ${load()}`);
      if (i > 0) results.get(name).push(r);
      await sleep(300);
    }
  }
  console.log(`\nCold start → first snapshot of the small form (median of ${RUNS}, range), load ${load()}`);
  const totals = {};
  for (const [name, env] of systems) {
    const b = results.get(name);
    if (!env) continue;
    console.log(
      `${name} (node bin/brow.js mcp, stdio${
        Object.keys(env).length
          ? `, ${Object.entries(env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      }), time since spawn:`,
    );
    row(
      'initialize answered',
      b.map((r) => r.initialize),
    );
    row(
      'tools/list answered',
      b.map((r) => r.list),
      ` (${b[0]?.tools} tools)`,
    );
    row(
      'browser_open_page {url} answered',
      b.map((r) => r.open),
    );
    totals[name] = row(
      'browser_list_elements full (total)',
      b.map((r) => r.total),
    );
    console.log(' phase lengths:');
    row(
      'spawn → initialize',
      b.map((r) => r.initialize),
    );
    row(
      'initialize → tools/list',
      b.map((r) => r.list - r.initialize),
    );
    row(
      'tools/list → page open',
      b.map((r) => r.open - r.list),
    );
    row(
      'page open → snapshot',
      b.map((r) => r.total - r.open),
    );
    row(
      'CPU of the brow process (not Chromium)',
      b.map((r) => r.cpu),
    );
  }
  const a = results.get('agent-browser');
  if (a?.length) {
    console.log('agent-browser (native CLI + its daemon), time since the first command:');
    row(
      '--version done',
      a.map((r) => r.version),
    );
    row(
      'open URL done',
      a.map((r) => r.open),
    );
    const at = row(
      'snapshot done (total)',
      a.map((r) => r.total),
    );
    for (const [name, t] of Object.entries(totals))
      console.log(`${name} ÷ agent-browser: ${(t / at).toFixed(2)}×`);
  }
}

async function cli(server) {
  const dir = mkdtempSync(join(tmpdir(), 'brow-cli-'));
  const session = `bench${process.pid}`;
  const env = { ...process.env, BROW_CHROME: CHROMIUM, BROW_RUNTIME_DIR: dir, BROW_SESSION: session };
  const brow = (...a) => run(process.execPath, [BIN, ...a], env);
  let pid = null;
  try {
    await brow('daemon', 'start');
    pid = JSON.parse((await brow('daemon', 'status', '--json')).stdout).pid;
    await brow('open-page', server.url('form'));
    const bundle = join(REPO_DIR, 'dist/doors/cli/main.bundle.js');
    const cases = [
      ['node -e 0 (the floor)', () => run(process.execPath, ['-e', '0'], env)],
      [
        'load the full client module only',
        () => run(process.execPath, ['-e', `import(${JSON.stringify(bundle)})`], env),
      ],
      [
        'load the quick client module only',
        () =>
          run(
            process.execPath,
            ['-e', `import(${JSON.stringify(bundle.replace('main.bundle', 'fast.bundle'))})`],
            env,
          ),
      ],
      ['brow --version', () => brow('--version')],
      ['brow list-pages', () => brow('list-pages')],
      [
        'brow list-pages, full client',
        () => run(process.execPath, [BIN, 'list-pages'], { ...env, BROW_NO_FAST: '1' }),
      ],
      ['brow snapshot', () => brow('snapshot')],
      ['brow snapshot --json', () => brow('snapshot', '--json')],
    ];
    const times = cases.map(() => []);
    for (let i = 0; i <= CLI_RUNS; i++) {
      for (const [k, [, f]] of cases.entries()) {
        const r = await f();
        if (i > 0) times[k].push(r.ms);
      }
    }
    console.log(`\nCLI with the daemon up (median of ${CLI_RUNS}, range), load ${load()}`);
    for (const [k, [label]] of cases.entries()) row(label, times[k]);
  } finally {
    await brow('daemon', 'stop').catch(() => {});
    if (pid) for (const p of processTree(pid)) killTree(p);
    rmSync(dir, { recursive: true, force: true });
  }
}

const server = await startPageServer();
try {
  console.log(`load average at start: ${load()} (${(await import('node:os')).cpus().length} cores)`);
  if (!flag('no-cold')) await coldStart(server);
  if (!flag('no-cli')) await cli(server);
} finally {
  await server.close();
}
