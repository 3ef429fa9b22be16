/**
 * Where configuration comes from: defaults < brow.config.json < BROW_* environment < flags.
 * `explainConfig` says where each value came from, for `brow config`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { configSchema, type BrowConfig, type BrowConfigInput } from './config.js';
import { BrowserError } from './errors.js';

export type ConfigSource = 'default' | 'file' | 'env' | 'flag';

export interface LoadedConfig {
  config: BrowConfig;
  sources: Record<keyof BrowConfig, ConfigSource>;
  file: string | null;
}

const KEYS = Object.keys(configSchema.shape) as (keyof BrowConfig)[];

/** BROW_MAX_SESSIONS=8 → {max_sessions: 8}; values parse as JSON when they can (numbers, booleans, arrays). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BrowConfigInput {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const v = env[`BROW_${key.toUpperCase()}`];
    if (v === undefined || v === '') continue;
    const shape = configSchema.shape[key];
    const isString = shape.unwrap?.() instanceof z.ZodString || shape instanceof z.ZodString;
    if (isString) out[key] = v;
    else if (key === 'allowed_schemes' && !v.trim().startsWith('['))
      out[key] = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else {
      try {
        out[key] = JSON.parse(v);
      } catch {
        out[key] = v;
      }
    }
  }
  // BROW_CHROME is the well-known name for the executable
  if (env.BROW_CHROME && out.executable === undefined) out.executable = env.BROW_CHROME;
  return out as BrowConfigInput;
}

/** What to do about a bad file, naming it. */
const fileHint = (abs: string, what: string): string =>
  `${what} ${abs}, or point --config (BROW_CONFIG) at another file; it holds one JSON object of configuration keys, e.g. {"max_sessions": 8}.`;

function configError(message: string, hint: string, file: string | null, cause?: unknown): BrowserError {
  return new BrowserError('invalid_config', message, {
    hint,
    details: file ? { file } : {},
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Read a config file (JSON). A missing explicit file, an unreadable one, bad JSON or something other
 * than an object is an `invalid_config` BrowserError whose message and hint name the file.
 */
export function configFromFile(
  path: string | null,
  explicit: boolean,
): { input: BrowConfigInput; file: string | null } {
  const file = path ?? (existsSync('brow.config.json') ? 'brow.config.json' : null);
  if (!file) return { input: {}, file: null };
  const abs = resolve(file);
  if (!existsSync(abs)) {
    if (explicit) throw configError(`Config file ${abs} does not exist.`, fileHint(abs, 'Create'), abs);
    return { input: {}, file: null };
  }
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? 'is a directory'
        : code === 'EACCES'
          ? 'is not readable (permission denied)'
          : `cannot be read (${code ?? String(e)})`;
    throw configError(`Config file ${abs} ${why}.`, fileHint(abs, 'Make readable'), abs, e);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (e) {
    const detail = text.trim() ? (e instanceof Error ? e.message : String(e)) : 'the file is empty';
    throw configError(
      `Config file ${abs} is not valid JSON: ${detail}.`,
      fileHint(abs, 'Fix the JSON in'),
      abs,
      e,
    );
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
    throw configError(
      `Config file ${abs} holds ${kind}, not a JSON object of configuration keys.`,
      fileHint(abs, 'Fix'),
      abs,
    );
  }
  return { input: input as BrowConfigInput, file: abs };
}

/** Where a layer came from, for messages: the file's absolute path, or the environment, or the flags. */
type Origin = { file: string } | { label: string };

function validate(input: Record<string, unknown>, origin: Origin): void {
  const r = configSchema.safeParse(input);
  if (r.success) return;
  const msgs = r.error.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown key(s) ${i.keys.map((k) => `"${k}"`).join(', ')}`
      : `"${i.path.join('.')}": ${i.message}`,
  );
  const where = 'file' in origin ? origin.file : origin.label;
  const known = `Known keys: ${KEYS.join(', ')}.`;
  throw configError(
    `Invalid configuration in ${where}: ${msgs.join('; ')}.`,
    'file' in origin
      ? `Fix the named key(s) in ${origin.file}. ${known}`
      : `Fix the named key(s) in the ${origin.label}. ${known}`,
    'file' in origin ? origin.file : null,
  );
}

/**
 * Merge defaults, file, environment and flags; validate each layer so errors name their source.
 * Every failure is a BrowserError with code `invalid_config` (a file's failures carry `details.file`).
 */
export function loadConfig(
  opts: { file?: string | null; flags?: BrowConfigInput; env?: NodeJS.ProcessEnv } = {},
): LoadedConfig {
  const env = opts.env ?? process.env;
  const path = opts.file || env.BROW_CONFIG || null;
  const fromFile = configFromFile(path, path !== null);
  const fromEnv = configFromEnv(env);
  const flags = opts.flags ?? {};
  if (fromFile.file) validate(fromFile.input as Record<string, unknown>, { file: fromFile.file });
  validate(fromEnv as Record<string, unknown>, { label: 'BROW_* environment variables' });
  validate(flags as Record<string, unknown>, { label: 'command-line flags' });
  const merged = { ...fromFile.input, ...fromEnv, ...flags };
  // each layer is valid on its own; a rule that only the merged layers break still answers invalid_config
  validate(merged as Record<string, unknown>, { label: 'configuration (file, BROW_* and flags together)' });
  const config = configSchema.parse(merged);
  const sources = {} as Record<keyof BrowConfig, ConfigSource>;
  for (const k of KEYS) {
    sources[k] = k in flags ? 'flag' : k in fromEnv ? 'env' : k in fromFile.input ? 'file' : 'default';
  }
  return { config, sources, file: fromFile.file };
}
