/** `brow <command>`: serve, doctor — the entry the README's commands use. */
import { parseArgs } from 'node:util';
import { BrowRuntime } from '../../runtime/runtime.js';
import { startHttpServer } from '../http/server.js';
import { MCP_CLI_OPTIONS, MCP_HELP, mcpCommand, mcpHttpRoute, runtimeFromCli } from '../mcp/index.js';
import { demoRoute } from './demo.js';

const HELP = `brow — real Chromium sessions as data for AI agents

Usage:
  brow serve [--port 7777] [--host 127.0.0.1] [--token T] [--demo]   HTTP tool API (POST /v1/tools/<name>)
${MCP_HELP}  brow doctor [--json]                                                  which Chromium would launch, what is missing
  brow --help
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === 'doctor') return doctorCommand(rest);
  if (command === 'serve') return serveCommand(rest);
  if (command === 'mcp') return mcpCommand(rest);
  process.stderr.write(`Unknown command "${command}".\n${HELP}`);
  return 2;
}

async function doctorCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const runtime = new BrowRuntime();
  try {
    const out = await runtime.invoke('browser_doctor', {});
    process.stdout.write(values.json ? `${JSON.stringify(out, null, 2)}\n` : `${out.content}\n`);
    return out.ok && out.data.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.BROW_PORT ?? '7777' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string', default: process.env.BROW_TOKEN },
      demo: { type: 'boolean', default: false },
      ...MCP_CLI_OPTIONS,
    },
  });
  const runtime = runtimeFromCli(values);
  const mcp = mcpHttpRoute(runtime, { sharedSessions: values['shared-sessions'] });
  const server = await startHttpServer(runtime, {
    host: values.host,
    port: Number(values.port),
    token: values.token ?? null,
    extraRoutes: [mcp.route, demoRoute],
  }).catch(async (e: unknown) => {
    await mcp.close();
    await runtime.close();
    throw e;
  });
  process.stdout.write(`brow serving the tool API at ${server.url}/v1/tools and MCP at ${server.url}/mcp\n`);
  if (values.demo) {
    const opened = await runtime.invoke('browser_open_page', { url: `${server.url}/demo` });
    process.stdout.write(`${opened.content}\n`);
    process.stdout.write(
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
