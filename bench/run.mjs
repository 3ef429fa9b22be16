#!/usr/bin/env node
// brow comparison benchmark. Entry point of `npm run bench`.
//
//   node bench/run.mjs [--runs N] [--systems a,b] [--pages x,y] [--quick]
//                      [--no-cold] [--no-scale] [--no-cluster] [--out FILE.md]
//
// systems: brow, playwright-mcp, chrome-devtools-mcp, agent-browser (default: all)
// pages:   form, table, big, iframes, shadow, article (default: all)
// --quick: 1 measured run, 3 clicks per session in the concurrency phase, and the
//          report goes to bench/out/RESULTS-quick.md unless --out says otherwise.
//
// The competitors are installed into bench/node_modules from bench/package.json
// (exact versions, bench/package-lock.json) the first time this runs. Nothing here is
// needed by the tests or CI. Only built-in modules are imported before that install.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = {
    runs: 5,
    systems: null,
    pages: null,
    quick: false,
    cold: true,
    scale: true,
    cluster: true,
    out: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v == null) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--runs') o.runs = Number(val());
    else if (a === '--systems') o.systems = val().split(',').filter(Boolean);
    else if (a === '--pages') o.pages = val().split(',').filter(Boolean);
    else if (a === '--quick') o.quick = true;
    else if (a === '--no-cold') o.cold = false;
    else if (a === '--no-scale') o.scale = false;
    else if (a === '--no-cluster') o.cluster = false;
    else if (a === '--out') o.out = val();
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: node bench/run.mjs [--runs N] [--systems a,b] [--pages x,y] [--quick] [--no-cold] [--no-scale] [--no-cluster] [--out FILE.md]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (o.quick && !argv.includes('--runs')) o.runs = 1;
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error('--runs must be a positive integer');
  return o;
}

function ensureDeps() {
  const need = [
    '@modelcontextprotocol/sdk',
    '@playwright/mcp',
    'chrome-devtools-mcp',
    'agent-browser',
    'gpt-tokenizer',
  ];
  if (need.every((p) => existsSync(join(BENCH, 'node_modules', p, 'package.json')))) return;
  console.error('bench: installing bench/node_modules (npm ci, no browser downloads) …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const sub = existsSync(join(BENCH, 'package-lock.json')) ? ['ci'] : ['install'];
  execFileSync(npm, ['--prefix', BENCH, ...sub, '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    timeout: 600_000,
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const opts = parseArgs(argv);
  ensureDeps();

  const { PAGE_NAMES, startPageServer } = await import('./pages.mjs');
  const { SYSTEM_NAMES } = await import('./systems/index.mjs');
  const { chromiumVersion } = await import('./systems/common.mjs');
  const proc = await import('./lib/proc.mjs');
  const M = await import('./measure.mjs');
  const { renderReport } = await import('./report.mjs');
  proc.installExitHandlers();

  const systems = opts.systems ?? SYSTEM_NAMES;
  const pages = opts.pages ?? PAGE_NAMES;
  for (const s of systems)
    if (!SYSTEM_NAMES.includes(s)) throw new Error(`unknown system ${s} (known: ${SYSTEM_NAMES.join(', ')})`);
  for (const p of pages)
    if (!PAGE_NAMES.includes(p)) throw new Error(`unknown page ${p} (known: ${PAGE_NAMES.join(', ')})`);

  const tok = await M.loadTokenizer();
  const cpus = os.cpus();
  const R = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: {
      cores: cpus.length,
      cpu: cpus[0]?.model?.trim() ?? 'unknown',
      memory_gib: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()}`,
      chromium: chromiumVersion(),
      node: process.version,
    },
    config: { runs: opts.runs, systems, pages, quick: opts.quick, argv },
    tokenizer: tok.name,
    tokenizer_estimate: tok.estimate,
    status: {},
    page_bytes: {},
    floors: {},
    results: {},
    cold: {},
    scale: null,
  };

  const server = await startPageServer();
  for (const p of pages) R.page_bytes[p] = server.bytes(p);
  console.error(
    `bench: pages on http://127.0.0.1:${server.port}/ (cross-origin: http://localhost:${server.port}/)`,
  );
  const t0 = performance.now();
  // Other work on the machine shows up as load; sample the 1-minute load average so
  // the report can say how busy the machine was while the numbers were taken.
  const loads = [os.loadavg()[0]];
  const sampler = setInterval(() => loads.push(os.loadavg()[0]), 10_000);
  try {
    console.error(`bench: ${systems.join(', ')} × ${pages.join(', ')}, ${opts.runs} runs + warm-up`);
    await M.measurePages({
      systems,
      pages,
      runs: opts.runs,
      server,
      results: R.results,
      floors: R.floors,
      status: R.status,
    });
    if (opts.cold) {
      console.error('bench: cold start');
      await M.measureColdStart({
        systems,
        runs: opts.quick ? 1 : opts.runs,
        server,
        cold: R.cold,
        status: R.status,
      });
    }
    if (opts.scale && systems.includes('brow')) {
      console.error('bench: brow with 1, 4, 16 sessions');
      R.scale = {};
      if (R.status.brow?.available === false) R.scale.error = `brow not available (${R.status.brow.reason})`;
      else await M.measureBrowScale({ server, scale: R.scale, clicksPerSession: opts.quick ? 3 : 10 });
    }
    if (opts.cluster && systems.includes('brow')) {
      console.error('bench: brow through a cluster gateway + worker (NATS) vs in process');
      const { measureCluster } = await import('./cluster.mjs');
      R.cluster = await measureCluster({ server, iterations: opts.quick ? 10 : 40 });
    }
  } finally {
    proc.killAllTracked();
    await server.close();
  }
  clearInterval(sampler);
  loads.push(os.loadavg()[0]);
  R.duration_s = Math.round((performance.now() - t0) / 1000);
  R.machine.load_avg_1m = {
    min: Math.min(...loads),
    median: loads.slice().sort((a, b) => a - b)[Math.floor(loads.length / 2)],
    max: Math.max(...loads),
    samples: loads.length,
  };

  // Anything of ours still running? (We only ever kill what we started, by pid.)
  await proc.sleep(500);
  const left = proc.leftovers().filter((x) => x.pid !== process.pid);
  R.leftover_processes = left.length ? left.map((x) => `${x.pid} ${x.comm}`).join(', ') : 'none';
  if (left.length) console.error(`bench: WARNING processes of ours still alive: ${R.leftover_processes}`);

  const md = renderReport(R);
  const outMd = opts.out ?? (opts.quick ? join(BENCH, 'out', 'RESULTS-quick.md') : join(BENCH, 'RESULTS.md'));
  // results.json beside RESULTS.md: lower case, as the root .prettierignore expects
  // (bench/results*.json); formatted with the root's prettier when it is there anyway.
  const outJson = join(dirname(outMd), `${basename(outMd).replace(/\.md$/, '').toLowerCase()}.json`);
  mkdirSync(dirname(outMd), { recursive: true });
  writeFileSync(outMd, md);
  writeFileSync(outJson, await formatJson(R));
  console.log(md);
  console.error(`bench: wrote ${outMd} and ${outJson} (${R.duration_s} s)`);
}

async function formatJson(value) {
  const text = JSON.stringify(value, null, 2) + '\n';
  try {
    const prettier = await import('prettier');
    return await prettier.format(text, { parser: 'json', printWidth: 110 });
  } catch {
    return text;
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`bench: failed: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
