/** The commands that are not capabilities: serve, mcp, doctor, daemon. Each loads configuration with loadConfig. */
import { parseArgs } from 'node:util';
import { capabilities } from '../../capabilities/registry.js';
import { BrowRuntime } from '../../runtime/runtime.js';
import { consoleRoute } from '../console/routes.js';
import { eventsRoute } from '../http/events-route.js';
import { startHttpServer } from '../http/server.js';
import { MCP_CLI_OPTIONS, mcpHttpRoute, parseCaps, restrictRuntime, runMcpStdio } from '../mcp/index.js';
import { checkInput, parseArgs as parseCommandLine } from './argv.js';
import { capabilityCommands } from './commands.js';
import { extractConfigArgs, loadFromArgs } from './config-cmd.js';
import { daemonStatus, DEFAULT_IDLE_MS, ensureDaemon, stopDaemon } from './daemon-client.js';
import { runDaemon } from './daemon.js';
import { demoRoute } from './demo.js';
import { printOutcome, type Streams } from './output.js';
import { checkProfile, parseDuration } from './runtime-dir.js';
import { UsageError } from './usage-error.js';

/** A runtime from the command line's configuration (--config, BROW_*, config flags), with the --caps view. */
export function runtimeFromArgs(argv: string[], caps?: string): { runtime: BrowRuntime; rest: string[] } {
  const args = extractConfigArgs(argv);
  const enabled = parseCaps(caps, capabilities);
  const runtime = new BrowRuntime(loadFromArgs(args).config);
  return { runtime: caps ? restrictRuntime(runtime, enabled) : runtime, rest: args.rest };
}

/** node:util parseArgs, with its complaint turned into an invalid_request naming the command. */
function own<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError(`brow ${command}: ${(e as Error).message}`, {
      hint: `See brow ${command} --help (configuration keys are flags too: brow config --help).`,
    });
  }
}

/** `brow doctor`: the browser_doctor capability, run in this process (it never launches a browser, so no daemon). */
export async function doctorCommand(argv: string[], io: Streams): Promise<number> {
  const spec = capabilityCommands().get('doctor')!;
  const { runtime, rest } = runtimeFromArgs(argv);
  try {
    const { globals, input } = parseCommandLine('doctor', spec.fields, rest);
    checkInput('doctor', spec.fields, spec.capability.input, input);
    const out = await runtime.invoke(spec.capability.name, input);
    const code = printOutcome(out, globals.json, io);
    // a report that found something missing fails the command, so scripts can check the setup
    return code !== 0 ? code : out.data.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

/** `brow serve`: the HTTP tool API, MCP over HTTP at /mcp, and the demo page with --demo. */
export async function serveCommand(argv: string[], io: Streams): Promise<number> {
  const config = extractConfigArgs(argv);
  const { values } = own('serve', () =>
    parseArgs({
      args: config.rest,
      options: {
        port: { type: 'string', default: process.env.BROW_PORT ?? '7777' },
        host: { type: 'string', default: '127.0.0.1' },
        token: { type: 'string', default: process.env.BROW_TOKEN },
        demo: { type: 'boolean', default: false },
        ...MCP_CLI_OPTIONS,
      },
    }),
  );
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port ${values.port} is not a port.`, {
      hint: 'Give 0..65535 (0 picks a free one).',
    });
  }
  const { runtime } = runtimeFromArgs(argv, values.caps);
  const mcp = mcpHttpRoute(runtime, { sharedSessions: values['shared-sessions'] });
  const server = await startHttpServer(runtime, {
    host: values.host,
    port,
    token: values.token ?? null,
    extraRoutes: [mcp.route, eventsRoute(runtime), consoleRoute(runtime), demoRoute],
  }).catch(async (e: unknown) => {
    await mcp.close();
    await runtime.close();
    throw e;
  });
  io.out(
    `brow serving the tool API at ${server.url}/v1/tools, MCP at ${server.url}/mcp, events at ${server.url}/v1/events\n`,
  );
  io.out(`Web console: ${server.url}/${values.token ? '?token=<your token>' : ''}\n`);
  if (values.demo) {
    const opened = await runtime.invoke('browser_open_page', { url: `${server.url}/demo` });
    io.out(`${opened.content}\n`);
    io.out(
      `Try:\n  curl -s -X POST ${server.url}/v1/tools/browser_list_elements -H 'content-type: application/json' -d '{}'\n` +
        `  curl -s -X POST ${server.url}/v1/tools/browser_click -H 'content-type: application/json' -d '{"ref":"e3"}'\n`,
    );
  }
  const stop = async () => {
    await mcp.close();
    await server.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  await new Promise(() => undefined);
  return 0;
}

/** `brow mcp`: MCP on stdio until the client goes away. */
export async function mcpCommand(argv: string[]): Promise<number> {
  const rest = extractConfigArgs(argv).rest;
  const { values } = own('mcp', () => parseArgs({ args: rest, options: { caps: MCP_CLI_OPTIONS.caps } }));
  const { runtime } = runtimeFromArgs(argv, values.caps);
  // Chromium outlives a killed Node unless we close it: end on stdin EOF or a signal alike
  const onSignal = () => void runtime.close().finally(() => process.exit(0));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runMcpStdio(runtime);
  } finally {
    await runtime.close();
  }
  return 0;
}

/** The daemon profile a command means: --session, else BROW_SESSION, else "default". */
export function profileOf(session: string | undefined): string {
  return checkProfile(session ?? process.env.BROW_SESSION ?? 'default');
}

const ago = (t: number) => `${Math.round((Date.now() - t) / 1000)} s ago`;

/** `brow daemon [--profile N]` runs one; `brow daemon start|status|stop [--session N]` manage it. */
export async function daemonCommand(argv: string[], io: Streams): Promise<number> {
  const config = extractConfigArgs(argv);
  const { values, positionals } = own('daemon', () =>
    parseArgs({
      args: config.rest,
      allowPositionals: true,
      options: {
        profile: { type: 'string' },
        session: { type: 'string' },
        'idle-timeout': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }),
  );
  const action = positionals[0] ?? 'run';
  const profile = profileOf(values.profile ?? values.session);
  const idleMs = values['idle-timeout'] ? parseDuration(values['idle-timeout']) : DEFAULT_IDLE_MS;
  if (action === 'run') {
    const code = await runDaemon({ profile, idleMs, loaded: loadFromArgs(config) });
    // exit even if a stray handle would keep Node alive: a daemon must not linger
    setTimeout(() => process.exit(code), 50).unref();
    return code;
  }
  if (action === 'start') {
    const socket = await ensureDaemon({ profile, idleMs, configFile: config.file });
    io.out(`brow daemon for session "${profile}" is listening on ${socket}\n`);
    return 0;
  }
  if (action === 'status') {
    const s = await daemonStatus(profile);
    if (values.json) io.out(`${JSON.stringify({ running: !!s, ...(s ?? { profile }) })}\n`);
    else if (!s) io.out(`No brow daemon is running for session "${profile}".\n`);
    else {
      io.out(
        `brow daemon for session "${s.profile}": pid ${s.pid}, socket ${s.socket}\n` +
          `started ${ago(s.started_at)}, last command ${ago(s.last_used_at)}, exits after ${s.idle_timeout_ms / 1000} s idle\n` +
          `config file: ${s.config_file ?? '(none)'}; working directory: ${s.cwd}; browser sessions: ${s.sessions.length}\n`,
      );
    }
    return s ? 0 : 1;
  }
  if (action === 'stop') {
    const was = await stopDaemon(profile);
    io.out(
      was
        ? `Stopped the brow daemon for session "${profile}".\n`
        : `No brow daemon was running for session "${profile}".\n`,
    );
    return 0;
  }
  throw new UsageError(`brow daemon has no "${action}".`, { hint: 'Use brow daemon start, status or stop.' });
}
