/**
 * brow as people install it: `npm pack` of the built repo, installed into an empty project from the
 * tarball alone, then each way in — `npx brow doctor`, `npx brow --version`, `import { createBrow } from
 * 'brow'` in a plain ESM script, and `brow mcp` driven by the real MCP client — against a fixture page
 * on 127.0.0.1. The install is measured (packages, bytes): the optional peers (iii-sdk) and the dev-only
 * image library (sharp) must not be in it, and `brow worker` must say how to add iii-sdk.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, ROOT } from '../doors/helpers.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';

interface Pkg {
  version: string;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Pkg;

/**
 * The default install, measured when this test was written (Dec 2026): 2 packages (brow and zod), 18 MB
 * of files. Before the runtime was bundled (issue 35) it was 199 packages and 78 MB: puppeteer-core's
 * tree and the MCP SDK's (express, hono, ajv, …), now inside dist/bundle/. zod stays a dependency for
 * the types: the published .d.ts of createBrow and brow/sdk import its types. Both are pinned exactly, so
 * the bounds only leave room for the package itself to grow.
 */
const MAX_PACKAGES = 3;
const MAX_MB = 30;
/** The runtime dependencies and why each stays outside the bundle. */
const DEPENDENCIES = ['zod'];

/** npm as a person runs it: none of this vitest run's npm_* settings leak in. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  return env;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Every installed package directory (node_modules/x, node_modules/@s/x, nested ones too). */
function packageDirs(nodeModules: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) {
        visit(p);
        continue;
      }
      if (existsSync(join(p, 'package.json'))) out.push(p);
      if (existsSync(join(p, 'node_modules'))) visit(join(p, 'node_modules'));
    }
  };
  visit(nodeModules);
  return out;
}

/** Bytes of the files under a directory (their length, not the blocks a file system gives them). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += bytesUnder(p);
    else total += lstatSync(p).size;
  }
  return total;
}

let tmp: string;
let project: string;
let tarballFiles: string[] = [];
let server: FixtureServer;
let env: NodeJS.ProcessEnv;
const bin = () => join(project, 'node_modules/.bin/brow');

beforeAll(async () => {
  buildOnce();
  server = await startFixtureServer();
  tmp = mkdtempSync(join(tmpdir(), 'brow-pack-'));
  env = cleanEnv({ BROW_RUNTIME_DIR: join(tmp, 'run'), npm_config_audit: 'false', npm_config_fund: 'false' });
  // dist/ is built above; prepare would build again
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    }).toString(),
  ) as { filename: string; files: { path: string }[] }[];
  tarballFiles = packed[0]!.files.map((f) => f.path);
  project = join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'brow-pack-test', private: true, type: 'module' }, null, 2),
  );
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(tmp, packed[0]!.filename)],
    { cwd: project, env, stdio: 'pipe', timeout: 540_000 },
  );
}, 600_000);

afterAll(async () => {
  if (project) await run(bin(), ['daemon', 'stop', '--session', 'pack'], project, env, 60_000);
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('the packed package, installed into an empty project', () => {
  it('carries the built code, the docs, LICENSE and README, and no sources or tests', () => {
    for (const f of [
      'LICENSE',
      'README.md',
      'THIRD_PARTY_NOTICES',
      'package.json',
      'bin/brow.js',
      'dist/bundle/index.js',
      'dist/bundle/index.js.map',
      'dist/bundle/sdk.js',
      'dist/bundle/main.js',
      'dist/bundle/tab-worker.js',
      'dist/index.d.ts',
      'dist/doors/sdk/tool-client.d.ts',
      'docs/mcp.md',
    ]) {
      expect(tarballFiles).toContain(f);
    }
    expect(pkg.files).toEqual(expect.arrayContaining(['docs', 'LICENSE', 'README.md']));
    expect(tarballFiles.filter((f) => /^(src|tests|bench|scripts)\//.test(f))).toEqual([]);
    expect(readFileSync(join(project, 'node_modules/brow/LICENSE'), 'utf8')).toContain('Apache License');
  });

  it('is lean: no iii-sdk, no sharp, and within the measured package and size bounds', () => {
    const nodeModules = join(project, 'node_modules');
    const dirs = packageDirs(nodeModules);
    const names = new Set(dirs.map((d) => d.slice(d.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    const mb = bytesUnder(nodeModules) / 1e6;
    console.log(`default install: ${dirs.length} packages, ${mb.toFixed(1)} MB`);
    expect(pkg.dependencies).not.toHaveProperty('iii-sdk');
    expect(pkg.dependencies).not.toHaveProperty('sharp');
    expect(pkg.peerDependenciesMeta['iii-sdk']?.optional).toBe(true);
    for (const absent of ['iii-sdk', 'sharp', '@opentelemetry/api', '@img/colour'])
      expect(names.has(absent)).toBe(false);
    expect(names.has('brow')).toBe(true);
    expect(Object.keys(pkg.dependencies).sort()).toEqual(DEPENDENCIES);
    expect(dirs.length).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(mb).toBeLessThanOrEqual(MAX_MB);
  });

  it('npx brow doctor finds a Chromium and exits 0; npx brow --version prints the version', async () => {
    const doctor = await run('npx', ['--no', '--', 'brow', 'doctor'], project, env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/chrom/i);
    const version = await run('npx', ['--no', '--', 'brow', '--version'], project, env);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
  }, 120_000);

  it("import { createBrow } from 'brow' in a plain ESM script opens a page, lists its elements, takes a screenshot", async () => {
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { createBrow } from 'brow';
import 'brow/sdk';
const brow = await createBrow({ headless: true });
try {
  const page = await brow.openPage({ url: process.argv[2] });
  if (!page.ok) throw new Error(page.content);
  const list = await brow.listElements();
  const shot = await brow.screenshot({ labels: true });
  console.log(JSON.stringify({ ok: list.ok, content: list.content, shot: shot.ok ? shot.images?.[0]?.mimeType : shot.content }));
} finally {
  await brow.close();
}
`,
    );
    const r = await run(process.execPath, ['smoke.mjs', server.url('read/tall.html')], project, env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      ok: boolean;
      content: string;
      shot: string;
    };
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toMatch(/\[button ref=e\d+[^\]]*\] Top button/);
    expect(out.content).toMatch(/\[link ref=e\d+[^\]]*\] Jump to middle/);
    // a labelled screenshot, with no image library installed: Chromium draws and encodes it
    expect(out.shot).toBe('image/jpeg');
  }, 120_000);

  it('the command line, through its daemon: open-page, then list-elements', async () => {
    const opened = await run(
      bin(),
      ['open-page', server.url('read/tall.html'), '--session', 'pack'],
      project,
      env,
    );
    expect(opened.code, opened.stdout + opened.stderr).toBe(0);
    const listed = await run(bin(), ['list-elements', '--session', 'pack'], project, env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/\[button ref=e\d+[^\]]*\] Top button/);
  }, 120_000);

  it('npx brow mcp, started from the install, answers a real MCP client', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no', '--', 'brow', 'mcp'],
      cwd: project,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'brow-pack-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['browser_open_page', 'browser_list_elements', 'browser_click']),
      );
      const opened = (await client.callTool({
        name: 'browser_open_page',
        arguments: { url: server.url('read/tall.html') },
      })) as { isError?: boolean; content: { type: string; text?: string }[] };
      expect(opened.isError ?? false, JSON.stringify(opened.content) + stderr).toBe(false);
      const listed = (await client.callTool({ name: 'browser_list_elements', arguments: {} })) as {
        content: { type: string; text?: string }[];
      };
      expect(listed.content.map((c) => c.text ?? '').join('\n')).toContain('Top button');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('THIRD_PARTY_NOTICES holds the licence text of every package bundled into dist/bundle/', () => {
    const installed = join(project, 'node_modules/brow');
    const notices = readFileSync(join(installed, 'THIRD_PARTY_NOTICES'), 'utf8');
    const bundled = JSON.parse(readFileSync(join(installed, 'dist/bundle/packages.json'), 'utf8')) as {
      name: string;
      version: string;
      dir: string;
    }[];
    // the runtime's own packages are in it (the build lists what esbuild's metafile says it bundled)
    for (const name of ['puppeteer-core', '@modelcontextprotocol/sdk', 'linkedom', 'nats', 'zod'])
      expect(bundled.map((b) => b.name)).toContain(name);
    const missing: string[] = [];
    for (const b of bundled) {
      if (!notices.includes(`${b.name}@${b.version} (`)) missing.push(`${b.name}@${b.version}: no heading`);
      const dir = join(ROOT, b.dir);
      for (const f of readdirSync(dir).filter((n) => /^(licen[cs]e|copying)/i.test(n))) {
        const text = readFileSync(join(dir, f), 'utf8').trim();
        if (!notices.includes(text)) missing.push(`${b.name}@${b.version}: ${f}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('a TypeScript consumer type-checks against the installed types of brow and brow/sdk', async () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { createBrow } from 'brow';
import * as sdk from 'brow/sdk';
const brow = await createBrow({ headless: true });
const r = await brow.openPage({ url: 'about:blank' });
const ok: boolean = r.ok;
// @ts-expect-error openPage takes an object
await brow.openPage('about:blank');
console.log(ok, Object.keys(sdk));
await brow.close();
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['consumer.ts'],
      }),
    );
    const r = await run(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      project,
      env,
      240_000,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 300_000);

  it('brow worker without iii-sdk fails with the command that installs it', async () => {
    const peer = pkg.peerDependencies['iii-sdk'];
    expect(peer).toBeTruthy();
    const r = await run(bin(), ['worker', '--engine', 'ws://127.0.0.1:9'], project, env, 60_000);
    expect(r.code).not.toBe(0);
    const said = r.stdout + r.stderr;
    expect(said).toContain('iii-sdk');
    expect(said).toContain(`npm i iii-sdk@${peer}`);
    expect(said).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find package/);
  }, 60_000);
});
