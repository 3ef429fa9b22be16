/** `brow completion bash|zsh|fish`: command and flag completion generated from the registry. */
import { capabilityCommands, GLOBAL_FLAGS } from './commands.js';
import { configFields } from './config-cmd.js';
import { UsageError } from './usage-error.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Completable {
  command: string;
  description: string;
  /** Words after the command: flags (`--x`) and subcommands (`start`). */
  words: string[];
}

/** Every command with the words that may follow it; the same table for every shell. */
function completables(builtins: string[]): Completable[] {
  const globals = GLOBAL_FLAGS.map((f) => `--${f}`);
  const configFlags = configFields().map((f) => `--${f.flag}`);
  const caps = [...capabilityCommands().values()].map((spec) => ({
    command: spec.command,
    description: /^(.*?)(\.\s|$)/.exec(spec.capability.description)?.[1] ?? spec.capability.title,
    words: [
      ...spec.fields.flatMap((f) =>
        f.types.length === 1 && f.types[0] === 'boolean'
          ? [`--${f.flag}`, `--no-${f.flag}`]
          : [`--${f.flag}`],
      ),
      ...globals,
    ],
  }));
  const list = capabilityCommands().get('list-elements');
  const own: Record<string, Omit<Completable, 'command'>> = {
    snapshot: {
      description: 'list-elements as agent-browser users type it (-i interactive, -c compact)',
      words: ['-i', '-c', ...(list ? caps.find((c) => c.command === 'list-elements')!.words : globals)],
    },
    daemon: {
      description: "the background process that keeps a profile's browser open",
      words: ['start', 'status', 'stop', '--session', '--idle-timeout', '--json', '--config', ...configFlags],
    },
    serve: {
      description: 'HTTP tool API and MCP over HTTP',
      words: ['--port', '--host', '--token', '--demo', '--caps', '--config', ...configFlags],
    },
    completion: { description: 'shell completion', words: [...SHELLS] },
    help: { description: 'help for a command', words: caps.map((c) => c.command) },
  };
  const rest = [...new Set([...builtins, 'snapshot', 'help'])].map((command) => ({
    command,
    description: own[command]?.description ?? command,
    words: own[command]?.words ?? ['--config', '--json', ...configFlags],
  }));
  return [...caps, ...rest];
}

const words = (w: string[]) => [...new Set(w)].join(' ');
/** A single-quoted shell word. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The bash script: one case per command listing its flags. */
export function bashCompletion(builtins: string[]): string {
  const all = completables(builtins);
  const cases = all.map((c) => `    ${c.command}) flags="${words(c.words)}" ;;`);
  return `# bash completion for brow: eval "$(brow completion bash)"
_brow() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="" flags="" i
  # the command is the first word that is not a flag (global flags may come first: brow --session x open-page)
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --session|--idle-timeout|--config|--input-json) ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [ -z "$cmd" ]; then
    COMPREPLY=( $(compgen -W "${words(all.map((c) => c.command))} ${words(GLOBAL_FLAGS.map((f) => `--${f}`))} --version" -- "$cur") )
    return
  fi
  case "$cmd" in
${cases.join('\n')}
  esac
  COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
}
complete -o default -F _brow brow
`;
}

/** The zsh script: commands with their descriptions, then each command's flags; files otherwise. */
export function zshCompletion(builtins: string[]): string {
  const all = completables(builtins);
  const described = all.map((c) => `    ${sq(`${c.command}:${c.description.replace(/:/g, '\\:')}`)}`);
  const cases = all.map((c) => `    ${c.command}) flags=(${c.words.map(sq).join(' ')}) ;;`);
  return `#compdef brow
# zsh completion for brow: source <(brow completion zsh) in ~/.zshrc (after compinit),
# or save it as _brow in a folder of $fpath.
_brow() {
  local -a commands flags
  local cmd="" i
  commands=(
${described.join('\n')}
  )
  for ((i = 2; i < CURRENT; i++)); do
    case "\${words[i]}" in
      --session|--idle-timeout|--config|--input-json) ((i++)) ;;
      -*) ;;
      *) cmd="\${words[i]}"; break ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    if [[ "\${words[CURRENT]}" == -* ]]; then
      compadd -- ${GLOBAL_FLAGS.map((f) => `--${f}`).join(' ')} --version
    else
      _describe -t commands 'brow command' commands
    fi
    return
  fi
  case "$cmd" in
${cases.join('\n')}
  esac
  if [[ "\${words[CURRENT]}" == -* || "$cmd" == (daemon|completion|help) ]]; then
    compadd -- "\${flags[@]}"
  else
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _brow "$@"
else
  compdef _brow brow
fi
`;
}

/** The fish script: `complete` lines, commands while none is given, then each command's flags. */
export function fishCompletion(builtins: string[]): string {
  const all = completables(builtins);
  const names = all.map((c) => c.command).join(' ');
  const lines = [
    '# fish completion for brow: brow completion fish | source (or save it as ~/.config/fish/completions/brow.fish)',
    ...GLOBAL_FLAGS.map((f) => `complete -c brow -l ${f}`),
    'complete -c brow -s V -l version -d "print the version"',
    ...all.map(
      (c) =>
        `complete -c brow -f -n "not __fish_seen_subcommand_from ${names}" -a ${c.command} -d ${sq(c.description)}`,
    ),
    ...all.flatMap((c) => {
      const flags = c.words.filter((w) => w.startsWith('--')).map((w) => w.slice(2));
      const subs = c.words.filter((w) => !w.startsWith('-'));
      const when = `-n "__fish_seen_subcommand_from ${c.command}"`;
      return [
        ...flags.map((f) => `complete -c brow ${when} -l ${f}`),
        ...(subs.length > 0 ? [`complete -c brow ${when} -a ${sq(subs.join(' '))}`] : []),
        ...(c.words.includes('-i') ? [`complete -c brow ${when} -s i -s c`] : []),
      ];
    }),
    '',
  ];
  return lines.join('\n');
}

export function completionCommand(argv: string[], builtins: string[], out: (s: string) => void): number {
  const shell = argv.find((a) => !a.startsWith('-')) ?? 'bash';
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`No completion for "${shell}".`, { hint: 'Use brow completion bash, zsh or fish.' });
  }
  const make = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }[shell as Shell];
  out(make(builtins));
  return 0;
}
