// First run from nothing (issue 35): `npx` of brow's packed tarball, with an empty npm cache, to the
// first answered `tools/list`, beside Playwright MCP's the same way; then each one's install into an
// empty project (packages, bytes). Runs alternate between the systems so machine drift lands on both.
//
//   node bench/install.mjs [--runs 3] [--playwright 0.0.83]
//
// Needs the npm registry (both packages' dependencies are fetched on every run: the cache is empty).
// brow's tarball is packed from this checkout (build it first: npm run build).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('--runs', '3'));
const playwright = arg('--playwright', '0.0.83');

/** npm as a person runs it: none of an outer npm's settings, a fresh cache, no audit or fund. */
function npmEnv(cache) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  return {
    ...env,
    npm_config_cache: cache,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'brow-install-bench-'));
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
    cwd: root,
    env: npmEnv(join(tmp, 'pack-cache')),
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString(),
)[0];
const tarball = join(tmp, packed.filename);

const systems = [
  { name: 'brow', spec: tarball, bin: 'brow', args: ['mcp'] },
  {
    name: 'Playwright MCP',
    spec: `@playwright/mcp@${playwright}`,
    bin: 'playwright-mcp',
    args: ['--headless', '--isolated', '--executable-path', '/usr/bin/chromium'],
  },
];

/** Spawn `npx --yes --package <spec> -- <bin> <args>` with an empty cache; ms to the first tools/list answer. */
async function firstAnswer(system, n) {
  const dir = join(tmp, `${system.bin}-${n}`);
  mkdirSync(join(dir, 'project'), { recursive: true });
  const start = performance.now();
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['--yes', '--package', system.spec, '--', system.bin, ...system.args],
    cwd: join(dir, 'project'),
    env: npmEnv(join(dir, 'cache')),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'install-bench', version: '0.0.0' });
  try {
    // an empty cache fetches every package first: wait as long as that takes
    await client.connect(transport, { timeout: 300_000 });
    const { tools } = await client.listTools(undefined, { timeout: 300_000 });
    const ms = performance.now() - start;
    if (tools.length === 0) throw new Error(`${system.name}: tools/list answered no tools`);
    return ms;
  } finally {
    await client.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

function packagesUnder(nodeModules) {
  let count = 0;
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) visit(p);
      else {
        if (existsSync(join(p, 'package.json'))) count++;
        if (existsSync(join(p, 'node_modules'))) visit(join(p, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return count;
}

function bytesUnder(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : lstatSync(p).size;
  }
  return total;
}

/** `npm i <spec>` into an empty project: packages and bytes under node_modules. */
function installSize(system) {
  const project = join(tmp, `size-${system.bin}`);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name":"size","private":true}\n');
  execFileSync('npm', ['install', '--ignore-scripts', system.spec], {
    cwd: project,
    env: npmEnv(join(tmp, 'size-cache')),
    stdio: 'ignore',
  });
  const nm = join(project, 'node_modules');
  return { packages: packagesUnder(nm), mb: bytesUnder(nm) / 1e6 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  const times = new Map(systems.map((s) => [s.name, []]));
  for (let n = 0; n < runs; n++) {
    const order = n % 2 ? [...systems].reverse() : systems;
    for (const s of order) {
      const ms = await firstAnswer(s, n);
      times.get(s.name).push(ms);
      console.log(`run ${n + 1} ${s.name}: ${(ms / 1000).toFixed(1)} s`);
    }
  }
  const rows = systems.map((s) => ({ ...s, times: times.get(s.name), size: installSize(s) }));
  console.log(
    '\n| system | npx, empty cache → first tools/list (median, min–max) | install: packages | install: MB |',
  );
  console.log('|---|--:|--:|--:|');
  for (const r of rows) {
    const t = r.times;
    console.log(
      `| ${r.name} | ${(median(t) / 1000).toFixed(1)} s (${(Math.min(...t) / 1000).toFixed(1)}–${(Math.max(...t) / 1000).toFixed(1)}) | ${r.size.packages} | ${r.size.mb.toFixed(1)} |`,
    );
  }
  console.log(
    `\nratio brow / Playwright MCP (medians): ${(median(rows[0].times) / median(rows[1].times)).toFixed(2)}`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
