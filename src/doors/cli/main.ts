/**
 * `brow <command>`: one dispatcher for the builtin commands (serve, mcp, doctor, daemon, config, …)
 * and a command per capability, generated from the registry (`browser_open_page` → `brow open-page`).
 * Capability commands run in the profile's daemon, which keeps the browser open between commands.
 */
import { errorOutcome } from '../../runtime/invoke.js';
import { failure, type Outcome } from '../../runtime/outcome.js';
import { readFileSync } from 'node:fs';
import { renderHint } from '../../runtime/door-names.js';
import { checkInput } from './argv.js';
import { daemonCommand, doctorCommand, runtimeFromArgs } from './builtins.js';
import { capabilityCommands, commandName, type CommandSpec } from './commands.js';
import { completionCommand } from './completion.js';
import { configCommand } from './config-cmd.js';
import { DaemonUnreachable } from './daemon-client.js';
import { commandHelp, mainHelp } from './help.js';
import { printOutcome, stdio, type Streams } from './output.js';
import { replayCommand } from './replay.js';
import { nearest } from '../../runtime/near.js';
import { forCliWith, runCommand, snapshotArgs, splitCommand } from './run.js';
import { UsageError } from './usage-error.js';

export { snapshotArgs, splitCommand };

export interface Builtin {
  /** Usage after `brow `, for `brow --help`. */
  usage: string;
  description: string;
  run(argv: string[], io: Streams): Promise<number> | number;
}

/** Commands that are not capabilities. A door adds its command here (one entry; import heavy code in `run`). */
export const BUILTINS: Record<string, Builtin> = {
  serve: {
    usage: 'serve [--port 7777] [--host H] [--token T] [--demo] [--caps LIST] [--nats URL]',
    description:
      'HTTP tool API (POST /v1/tools/<name>) and MCP over HTTP at /mcp (port: --port or BROW_PORT)',
    run: async (argv, io) => (await import('./serve.js')).serveCommand(argv, io),
  },
  mcp: {
    usage: 'mcp [--caps LIST] [--nats URL]',
    description:
      "MCP on stdio (for an MCP client's config): the 23 core tools; --caps=all lists all, --caps=core,storage adds a group",
    run: async (argv) => (await import('./serve.js')).mcpCommand(argv),
  },
  doctor: {
    usage: 'doctor [--json]',
    description:
      'which Chromium would launch and what is missing, without launching it (capability browser_doctor, run in this process)',
    run: doctorCommand,
  },
  worker: {
    // the full usage is WORKER_USAGE in bus/cli.ts; importing it here would load the bus SDK for every command
    usage: 'worker [--engine ws://127.0.0.1:49134] [--name browser]',
    description:
      'seed-002 bus worker: browser::* functions and triggers on an iii engine (--engine, else III_URL)',
    run: async (argv, io) => {
      const { workerCommand } = await import('../bus/cli.js');
      const { runtime, rest } = await runtimeFromArgs(argv);
      return workerCommand(runtime, rest, io.out);
    },
  },
  node: {
    usage: 'node --nats URL [--capacity N] [--name ID] [--nats-prefix P]',
    description:
      "a cluster worker: this machine's Chromium serves sessions to gateways over NATS (docs/cluster.md)",
    run: async (argv, io) => (await import('./cluster-cmd.js')).nodeCommand(argv, io),
  },
  cluster: {
    usage: 'cluster status --nats URL [--json]',
    description: "the cluster's workers: id, sessions/capacity, load, Chromium version, uptime",
    run: async (argv, io) => (await import('./cluster-cmd.js')).clusterCommand(argv, io),
  },
  replay: {
    usage: 'replay FILE [--json] [--keep-session]',
    description:
      'replay a browser_export_script script (json or brow-cli) on a fresh session, step by step; exits non-zero at the first failing step',
    // imported statically: the CLI bundle must hold the one copy of the error classes it compares
    run: async (argv, io) => {
      const r = await replayCommand(argv, io);
      return printOutcome(forCli(r.outcome), r.json, io);
    },
  },
  daemon: {
    usage: 'daemon start | status | stop [--session NAME]',
    description: "the background process that keeps a profile's browser open between commands",
    run: daemonCommand,
  },
  config: {
    usage: 'config [--json]',
    description: 'the effective configuration and where each value came from',
    run: (argv, io) => configCommand(argv, io),
  },
  completion: {
    usage: 'completion bash|zsh|fish',
    description:
      'shell completion: eval "$(brow completion bash)" in ~/.bashrc, source <(brow completion zsh) in ~/.zshrc, brow completion fish | source',
    run: (argv, io) => completionCommand(argv, Object.keys(BUILTINS), io.out),
  },
};

const builtinHelp = (): [string, string][] => Object.values(BUILTINS).map((b) => [b.usage, b.description]);

/** The version in package.json, read beside this module (src/ or dist/ alike, a checkout or an install). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

const SNAPSHOT_HELP = `Usage: brow snapshot [-i] [-c] [-d N] [list-elements flags]

brow list-elements under the name agent-browser users know: the whole page (--scope full) with refs;
  -i   interactive elements only (--scope interactive, what brow list-elements lists by default)
  -c   compact: the outline form (--format outline: \`- role "name" [ref=eN]\`, no states or values)
  -d N only lines at most N levels deep in the listing (--depth N; 0 = the top level)
Refs may be written @e1 wherever a command takes one: brow click @e1.
`;

/** Run one capability command through the profile's daemon, its input checked here. */
function runCapability(spec: CommandSpec, argv: string[], io: Streams): Promise<number> {
  return runCommand(
    { command: spec.command, name: spec.capability.name, group: spec.capability.group, fields: spec.fields },
    argv,
    io,
    {
      render: (text) => renderHint(text, 'cli'),
      help: () => commandHelp(spec),
      check: (input) => checkInput(spec.command, spec.fields, spec.capability.input, input),
    },
  );
}

/** An answer as the CLI gives it: tools named in its text and hint are written as brow commands. */
export function forCli(o: Outcome): Outcome {
  return forCliWith(o, (text) => renderHint(text, 'cli'));
}

/** The outcome for an error thrown before or around a call. */
export function outcomeOf(e: unknown): Outcome {
  if (e instanceof UsageError) return e.toOutcome();
  if (e instanceof DaemonUnreachable) {
    const hint =
      'Run `brow daemon status`, read the log beside its socket, or `brow daemon stop` and try again.';
    return failure('connection_failed', e.message, hint);
  }
  return errorOutcome(e);
}

export async function main(argv: string[], io: Streams = stdio): Promise<number> {
  try {
    const { command, rest, leading } = splitCommand(argv);
    const asked = (...flags: string[]) => flags.some((f) => leading.includes(f));
    if (asked('--version', '-V') || command === 'version') {
      io.out(`${version()}\n`);
      return 0;
    }
    if (!command || command === 'help') {
      const named = rest.find((t) => !t.startsWith('-'));
      const spec = named
        ? (capabilityCommands().get(named === 'snapshot' ? 'list-elements' : named) ?? undefined)
        : undefined;
      io.out(spec ? commandHelp(spec) : mainHelp(builtinHelp()));
      return 0;
    }
    const builtin = Object.hasOwn(BUILTINS, command) ? BUILTINS[command] : undefined;
    if (builtin && command !== 'config' && (rest.includes('--help') || rest.includes('-h'))) {
      io.out(
        `Usage: brow ${builtin.usage}\n\n${builtin.description}.\n--config FILE and every configuration key as a flag (brow config --help) apply too.\n`,
      );
      return 0;
    }
    if (builtin) return await builtin.run(rest, io);
    if (command === 'snapshot') {
      const list = capabilityCommands().get('list-elements')!;
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(`${SNAPSHOT_HELP}\n${commandHelp(list)}`);
        return 0;
      }
      return await runCapability(list, snapshotArgs(rest), io);
    }
    const spec = capabilityCommands().get(command) ?? capabilityCommands().get(commandName(command));
    if (spec) return await runCapability(spec, rest, io);
    const near = nearest(command, [...capabilityCommands().keys(), ...Object.keys(BUILTINS), 'snapshot']);
    throw new UsageError(`brow has no command "${command}".`, {
      hint: `${near.length > 0 ? `Did you mean ${near.join(', ')}? ` : ''}brow --help lists the commands.`,
    });
  } catch (e) {
    return printOutcome(outcomeOf(e), argv.includes('--json'), io);
  }
}
