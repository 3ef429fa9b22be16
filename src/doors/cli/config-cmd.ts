/**
 * Configuration on the command line: `--config FILE` and a `--kebab-key` flag for every configuration
 * key (serve, mcp, worker, daemon, doctor and config take them), and `brow config`, which shows the
 * effective value of each key and where it came from.
 */
import { configSchema, loadConfig, type BrowConfigInput, type LoadedConfig } from '../../runtime/config.js';
import { fieldValue } from './argv.js';
import { columns } from './help.js';
import { fieldSpecs, type FieldSpec } from './commands.js';
import type { Streams } from './output.js';
import { UsageError } from './usage-error.js';

let specs: FieldSpec[] | null = null;
/** One flag per configuration key, from the configuration schema. */
export function configFields(): FieldSpec[] {
  specs ??= fieldSpecs(configSchema);
  return specs;
}

export interface ConfigArgs {
  /** The value of --config, if given. */
  file: string | undefined;
  flags: BrowConfigInput;
  /** argv without --config and the configuration flags. */
  rest: string[];
}

/** Take `--config FILE` and the configuration flags out of argv; the rest is the command's own. */
export function extractConfigArgs(argv: string[]): ConfigArgs {
  const byFlag = new Map(configFields().map((f) => [f.flag, f]));
  const tokens = new Map<FieldSpec, string[]>();
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    const eq = t.indexOf('=');
    const name = t.startsWith('--') ? (eq > 0 ? t.slice(2, eq) : t.slice(2)) : '';
    const inline = eq > 0 ? t.slice(eq + 1) : undefined;
    const take = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined)
        throw new UsageError(`--${name} needs a value.`, { hint: 'See brow config --help.' });
      return next;
    };
    if (t === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (name === 'config') {
      file = take();
      continue;
    }
    const f = byFlag.get(name);
    const neg = !f && name.startsWith('no-') ? byFlag.get(name.slice(3)) : undefined;
    const isBool = (x: FieldSpec) => x.types.length === 1 && x.types[0] === 'boolean';
    if (neg && isBool(neg)) tokens.set(neg, ['false']);
    else if (f && isBool(f)) tokens.set(f, [inline ?? 'true']);
    else if (f) tokens.set(f, [...(tokens.get(f) ?? []), take()]);
    else rest.push(t);
  }
  const flags: Record<string, unknown> = {};
  for (const [f, v] of tokens) flags[f.name] = fieldValue(f, v);
  return { file, flags: flags as BrowConfigInput, rest };
}

/** loadConfig with the command line's --config and configuration flags. */
export function loadFromArgs(args: ConfigArgs): LoadedConfig {
  return loadConfig({ file: args.file ?? null, flags: args.flags, env: process.env });
}

export const configHelp = (): string => `Usage: brow config [--config FILE] [--<key> VALUE …] [--json]

Prints the effective configuration: defaults < brow.config.json (or --config FILE, or BROW_CONFIG)
< BROW_<KEY> environment variables < flags. Every key below is also a flag of serve, mcp, worker,
daemon, doctor and config (e.g. --max-sessions 8, --no-headless, --allowed-schemes '["http","https","file"]').

Keys:
${columns(configFields().map((f) => [`--${f.flag}`, `${f.description} (default ${JSON.stringify(f.default)})`]))}
`;

/** `brow config`: each key's value and source, or {config, sources, file} with --json. */
export function configCommand(argv: string[], io: Streams): number {
  const args = extractConfigArgs(argv);
  const json = args.rest.includes('--json');
  if (args.rest.includes('--help') || args.rest.includes('-h')) {
    io.out(configHelp());
    return 0;
  }
  const unknown = args.rest.filter((a) => a !== '--json');
  if (unknown.length > 0) {
    throw new UsageError(`brow config does not take ${unknown.join(' ')}.`, {
      hint: 'Configuration flags are the keys listed by brow config --help, e.g. --max-sessions 8.',
    });
  }
  const loaded = loadFromArgs(args);
  if (json) {
    io.out(`${JSON.stringify(loaded, null, 2)}\n`);
    return 0;
  }
  const rows = Object.entries(loaded.config).map(([k, v]): [string, string] => {
    const source = loaded.sources[k as keyof typeof loaded.sources];
    const envName =
      k === 'executable' && !process.env.BROW_EXECUTABLE ? 'BROW_CHROME' : `BROW_${k.toUpperCase()}`;
    const where = source === 'file' ? `file ${loaded.file}` : source === 'env' ? `env ${envName}` : source;
    return [k, `${JSON.stringify(v)}  (${where})`];
  });
  io.out(`Configuration file: ${loaded.file ?? '(none)'}\n${columns(rows, 0)}\n`);
  return 0;
}
