/** `brow --help` and `brow <command> --help`, generated from the registry so they cannot drift. */
import { valueHint, usageLine } from './argv.js';
import { capabilityCommands, type CommandSpec, type FieldSpec } from './commands.js';

export const GLOBAL_HELP: [string, string][] = [
  [
    '--json',
    'print the {ok, content, data} answer as the HTTP tool API gives it (tools it names written as brow commands)',
  ],
  [
    '--session NAME',
    'daemon profile to use (default "default"; env BROW_SESSION): one daemon and browser each',
  ],
  ['--idle-timeout DUR', 'a daemon started by this command exits after DUR without commands (default 30m)'],
  ['--config FILE', 'configuration file (default ./brow.config.json; env BROW_CONFIG)'],
  ['--input-json JSON', 'the whole input as a JSON object; flags and arguments override its fields'],
  ['--help, -h', 'this help'],
];

/** Only before a command (or alone). */
const VERSION_HELP: [string, string] = ['--version, -V', 'the version of brow'];

const WIDTH = 100;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

/** Two columns: the left padded, the right wrapped under itself. */
export function columns(rows: [string, string][], indent = 2): string {
  const left = Math.min(Math.max(...rows.map(([l]) => l.length)) + 2, 44);
  const pad = (n: number) => ' '.repeat(n);
  return rows
    .map(([l, r]) => {
      const [first = '', ...more] = wrap(r, WIDTH - indent - left);
      const head =
        l.length + 2 > left
          ? [`${pad(indent)}${l}`, `${pad(indent + left)}${first}`]
          : [`${pad(indent)}${l.padEnd(left)}${first}`];
      return [...head, ...more.map((m) => `${pad(indent + left)}${m}`)].join('\n');
    })
    .join('\n');
}

function firstSentence(text: string): string {
  const m = /^(.*?)\.(\s|$)/.exec(text);
  return m ? m[1]! : text;
}

/** `brow --help`: the capability commands grouped as the registry groups them, then the builtins. */
export function mainHelp(builtins: [string, string][]): string {
  const groups = new Map<string, CommandSpec[]>();
  for (const spec of capabilityCommands().values()) {
    if (spec.command === 'doctor') continue; // the builtin `doctor` is this capability, run without a daemon
    const g = groups.get(spec.capability.group) ?? [];
    g.push(spec);
    groups.set(spec.capability.group, g);
  }
  const sections = [...groups].map(
    ([group, specs]) =>
      `${group}:\n${columns(specs.map((s) => [s.command, firstSentence(s.capability.description)]))}`,
  );
  return [
    'brow — real Chromium sessions as data for AI agents',
    '',
    'Usage: brow [global flags] <command> [arguments] [--flags]   (global flags go before or after the command)',
    '',
    'Browser commands (a local daemon keeps the browser open between them; the last page used is the default):',
    '',
    ...sections.map((s) => `${s}\n`),
    'Other commands:',
    columns([
      ...builtins.map(([c, d]): [string, string] => [`brow ${c}`, d]),
      [
        'brow snapshot [-i] [-c]',
        'list-elements as agent-browser users type it: the whole page; -i interactive only, -c compact outline',
      ],
    ]),
    '',
    'Flags every browser command takes (anywhere on the line; refs may be written @e1):',
    columns([...GLOBAL_HELP, VERSION_HELP]),
    '',
    'Run `brow <command> --help` for its arguments and flags. Exit codes: 0 ok, 2 invalid request, 3 ref problem,',
    '4 page/session gone, 5 navigation failed, 6 not allowed, 7 timeout, 8 dialog/handoff, 9 limit, 10 unavailable,',
    '11 browser crashed or unreachable, 1 other failure.',
    '',
  ].join('\n');
}

function fieldLine(f: FieldSpec): [string, string] {
  const v = valueHint(f);
  const left = f.positional !== null ? f.name.toUpperCase() : v ? `--${f.flag} ${v}` : `--[no-]${f.flag}`;
  const notes: string[] = [];
  if (f.required && f.positional === null) notes.push('required');
  if (f.default !== undefined) notes.push(`default ${JSON.stringify(f.default)}`);
  if (f.types.includes('array') && f.positional === null)
    notes.push('repeat the flag for several, or give a JSON array');
  if (f.positional !== null && f.types.includes('array')) notes.push('one or more');
  const extra = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return [left, `${f.description || f.name}${extra}`];
}

/** `brow <command> --help`: usage, the capability's description, arguments, flags. */
export function commandHelp(spec: CommandSpec): string {
  const pos = spec.fields.filter((f) => f.positional !== null).sort((a, b) => a.positional! - b.positional!);
  const flags = spec.fields.filter((f) => f.positional === null);
  const c = spec.capability;
  return [
    `Usage: ${usageLine(spec.command, spec.fields)}`,
    '',
    ...wrap(c.description, WIDTH),
    `(capability ${c.name}, group ${c.group}${c.annotations.readOnly ? ', read-only' : ''})`,
    '',
    ...(pos.length > 0 ? ['Arguments:', columns(pos.map(fieldLine)), ''] : []),
    ...(flags.length > 0 ? ['Flags:', columns(flags.map(fieldLine)), ''] : []),
    'Global flags:',
    columns(GLOBAL_HELP),
    '',
  ].join('\n');
}
