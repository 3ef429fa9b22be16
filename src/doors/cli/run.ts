/**
 * Running a capability command, shared by the full CLI (main.ts) and the quick client (fast.ts): split
 * the line, parse the flags, call the daemon, print the answer. Nothing here loads the registry or zod.
 */
import type { Outcome } from '../../runtime/outcome.js';
import { absolutePaths, parseArgs } from './argv.js';
import { invokeViaDaemon, type DaemonProgress, type StartNotice } from './daemon-client.js';
import { probe } from './daemon.js';
import { GLOBAL_FLAGS, VALUE_FLAGS, type FieldSpec } from './flags.js';
import { printOutcome, type Streams } from './output.js';
import { checkProfile, parseDuration, profilePaths } from './runtime-dir.js';
import { UsageError } from './usage-error.js';

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

/** What running a capability command needs to know of it (a CommandSpec, or the quick client's manifest row). */
export interface RunSpec {
  command: string;
  /** The capability's name (browser_open_page). */
  name: string;
  group: string;
  fields: FieldSpec[];
}

export interface RunOptions {
  /** Tool names in text → brow commands. */
  render: (text: string) => string;
  /** The command's help text (for --help). */
  help: () => string;
  /** Validate the input here (throws UsageError); without it the daemon validates it the same way (`cli` request). */
  check?: (input: Record<string, unknown>) => void;
  /** Only with a daemon already running: otherwise throw NotRunning (the quick client hands over). */
  onlyIfRunning?: boolean;
}

/** The quick client met something it leaves to the full one (no daemon running yet). */
export class NotRunning extends Error {}

/** The daemon profile a command means: --session, else BROW_SESSION, else "default". */
export function profileOf(session: string | undefined): string {
  return checkProfile(session ?? process.env.BROW_SESSION ?? 'default');
}

/** Run one capability command through the profile's daemon. */
export async function runCommand(
  spec: RunSpec,
  argv: string[],
  io: Streams,
  opts: RunOptions,
): Promise<number> {
  const { globals, input } = parseArgs(spec.command, spec.fields, argv);
  if (globals.help) {
    io.out(opts.help());
    return 0;
  }
  opts.check?.(input);
  const target = {
    profile: profileOf(globals.session),
    configFile: globals.config ?? process.env.BROW_CONFIG,
    ...(globals.idleTimeout ? { idleMs: parseDuration(globals.idleTimeout) } : {}),
  };
  if (opts.onlyIfRunning && !(await probe(profilePaths(target.profile).socket))) throw new NotRunning();
  const notice: StartNotice = {
    starting: () => {
      const t0 = Date.now();
      io.err(`brow: starting the daemon and Chromium for session "${target.profile}"…`);
      return (ok) => io.err(ok ? ` ready (${((Date.now() - t0) / 1000).toFixed(1)} s)\n` : ' failed\n');
    },
  };
  const status = progressPrinter(io, spec.group === 'live', opts.render);
  const { outcome, warnings } = await invokeViaDaemon(
    target,
    spec.name,
    absolutePaths(input, process.cwd()),
    notice,
    status.show,
    opts.check ? undefined : spec.command,
  ).finally(status.end);
  for (const w of warnings) io.err(`${w}\n`);
  return printOutcome(forCliWith(outcome, opts.render), globals.json, io);
}

/**
 * How a long call's progress shows on stderr: a call that needs a person prints its first message
 * whole, once (it says where the person should go); on a terminal a status line is then rewritten in
 * place, cut to the terminal's width.
 */
function progressPrinter(
  io: Streams,
  person: boolean,
  render: (text: string) => string,
): { show: (p: DaemonProgress) => void; end: () => void } {
  let announced = false;
  let width = 0;
  const tty = io.errIsTty === true;
  return {
    show: (p) => {
      const text = render(p.message ?? `${p.done}${p.total ? ` of ${p.total}` : ''}`);
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

/**
 * An answer as the CLI gives it: tools named in its text and hint are written as brow commands
 * (`render`: renderHint for the CLI, or the quick client's copy of its table).
 */
export function forCliWith(o: Outcome, render: (text: string) => string): Outcome {
  const content = render(o.content);
  if (o.ok) return { ...o, content };
  const data = { ...o.data, message: render(o.data.message) };
  if (typeof o.data.hint === 'string') data.hint = render(o.data.hint);
  return { ...o, content, data };
}
