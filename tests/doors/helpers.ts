/** Test plumbing for the doors: build once, spawn the real `brow serve` / `brow mcp`, and one call shape for every door. */
import { afterAll } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createToolClient, type ToolName } from '../../src/doors/sdk/tool-client.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin/brow.js');

/**
 * Setup budget for hooks that build and spawn: the build alone takes ~5 s on an idle machine but
 * a minute when several suites share two cores.
 */
export const SETUP_MS = 300_000;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The newest modification time (ms) of the files under `dir`, leaving out generated/ folders. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'generated') newest = Math.max(newest, newestUnder(p));
    } else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Whether dist/ was built from the sources as they are: the build's last output,
 * dist/bundle/packages.json, is newer than every file under src/ (but the generated/ folders, which
 * the build writes), scripts/, package.json and tsconfig.build.json, and the in-page script module
 * the build writes into src/ is there. `npm test` builds before vitest starts, so the tests need
 * not build again.
 */
export function distIsCurrent(): boolean {
  const stamp = join(ROOT, 'dist/bundle/packages.json');
  if (!existsSync(stamp) || !existsSync(join(ROOT, 'src/core/snapshot/generated/page-script.js'))) {
    return false;
  }
  const built = statSync(stamp).mtimeMs;
  const newest = Math.max(
    newestUnder(join(ROOT, 'src')),
    newestUnder(join(ROOT, 'scripts')),
    statSync(join(ROOT, 'package.json')).mtimeMs,
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  return built > newest;
}

/**
 * `node scripts/build.mjs` when dist/ is not current (distIsCurrent), once per vitest run even
 * when several test files ask at once (a mkdir lock; the stamp is keyed by the vitest main
 * process). A type error elsewhere in the tree still emits dist/, so a failing build only warns
 * when dist/ is there.
 */
export function buildOnce(): void {
  const stamp = join(tmpdir(), `brow-doors-build-${process.ppid}.done`);
  const lock = join(tmpdir(), `brow-doors-build-${process.ppid}.lock`);
  const deadline = Date.now() + SETUP_MS - 30_000;
  while (!existsSync(stamp) && !distIsCurrent()) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) break;
      sleep(200);
      continue;
    }
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'pipe' });
    } catch (e) {
      const out = e as { stdout?: Buffer; stderr?: Buffer };
      if (!existsSync(join(ROOT, 'dist/doors/cli/main.js'))) throw e;
      const log = `${String(out.stdout ?? '')}${String(out.stderr ?? '')}`;
      console.warn(`build reported errors (dist/ was still emitted):\n${log.slice(0, 2000)}`);
    } finally {
      writeFileSync(stamp, String(Date.now()));
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** The config files' directories this test file made: removed after its tests. */
const configDirs: string[] = [];
afterAll(() => {
  for (const d of configDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A brow config file (the spawned servers get room for the sessions the tests start). */
export function configFile(config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'brow-doors-'));
  configDirs.push(dir);
  const file = join(dir, 'brow.json');
  writeFileSync(file, JSON.stringify({ max_sessions: 16, ...config }));
  return file;
}

export interface Spawned {
  url: string;
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawn `node bin/brow.js serve --port 0 …` and wait for the line that gives its URL. */
export async function spawnServe(args: string[] = [], env: Record<string, string> = {}): Promise<Spawned> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
    const onData = () => {
      const m = /tool API at (http:\/\/\S+)\/v1\/tools/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        proc.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}

/** Run the CLI to completion (for commands that should refuse to start). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 20_000) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A real MCP client on `node bin/brow.js mcp …` over stdio. */
export async function stdioClient(args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'brow-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A real MCP client over streamable HTTP at `${url}/mcp`. */
export async function httpClient(
  url: string,
  token?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  const client = new Client({ name: 'brow-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** What every door answers, in one shape, so the contract can compare doors. */
export interface DoorResult {
  ok: boolean;
  error_code: string | null;
  /** The model text. */
  text: string;
  data: Record<string, any>;
  images: { data: string; mimeType: string }[];
}

export type DoorCall = (name: string, input?: Record<string, unknown>) => Promise<DoorResult>;

export function fromMcp(r: CallToolResult): DoorResult {
  const data = (r.structuredContent ?? {}) as Record<string, any>;
  const content = r.content;
  return {
    ok: r.isError !== true,
    error_code: r.isError ? (data.error_code ?? null) : null,
    text: content
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('\n'),
    data,
    images: content.flatMap((c) => (c.type === 'image' ? [{ data: c.data, mimeType: c.mimeType }] : [])),
  };
}

/** Call a tool through an MCP client. */
export const mcpDoor =
  (client: Client): DoorCall =>
  async (name, input = {}) =>
    fromMcp((await client.callTool({ name, arguments: input })) as CallToolResult);

/** Call a tool through the code-mode tool API, with the brow/sdk client. */
export function toolApiDoor(url: string, opts: { token?: string; client?: string } = {}): DoorCall {
  const c = createToolClient({ url, ...opts });
  return async (name, input = {}) => {
    // names are checked by the server here: a contract case may name a tool that does not exist
    const r = await c.call(name as ToolName, input as never);
    return {
      ok: r.ok,
      error_code: r.ok ? null : ((r.data.error_code as string | undefined) ?? null),
      text: r.content,
      data: r.data,
      images: r.images ?? [],
    };
  };
}

/** Call and expect ok; returns data. */
export async function must(
  call: DoorCall,
  name: string,
  input: Record<string, unknown> = {},
): Promise<DoorResult> {
  const r = await call(name, input);
  if (!r.ok) throw new Error(`${name} failed: ${r.text}`);
  return r;
}

/** The ref of the first record with this role and accessible name. */
export function refFor(rows: any[], role: string | RegExp, name: string | RegExp): string {
  const matches = (v: string, p: string | RegExp) => (typeof p === 'string' ? v === p : p.test(v));
  // MCP's compact form sends each ref as a row [ref, role, name, …]; the full form as a record
  const refs = rows.map((r) => (Array.isArray(r) ? { ref: r[0], role: r[1], accessible_name: r[2] } : r));
  const hit = refs.find((r) => matches(r.role, role) && matches(r.accessible_name, name));
  if (!hit)
    throw new Error(
      `no ${role} "${name}" among ${refs.map((r) => `${r.role}:${r.accessible_name}`).join(', ')}`,
    );
  return hit.ref;
}

/** The ref of the line in seed-001 snapshot text whose bracket has this role and whose label matches. */
export function refInText(text: string, role: string, label: RegExp): string {
  for (const line of text.split('\n')) {
    const m = /\[(\S+) ref=(e\d+)[^\]]*\]\s*(.*)$/.exec(line);
    if (m && m[1] === role && label.test(m[3] ?? '')) return m[2]!;
  }
  throw new Error(`no [${role} …] ${label} line in:\n${text}`);
}

/** Is a capability registered? (read_page and screenshot are being built alongside this door.) */
export async function hasCapability(name: string): Promise<boolean> {
  const { getCapability } = await import('../../src/capabilities/registry.js');
  return getCapability(name) !== undefined;
}
