/** `brow completion bash`: command and flag completion generated from the registry. */
import { capabilityCommands, GLOBAL_FLAGS } from './commands.js';
import { configFields } from './config-cmd.js';
import { UsageError } from './usage-error.js';

/** The bash script: one case per command listing its flags. */
export function bashCompletion(builtins: string[]): string {
  const globals = GLOBAL_FLAGS.map((f) => `--${f}`).join(' ');
  const configFlags = configFields()
    .map((f) => `--${f.flag}`)
    .join(' ');
  const cases = [...capabilityCommands().values()].map((spec) => {
    const flags = spec.fields.flatMap((f) =>
      f.types.length === 1 && f.types[0] === 'boolean' ? [`--${f.flag}`, `--no-${f.flag}`] : [`--${f.flag}`],
    );
    return `    ${spec.command}) flags="${[...flags, globals].join(' ')}" ;;`;
  });
  const commands = [...new Set([...capabilityCommands().keys(), ...builtins, 'help'])].join(' ');
  return `# bash completion for brow: eval "$(brow completion bash)"
_brow() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" flags=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands}" -- "$cur") )
    return
  fi
  case "$cmd" in
${cases.join('\n')}
    daemon) flags="start status stop --session --idle-timeout --json ${configFlags} --config" ;;
    serve) flags="--port --host --token --demo --caps --shared-sessions --config ${configFlags}" ;;
    mcp|worker|doctor|config) flags="--config --json ${configFlags}" ;;
    completion) flags="bash" ;;
  esac
  COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
}
complete -o default -F _brow brow
`;
}

export function completionCommand(argv: string[], builtins: string[], out: (s: string) => void): number {
  const shell = argv[0] ?? 'bash';
  if (shell !== 'bash') {
    throw new UsageError(`No completion for "${shell}" yet.`, { hint: 'Use brow completion bash.' });
  }
  out(bashCompletion(builtins));
  return 0;
}
