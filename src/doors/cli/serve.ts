/** `brow serve` and `brow mcp`: the servers, loaded only when one of them runs (they pull in the MCP SDK and the HTTP door). */
import { parseArgs } from 'node:util';
import { NATS_CLI_OPTIONS, natsFromValues } from '../../cluster/cli.js';
import { capabilities } from '../../capabilities/registry.js';
import type { Runtime } from '../../runtime/runtime.js';
import { MCP_CLI_OPTIONS } from '../mcp/cli.js';
import { MCP_DEFAULT_CAPS, parseCaps, restrictRuntime } from '../mcp/caps.js';
import { runtimeFromArgs } from './builtins.js';
import { extractConfigArgs, loadFromArgs } from './config-cmd.js';
import type { Streams } from './output.js';
import { onStopSignals } from '../../runtime/stop-signals.js';
import { runUntilSignal } from './until-signal.js';
import { natsUnreachable } from './cluster-cmd.js';
import { own, UsageError } from './usage-error.js';
import type { DemoRef } from './demo.js';

/**
 * The door's runtime: a cluster gateway with --nats, else a core in this process. `view` is what
 * the tool doors serve (only the --caps tools); `runtime` is the whole, for the web console, whose
 * person must be able to answer a handoff or read the console whatever the agent's tool set.
 */
async function doorRuntime(
  argv: string[],
  caps: string | undefined,
  values: Parameters<typeof natsFromValues>[0],
): Promise<{ runtime: Runtime; view: Runtime }> {
  let nats: ReturnType<typeof natsFromValues>;
  try {
    nats = natsFromValues(values);
  } catch (e) {
    throw new UsageError((e as Error).message, { hint: 'Fix --nats-prefix.' });
  }
  let enabled: ReturnType<typeof parseCaps>;
  try {
    enabled = parseCaps(caps, capabilities);
  } catch (e) {
    throw new UsageError((e as Error).message, {
      hint: 'Give capability groups or tool names, comma-separated; -name turns one off (--caps -scripts,-styles).',
    });
  }
  let runtime: Runtime;
  if (!nats) runtime = (await runtimeFromArgs(argv)).runtime;
  else {
    const { gatewayRuntime } = await import('../../cluster/cli.js');
    runtime = await gatewayRuntime(nats, loadFromArgs(extractConfigArgs(argv)).config).catch((e: unknown) => {
      throw natsUnreachable(e);
    });
  }
  return { runtime, view: caps ? restrictRuntime(runtime, enabled) : runtime };
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
        ...NATS_CLI_OPTIONS,
      },
    }),
  );
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port ${values.port} is not a port.`, {
      hint: 'Give 0..65535 (0 picks a free one).',
    });
  }
  const { runtime: whole, view: runtime } = await doorRuntime(argv, values.caps, values);
  const [
    { consoleRoute },
    { eventsRoute },
    { startHttpServer },
    { mcpHttpRoute },
    { demoRoute, demoSuggestions },
  ] = await Promise.all([
    import('../console/routes.js'),
    import('../http/events-route.js'),
    import('../http/server.js'),
    import('../mcp/http.js'),
    import('./demo.js'),
  ]);
  const mcp = mcpHttpRoute(runtime, { sharedSessions: values['shared-sessions'] });
  const server = await startHttpServer(runtime, {
    host: values.host,
    port,
    token: values.token ?? null,
    extraRoutes: [mcp.route, eventsRoute(runtime), consoleRoute(whole), demoRoute],
  }).catch(async (e: unknown) => {
    await mcp.close();
    await runtime.close();
    throw e;
  });
  io.out(
    `brow serving the tool API at ${server.url}/v1/tools, MCP at ${server.url}/mcp, events at ${server.url}/v1/events\n`,
  );
  io.out(`Web console: ${server.url}/${values.token ? '?token=<your token>' : ''}\n`);
  // handoffs name it for the agent's callers, who hold the token already
  runtime.setConsoleUrl(`${server.url}/${values.token ? `?token=${encodeURIComponent(values.token)}` : ''}`);
  if (values.demo) {
    const opened = await runtime.invoke('browser_open_page', { url: `${server.url}/demo` });
    io.out(`${opened.content}\n`);
    // the suggestions name the refs the demo page's outline really has (listing again answers the same refs)
    const listed = opened.ok
      ? await runtime.invoke('browser_list_elements', {
          page_id: (opened.data as { page_id: string }).page_id,
        })
      : null;
    const refs = listed?.ok
      ? ((listed.data as { snapshot?: { refs?: DemoRef[] } }).snapshot?.refs ?? [])
      : [];
    io.out(
      `Try:\n${demoSuggestions(server.url, refs)
        .map((l) => `  ${l}\n`)
        .join('')}`,
    );
  }
  return runUntilSignal(async () => {
    await mcp.close();
    await server.close();
    await runtime.close();
  });
}

/** `brow mcp`: MCP on stdio until the client goes away, and the web console on a loopback port (config `console`). */
export async function mcpCommand(argv: string[]): Promise<number> {
  const rest = extractConfigArgs(argv).rest;
  const { values } = own('mcp', () =>
    parseArgs({ args: rest, options: { caps: MCP_CLI_OPTIONS.caps, ...NATS_CLI_OPTIONS } }),
  );
  // without --caps the MCP door lists the core tools (SPEC §8: a tool list within 24 KB)
  const { runtime: whole, view: runtime } = await doorRuntime(argv, values.caps ?? MCP_DEFAULT_CAPS, values);
  // the client will open a page: launch Chromium while it connects and lists the tools
  if (runtime.config.prelaunch) runtime.prelaunch();
  // stdout carries only MCP: the console's address goes to stderr, which MCP clients log
  const log = (line: string) => void process.stderr.write(`brow: ${line}\n`);
  // the MCP SDK and the console load while Chromium starts; the console listens in the background
  const [{ runMcpStdio }, door] = await Promise.all([
    import('../mcp/stdio.js'),
    import('../console/serve-console.js').then((m) => m.consoleFromConfig(whole, log)),
  ]);
  const close = () => Promise.all([door.close().catch(() => undefined), runtime.close()]);
  // Chromium outlives a killed Node unless we close it: end on stdin EOF or a signal alike
  onStopSignals(() => void close().finally(() => process.exit(0)));
  try {
    await runMcpStdio(runtime);
  } finally {
    await close();
  }
  return 0;
}
