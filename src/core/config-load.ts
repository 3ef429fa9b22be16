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

/** Read a config file (JSON); a missing explicit file or a bad key is an error naming it. */
export function configFromFile(
  path: string | null,
  explicit: boolean,
): { input: BrowConfigInput; file: string | null } {
  const file = path ?? (existsSync('brow.config.json') ? 'brow.config.json' : null);
  if (!file) return { input: {}, file: null };
  const abs = resolve(file);
  if (!existsSync(abs)) {
    if (explicit) throw new BrowserError('invalid_request', `Config file ${abs} does not exist.`);
    return { input: {}, file: null };
  }
  try {
    return { input: JSON.parse(readFileSync(abs, 'utf8')) as BrowConfigInput, file: abs };
  } catch (e) {
    throw new BrowserError('invalid_request', `Config file ${abs} is not valid JSON: ${String(e)}`);
  }
}

function validate(input: Record<string, unknown>, origin: string): void {
  const r = configSchema.safeParse(input);
  if (r.success) return;
  const msgs = r.error.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown key(s) ${i.keys.map((k) => `"${k}"`).join(', ')}`
      : `"${i.path.join('.')}": ${i.message}`,
  );
  throw new BrowserError('invalid_request', `Invalid configuration in ${origin}: ${msgs.join('; ')}.`, {
    hint: `Known keys: ${KEYS.join(', ')}.`,
  });
}

/** Merge defaults, file, environment and flags; validate each layer so errors name their source. */
export function loadConfig(
  opts: { file?: string | null; flags?: BrowConfigInput; env?: NodeJS.ProcessEnv } = {},
): LoadedConfig {
  const fromFile = configFromFile(
    opts.file ?? process.env.BROW_CONFIG ?? null,
    !!(opts.file ?? process.env.BROW_CONFIG),
  );
  const fromEnv = configFromEnv(opts.env ?? process.env);
  const flags = opts.flags ?? {};
  if (fromFile.file) validate(fromFile.input as Record<string, unknown>, fromFile.file);
  validate(fromEnv as Record<string, unknown>, 'BROW_* environment variables');
  validate(flags as Record<string, unknown>, 'command-line flags');
  const merged = { ...fromFile.input, ...fromEnv, ...flags };
  const config = configSchema.parse(merged);
  const sources = {} as Record<keyof BrowConfig, ConfigSource>;
  for (const k of KEYS) {
    sources[k] = k in flags ? 'flag' : k in fromEnv ? 'env' : k in fromFile.input ? 'file' : 'default';
  }
  return { config, sources, file: fromFile.file };
}
