/**
 * docs/mcp.md#clients as a client would take it: every ```json snippet parses, has its client's
 * top-level key (`servers` for VS Code, `mcpServers` elsewhere), and the command it names starts a
 * server the MCP SDK's own client can list tools from; `claude mcp add` lines are checked by the
 * command after `--`. URL snippets connect to a real `brow serve`.
 *
 * Mapping to this checkout (the only changes made to a snippet before running it):
 * - `/path/to/brow` becomes the checkout's path;
 * - `npx -y brow mcp` runs verbatim, as the doc says to use it: after `npm install -g /path/to/brow`
 *   (here into a private npm prefix, with --offline, so the machine's global packages are untouched),
 *   from a directory outside the checkout, offline — npx must find that install and fetch nothing.
 *   Running npx inside the checkout instead would make npm link the project into ~/.npm/_npx and
 *   run its `prepare` (a full build) there, leaving a broken cache entry whenever that build fails;
 * - `http://127.0.0.1:7777` becomes the address of the `brow serve` the test started.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { MCP_DEFAULT_CAPS, parseCaps } from '../../src/doors/mcp/caps.js';
import { buildOnce, ROOT, SETUP_MS, spawnServe, type Spawned } from './helpers.js';

/** Each client's subsection heading in docs/mcp.md → the top-level key its config file uses. */
const CLIENT_KEYS: Record<string, 'mcpServers' | 'servers'> = {
  'Claude Desktop': 'mcpServers',
  'Claude Code': 'mcpServers',
  Cursor: 'mcpServers',
  'VS Code': 'servers',
  Windsurf: 'mcpServers',
};
const CHECKOUT = ROOT.replace(/\/$/, '');
const DOC_PORT = 'http://127.0.0.1:7777';

type Launch =
  | { client: string; source: string; kind: 'stdio'; command: string; args: string[] }
  | { client: string; source: string; kind: 'http'; url: string };

/** The `## Clients` section of docs/mcp.md, split at its `###` headings. */
function clientSubsections(): { heading: string; body: string }[] {
  const doc = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8');
  const start = doc.indexOf('\n## Clients\n');
  if (start < 0) throw new Error('docs/mcp.md has no "## Clients" section');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return section
    .split(/\n### /)
    .slice(1)
    .map((part) => {
      const nl = part.indexOf('\n');
      return { heading: part.slice(0, nl).trim(), body: part.slice(nl + 1) };
    });
}

const fences = (body: string, lang: string): string[] =>
  [...body.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** Every launch the section documents, read as the client would read it (a bad snippet throws here). */
function documentedLaunches(): { launches: Launch[]; problems: string[] } {
  const launches: Launch[] = [];
  const problems: string[] = [];
  for (const { heading, body } of clientSubsections()) {
    const client = Object.keys(CLIENT_KEYS).find((c) => heading === c);
    if (!client) {
      if (fences(body, 'json').length > 0) problems.push(`JSON snippet under "${heading}", not a client`);
      continue;
    }
    const key = CLIENT_KEYS[client]!;
    for (const text of fences(body, 'json')) {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch (e) {
        problems.push(`${client}: not JSON (${String(e)}):\n${text}`);
        continue;
      }
      if (Object.keys(json).join() !== key) {
        problems.push(`${client}: top-level keys ${Object.keys(json).join()} instead of ${key}`);
        continue;
      }
      for (const [name, raw] of Object.entries(json[key] as Record<string, Record<string, unknown>>)) {
        const source = `${client} ${name}: ${JSON.stringify(raw)}`;
        if (typeof raw.command === 'string') {
          if (client === 'VS Code' && raw.type !== 'stdio')
            problems.push(`${source}: VS Code needs type stdio`);
          const args = raw.args ?? [];
          if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
            problems.push(`${source}: args is not a list of strings`);
          launches.push({ client, source, kind: 'stdio', command: raw.command, args: args as string[] });
        } else {
          const urlKey = client === 'Windsurf' ? 'serverUrl' : 'url';
          if (typeof raw[urlKey] !== 'string') {
            problems.push(`${source}: neither command nor ${urlKey}`);
            continue;
          }
          if ((client === 'VS Code' || client === 'Claude Code') && raw.type !== 'http')
            problems.push(`${source}: ${client} needs type http for a URL`);
          launches.push({ client, source, kind: 'http', url: raw[urlKey] as string });
        }
      }
    }
    for (const text of fences(body, 'sh')) {
      for (const line of text.split('\n').filter((l) => l.startsWith('claude mcp add '))) {
        const dashes = line.indexOf(' -- ');
        if (dashes >= 0) {
          const [command, ...args] = line
            .slice(dashes + 4)
            .trim()
            .split(/\s+/);
          launches.push({ client, source: line, kind: 'stdio', command: command!, args });
        } else if (/--transport http /.test(line)) {
          launches.push({ client, source: line, kind: 'http', url: line.trim().split(/\s+/).pop()! });
        } else problems.push(`${client}: "${line}" names neither a command after -- nor an http URL`);
      }
    }
  }
  return { launches, problems };
}

const { launches, problems } = documentedLaunches();

/** The documented command, mapped to this checkout (see the file comment). */
function local(l: Extract<Launch, { kind: 'stdio' }>): { command: string; args: string[] } {
  return { command: l.command, args: l.args.map((a) => a.replaceAll('/path/to/brow', CHECKOUT)) };
}

const isNpx = (l: Launch) => l.kind === 'stdio' && l.command === 'npx' && l.args.join(' ') === '-y brow mcp';
const isCheckout = (l: Launch) =>
  l.kind === 'stdio' && l.command === 'node' && l.args.join(' ') === '/path/to/brow/bin/brow.js mcp';

let serve: Spawned;
/** A private npm prefix holding `npm install -g <checkout>`, and a directory outside the checkout. */
const prefix = mkdtempSync(join(tmpdir(), 'brow-npm-prefix-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'brow-npx-cwd-'));
/** This process's environment without the npm_* variables `npx vitest` set (they name the checkout as the project). */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined && !/^npm_/i.test(e[0]),
  ),
);
const npmEnv = {
  ...cleanEnv,
  npm_config_prefix: prefix,
  npm_config_offline: 'true',
  PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
};
/**
 * The snippets' servers only list tools: they start no Chromium before a call (prelaunch, tested in
 * mcp-prelaunch.test.ts) and serve no web console, which only made each launch and its stop ~2 s slower.
 */
const launchEnv = { ...npmEnv, BROW_PRELAUNCH: 'false', BROW_CONSOLE: 'false' };
beforeAll(async () => {
  buildOnce();
  // the install the doc asks for; --ignore-scripts: buildOnce has built the checkout already
  execFileSync('npm', ['install', '-g', '--ignore-scripts', '--no-audit', '--no-fund', CHECKOUT], {
    env: npmEnv,
    cwd: elsewhere,
    stdio: 'pipe',
  });
  serve = await spawnServe();
}, SETUP_MS);
afterAll(async () => {
  await serve?.stop();
  rmSync(prefix, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

/** Connect the SDK client, list the tools, close. */
async function listTools(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<string[]> {
  const client = new Client({ name: 'mcp-snippets-test', version: '0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('docs/mcp.md#clients', () => {
  it('every snippet parses with its client’s top-level key, and each client has an npx and a checkout form', () => {
    expect(problems).toEqual([]);
    for (const client of Object.keys(CLIENT_KEYS)) {
      const mine = launches.filter((l) => l.client === client);
      expect(mine.some(isNpx), `${client}: npx -y brow mcp`).toBe(true);
      expect(mine.some(isCheckout), `${client}: node /path/to/brow/bin/brow.js mcp`).toBe(true);
    }
  });

  it.each(launches.map((l) => [l.source, l] as const))(
    '%s',
    async (_source, launch) => {
      let names: string[];
      if (launch.kind === 'stdio') {
        const { command, args } = local(launch);
        let stderr = '';
        const transport = new StdioClientTransport({
          command,
          args,
          cwd: elsewhere,
          env: launchEnv,
          stderr: 'pipe',
        });
        transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
        names = await listTools(transport).catch((e: unknown) => {
          throw new Error(`${command} ${args.join(' ')} failed: ${String(e)}\n${stderr}`);
        });
      } else {
        expect(launch.url.startsWith(`${DOC_PORT}/mcp`)).toBe(true);
        const url = new URL(launch.url.replace(DOC_PORT, serve.url));
        names = await listTools(new StreamableHTTPClientTransport(url));
      }
      // `brow mcp` lists the core set unless its --caps says otherwise; `brow serve`'s /mcp every tool
      const caps =
        launch.kind === 'stdio'
          ? (launch.args.find((a) => a.startsWith('--caps='))?.slice('--caps='.length) ?? MCP_DEFAULT_CAPS)
          : 'all';
      const expected = capabilities.filter(parseCaps(caps, capabilities)).map((c) => c.name);
      expect(names.sort()).toEqual(expected.sort());
    },
    90_000,
  );
});
