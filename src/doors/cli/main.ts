/**
 * `brow <command>`: one dispatcher for the builtin commands (serve, mcp, doctor, daemon, config, …)
 * and a command per capability, generated from the registry (`browser_open_page` → `brow open-page`).
 * Capability commands run in the profile's daemon, which keeps the browser open between commands.
 */
import { errorOutcome } from '../../runtime/invoke.js';
import type { Outcome } from '../../runtime/outcome.js';
import { absolutePaths, checkInput, parseArgs } from './argv.js';
import { daemonCommand, doctorCommand, profileOf, runtimeFromArgs } from './builtins.js';
import { capabilityCommands, commandName, type CommandSpec } from './commands.js';
import { completionCommand } from './completion.js';
import { configCommand } from './config-cmd.js';
import { DaemonUnreachable, invokeViaDaemon } from './daemon-client.js';
import { commandHelp, mainHelp } from './help.js';
import { printOutcome, stdio, type Streams } from './output.js';
import { nearest } from '../../runtime/near.js';
import { parseDuration } from './runtime-dir.js';
import { UsageError } from './usage-error.js';

export interface Builtin {
  /** Usage after `brow `, for `brow --help`. */
  usage: string;
  description: string;
  run(argv: string[], io: Streams): Promise<number> | number;
}

/** Commands that are not capabilities. A door adds its command here (one entry; import heavy code in `run`). */
export const BUILTINS: Record<string, Builtin> = {
  serve: {
    usage: 'serve [--port 7777] [--host H] [--token T] [--demo] [--caps LIST]',
    description:
      'HTTP tool API (POST /v1/tools/<name>) and MCP over HTTP at /mcp (port: --port or BROW_PORT)',
    run: async (argv, io) => (await import('./serve.js')).serveCommand(argv, io),
  },
  mcp: {
    usage: 'mcp [--caps LIST]',
    description: "MCP on stdio (for an MCP client's config); --caps -scripts,-styles turns groups off",
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
    usage: 'completion bash',
    description: 'bash completion: eval "$(brow completion bash)"',
    run: (argv, io) => completionCommand(argv, Object.keys(BUILTINS), io.out),
  },
};

const builtinHelp = (): [string, string][] => Object.values(BUILTINS).map((b) => [b.usage, b.description]);

/** Run one capability command through the profile's daemon. */
async function runCapability(spec: CommandSpec, argv: string[], io: Streams): Promise<number> {
  const { globals, input } = parseArgs(spec.command, spec.fields, argv);
  if (globals.help) {
    io.out(commandHelp(spec));
    return 0;
  }
  checkInput(spec.command, spec.fields, spec.capability.input, input);
  const target = {
    profile: profileOf(globals.session),
    configFile: globals.config ?? process.env.BROW_CONFIG,
    ...(globals.idleTimeout ? { idleMs: parseDuration(globals.idleTimeout) } : {}),
  };
  const { outcome, warnings } = await invokeViaDaemon(
    target,
    spec.capability.name,
    absolutePaths(input, process.cwd()),
  );
  for (const w of warnings) io.err(`${w}\n`);
  return printOutcome(outcome, globals.json, io);
}

/** The outcome for an error thrown before or around a call. */
function outcomeOf(e: unknown): Outcome {
  if (e instanceof UsageError) return e.toOutcome();
  if (e instanceof DaemonUnreachable) {
    const hint =
      'Run `brow daemon status`, read the log beside its socket, or `brow daemon stop` and try again.';
    return {
      ok: false,
      content: `Browser operation failed [connection_failed]: ${e.message} ${hint}`,
      data: { error_code: 'connection_failed', message: e.message, hint },
    };
  }
  return errorOutcome(e);
}

export async function main(argv: string[], io: Streams = stdio): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      const spec = rest[0] ? capabilityCommands().get(rest[0]) : undefined;
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
    const spec = capabilityCommands().get(command) ?? capabilityCommands().get(commandName(command));
    if (spec) return await runCapability(spec, rest, io);
    const near = nearest(command, [...capabilityCommands().keys(), ...Object.keys(BUILTINS)]);
    throw new UsageError(`brow has no command "${command}".`, {
      hint: `${near.length > 0 ? `Did you mean ${near.join(', ')}? ` : ''}brow --help lists the commands.`,
    });
  } catch (e) {
    return printOutcome(outcomeOf(e), argv.includes('--json'), io);
  }
}
