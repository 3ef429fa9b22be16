/** The MCP door's command-line surface: `brow mcp`, and the options `brow serve` shares with it. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { capabilities } from '../../capabilities/registry.js';
import { BrowRuntime } from '../../runtime/runtime.js';
import { parseCaps, restrictRuntime } from './caps.js';
import { runMcpStdio } from './stdio.js';

/** Options of `brow mcp`, also accepted by `brow serve` (spread them into its parseArgs options). */
export const MCP_CLI_OPTIONS = {
  /** Capability groups on/off, e.g. `-scripts,-styles` or `sessions,pages,snapshot,actions`. */
  caps: { type: 'string' },
  /** HTTP only: every MCP client drives the same browser sessions. */
  'shared-sessions': { type: 'boolean', default: false },
  /** A JSON file of brow configuration (max_sessions, executable, …). */
  config: { type: 'string' },
} as const;

export interface McpCliValues {
  caps?: string | undefined;
  'shared-sessions'?: boolean | undefined;
  config?: string | undefined;
}

export const MCP_HELP = `  brow mcp [--caps LIST] [--config FILE]                                MCP on stdio (for an MCP client's config)
  brow serve … [--caps LIST] [--shared-sessions]                        also MCP over streamable HTTP at /mcp
    --caps -scripts,-styles  turns groups off; --caps sessions,pages,snapshot,actions keeps only those
`;

function readConfig(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`--config ${path}: expected a JSON object.`);
  return raw as Record<string, unknown>;
}

/** The runtime a door serves: the --config file, with the --caps view applied. Throws on a bad option. */
export function runtimeFromCli(values: McpCliValues): BrowRuntime {
  const enabled = parseCaps(values.caps, capabilities);
  const runtime = new BrowRuntime(readConfig(values.config));
  return values.caps ? restrictRuntime(runtime, enabled) : runtime;
}

/** `brow mcp`: serve MCP on stdio until the client goes away. */
export async function mcpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: MCP_CLI_OPTIONS });
  const runtime = runtimeFromCli(values);
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
