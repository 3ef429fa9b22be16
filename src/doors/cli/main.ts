/**
 * `brow <command>`: one dispatcher for the builtin commands (serve, mcp, doctor, daemon, config, …)
 * and a command per capability, generated from the registry (`browser_open_page` → `brow open-page`).
 * Capability commands run in the profile's daemon, which keeps the browser open between commands.
 */
import { errorOutcome } from '../../runtime/invoke.js';
import { failure, type Outcome } from '../../runtime/outcome.js';
import { readFileSync } from 'node:fs';
import { renderHint } from '../../runtime/door-names.js';
import { absolutePaths, checkInput, parseArgs } from './argv.js';
import { daemonCommand, doctorCommand, profileOf, runtimeFromArgs } from './builtins.js';
import { capabilityCommands, commandName, GLOBAL_FLAGS, VALUE_FLAGS, type CommandSpec } from './commands.js';
import { completionCommand } from './completion.js';
import { configCommand } from './config-cmd.js';
import {
  DaemonUnreachable,
  invokeViaDaemon,
  type DaemonProgress,
  type StartNotice,
} from './daemon-client.js';
import { commandHelp, mainHelp } from './help.js';
import { printOutcome, stdio, type Streams } from './output.js';
import { replayCommand } from './replay.js';
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
    usage: 'serve [--port 7777] [--host H] [--token T] [--demo] [--caps LIST] [--nats URL]',
    description:
      'HTTP tool API (POST /v1/tools/<name>) and MCP over HTTP at /mcp (port: --port or BROW_PORT)',
    run: async (argv, io) => (await import('./serve.js')).serveCommand(argv, io),
  },
  mcp: {
    usage: 'mcp [--caps LIST] [--nats URL]',
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

/**
 * Global flags stand anywhere on the line, as people type them: `brow --session x open-page URL`
 * is `brow open-page URL --session x`. Returns the command and its argv (the global flags typed
 * before it first).
 */
export function splitCommand(argv: string[]): {
  command: string | undefined;
  rest: string[];
  /** The global flags typed before the command. */
  leading: string[];
} {
  const before: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const t = argv[i]!;
    if (!t.startsWith('-') || t === '-') break;
    if (t === '--') {
      // `brow -- cmd`: the command follows
      i++;
      break;
    }
    if (t === '-h' || t === '-V') {
      before.push(t);
      continue;
    }
    const name = t.replace(/^--?/, '').split('=')[0]!;
    if (name === 'version') {
      before.push(t);
      continue;
    }
    if (!(GLOBAL_FLAGS as readonly string[]).includes(name)) {
      throw new UsageError(`brow has no global flag ${t.split('=')[0]}.`, {
        hint: "Global flags are --json, --session NAME, --idle-timeout DUR, --config FILE, --input-json JSON, --help and --version; a command's own flags go after it (brow <command> --help).",
      });
    }
    before.push(t);
    if (VALUE_FLAGS.includes(name) && !t.includes('=')) {
      const v = argv[i + 1];
      if (v === undefined) {
        throw new UsageError(`--${name} needs a value.`, {
          hint: `For example brow --${name} VALUE list-pages.`,
        });
      }
      before.push(v);
      i++;
    }
  }
  const command = argv[i];
  return { command, rest: [...before, ...argv.slice(i + 1)], leading: before };
}

/**
 * `brow snapshot`, as agent-browser users type it: browser_list_elements with the whole page
 * (scope full); `-i` only the interactive elements (scope interactive); `-c` the compact outline
 * form (format outline: `- role "name" [ref=eN]`, no states or values); `-d N` only lines at most N
 * levels deep (--depth N). Every list-elements flag works too.
 */
export function snapshotArgs(argv: string[]): string[] {
  const out: string[] = [];
  let scope = false;
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (rest || t === '--') {
      rest = true;
      out.push(t);
      continue;
    }
    // -ic = -i -c
    const shorts =
      /^-[ic]*(d(=?\d+)?)?$/.test(t) && t.length > 1 ? [...t.slice(1).replace(/d.*$/, 'd')] : null;
    if (!shorts) {
      if (/^--(scope|ref)(=|$)/.test(t)) scope = true;
      out.push(t);
      continue;
    }
    for (const c of shorts) {
      if (c === 'i') {
        out.push('--scope', 'interactive');
        scope = true;
      } else if (c === 'c') out.push('--format', 'outline');
      else {
        // -d N, -dN, -d=N
        const inline = t.slice(t.indexOf('d') + 1).replace(/^=/, '');
        const n = c === shorts[shorts.length - 1] && inline === '' ? argv[++i] : inline;
        if (n === undefined || !/^\d+$/.test(n)) {
          throw new UsageError(`brow snapshot -d needs a number of levels, got ${n ?? 'nothing'}.`, {
            hint: 'For example brow snapshot -i -d 2 (0 = the top level only).',
          });
        }
        out.push('--depth', n);
        break;
      }
    }
  }
  return scope ? out : ['--scope', 'full', ...out];
}

const SNAPSHOT_HELP = `Usage: brow snapshot [-i] [-c] [-d N] [list-elements flags]

brow list-elements under the name agent-browser users know: the whole page (--scope full) with refs;
  -i   interactive elements only (--scope interactive, what brow list-elements lists by default)
  -c   compact: the outline form (--format outline: \`- role "name" [ref=eN]\`, no states or values)
  -d N only lines at most N levels deep in the listing (--depth N; 0 = the top level)
Refs may be written @e1 wherever a command takes one: brow click @e1.
`;

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
  const notice: StartNotice = {
    starting: () => {
      const t0 = Date.now();
      io.err(`brow: starting the daemon and Chromium for session "${target.profile}"…`);
      return (ok) => io.err(ok ? ` ready (${((Date.now() - t0) / 1000).toFixed(1)} s)\n` : ' failed\n');
    },
  };
  const status = progressPrinter(io, spec.capability.group === 'live');
  const { outcome, warnings } = await invokeViaDaemon(
    target,
    spec.capability.name,
    absolutePaths(input, process.cwd()),
    notice,
    status.show,
  ).finally(status.end);
  for (const w of warnings) io.err(`${w}\n`);
  return printOutcome(forCli(outcome), globals.json, io);
}

/**
 * How a long call's progress shows on stderr: a call that needs a person prints its first message
 * whole, once (it says where the person should go); on a terminal a status line is then rewritten in
 * place, cut to the terminal's width.
 */
function progressPrinter(
  io: Streams,
  person: boolean,
): { show: (p: DaemonProgress) => void; end: () => void } {
  let announced = false;
  let width = 0;
  const tty = io.errIsTty === true;
  return {
    show: (p) => {
      const text = renderHint(p.message ?? `${p.done}${p.total ? ` of ${p.total}` : ''}`, 'cli');
      if (person && !announced) {
        announced = true;
        io.err(`brow: ${text}\n`);
        return;
      }
      if (!tty) return;
      const cols = Math.max(20, (process.stderr.columns || 100) - 1);
      const line = text.length > cols ? `${text.slice(0, cols - 1)}…` : text;
      io.err(`\r${line.padEnd(width)}`);
      width = line.length;
    },
    end: () => {
      if (width > 0) io.err(`\r${' '.repeat(width)}\r`);
    },
  };
}

/** An answer as the CLI gives it: tools named in its text and hint are written as brow commands. */
export function forCli(o: Outcome): Outcome {
  const content = renderHint(o.content, 'cli');
  if (o.ok) return { ...o, content };
  const data = { ...o.data, message: renderHint(o.data.message, 'cli') };
  if (typeof o.data.hint === 'string') data.hint = renderHint(o.data.hint, 'cli');
  return { ...o, content, data };
}

/** The outcome for an error thrown before or around a call. */
function outcomeOf(e: unknown): Outcome {
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
