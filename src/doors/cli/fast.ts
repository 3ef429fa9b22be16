/**
 * The quick client: a capability command for a daemon that is already running, without loading the
 * registry, zod or the rest of the CLI. What it needs of the capabilities (each command's fields, the
 * tool → command table) comes from dist/doors/cli/commands.json, which the build writes from the same
 * code the full CLI runs (`node scripts/build.mjs`); the daemon checks the input as the full CLI
 * would; `brow --version` is answered here too. Anything else (help, builtins, an unknown command, no daemon yet, a missing manifest)
 * returns null and bin/brow.js runs the full CLI, which answers exactly as before.
 */
import { readFileSync } from 'node:fs';
import { failure } from '../../runtime/outcome.js';
import { DaemonUnreachable } from './daemon-client.js';
import type { FieldSpec } from './flags.js';
import { printOutcome, stdio, type Streams } from './output.js';
import { NotRunning, runCommand, snapshotArgs, splitCommand, type RunSpec } from './run.js';
import { UsageError } from './usage-error.js';

/** dist/doors/cli/commands.json. */
export interface CommandManifest {
  /** Builtin command names (serve, mcp, …): never run here. */
  builtins: string[];
  /** Capability name → how the CLI calls it (`brow open-page`), as renderHint(…, 'cli') writes it. */
  names: [string, string][];
  commands: { command: string; name: string; group: string; fields: FieldSpec[] }[];
}

function readManifest(): CommandManifest | null {
  try {
    return JSON.parse(readFileSync(new URL('./commands.json', import.meta.url), 'utf8')) as CommandManifest;
  } catch {
    return null;
  }
}

const TOOL_NAME = /\bbrowser_[a-z][a-z0-9_]*\b/g;

/** Run the command line here when it is a capability command and its daemon runs; null: the full CLI runs it. */
export async function fastMain(argv: string[], io: Streams = stdio): Promise<number | null> {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--')) return null;
  let split: ReturnType<typeof splitCommand>;
  try {
    split = splitCommand(argv);
  } catch {
    return null;
  }
  const { command, rest, leading } = split;
  if (leading.includes('--version') || leading.includes('-V') || command === 'version') {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    io.out(`${pkg.version}\n`);
    return 0;
  }
  const manifest = readManifest();
  if (!manifest) return null;
  if (!command || command === 'help' || command === 'version' || manifest.builtins.includes(command))
    return null;
  const row = manifest.commands.find(
    (c) => c.command === (command === 'snapshot' ? 'list-elements' : command),
  );
  if (!row) return null;
  const names = new Map(manifest.names);
  const render = (text: string) => (text ? text.replace(TOOL_NAME, (w) => names.get(w) ?? w) : text);
  const spec: RunSpec = row;
  try {
    return await runCommand(spec, command === 'snapshot' ? snapshotArgs(rest) : rest, io, {
      render,
      // --help=… and the like: the full CLI prints the help
      help: () => {
        throw new NotRunning();
      },
      onlyIfRunning: true,
    });
  } catch (e) {
    if (e instanceof NotRunning) return null;
    if (e instanceof UsageError) return printOutcome(e.toOutcome(), argv.includes('--json'), io);
    if (e instanceof DaemonUnreachable) {
      const hint =
        'Run `brow daemon status`, read the log beside its socket, or `brow daemon stop` and try again.';
      return printOutcome(failure('connection_failed', e.message, hint), argv.includes('--json'), io);
    }
    // anything else is rare: the full CLI's own translation of it
    const { outcomeOf } = await import('./main.js');
    return printOutcome(outcomeOf(e), argv.includes('--json'), io);
  }
}
