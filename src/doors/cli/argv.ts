/**
 * argv → capability input, from the field specs: positionals in the capability's order, `--kebab-flag`
 * for every other field, `--flag`/`--no-flag` for booleans, numbers parsed, arrays by repeating the flag
 * (or as JSON), objects as JSON. Every mistake is a UsageError (invalid_request) naming the fix.
 */
import { resolve } from 'node:path';
import type { z } from 'zod';
import { GLOBAL_FLAGS, type FieldSpec } from './flags.js';
import { nearest } from '../../runtime/near.js';
import { UsageError } from './usage-error.js';

export interface GlobalOptions {
  json: boolean;
  help: boolean;
  session?: string;
  idleTimeout?: string;
  config?: string;
  inputJson?: string;
}

export interface ParsedArgs {
  globals: GlobalOptions;
  input: Record<string, unknown>;
}

const metavar = (f: FieldSpec): string => f.name.toUpperCase();

/** How a field's value is written on the command line, for usage lines and help. */
export function valueHint(f: FieldSpec): string {
  const enumText = f.enum && f.enum.length <= 8 ? f.enum.map(String).join('|') : null;
  if (f.types.length === 1 && f.types[0] === 'boolean') return '';
  if (f.types.length === 1 && f.types[0] === 'object') return 'JSON';
  if (f.types.length === 1 && f.types[0] === 'array') return `${enumText ?? metavar(f)}…`;
  if (enumText) return enumText;
  if (f.types.every((t) => t === 'number' || t === 'integer')) return 'N';
  return metavar(f);
}

/** `brow click REF [--button left|right|middle] …` */
export function usageLine(command: string, fields: FieldSpec[]): string {
  const pos = fields
    .filter((f) => f.positional !== null)
    .sort((a, b) => a.positional! - b.positional!)
    .map((f) => {
      const v = f.types.includes('array') ? `${metavar(f)}…` : metavar(f);
      return f.required ? v : `[${v}]`;
    });
  const flags = fields
    .filter((f) => f.positional === null)
    .map((f) => {
      const v = valueHint(f);
      const text = v ? `--${f.flag} ${v}` : `--[no-]${f.flag}`;
      return f.required ? text : `[${text}]`;
    });
  return ['brow', command, ...pos, ...flags].join(' ');
}

function parseBool(f: FieldSpec, text: string): boolean {
  if (/^(true|1|yes|on)$/i.test(text)) return true;
  if (/^(false|0|no|off)$/i.test(text)) return false;
  throw new UsageError(`--${f.flag} takes true or false, not "${text}".`, {
    hint: `Write --${f.flag} or --no-${f.flag}.`,
  });
}

/** One token into a value of one of `types` (JSON is tried for non-string types). */
function coerce(f: FieldSpec, types: string[], text: string): unknown {
  const label = f.positional !== null ? metavar(f) : `--${f.flag}`;
  const nonString = types.filter((t) => t !== 'string');
  if (types.length > 0 && nonString.length === 0) return text;
  if (nonString.every((t) => t === 'number' || t === 'integer') && !types.includes('string')) {
    const n = Number(text);
    if (text.trim() === '' || Number.isNaN(n)) {
      throw new UsageError(`${label} takes a number, not "${text}".`, { hint: `For example ${label} 2.` });
    }
    return n;
  }
  if (types.length === 1 && types[0] === 'boolean') return parseBool(f, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (types.length === 0 || types.includes('string')) return text;
    throw new UsageError(`${label} takes JSON (${types.join(' or ')}), and "${text}" is not JSON.`, {
      hint: `For example ${label} '${types.includes('array') ? '["a","b"]' : '{"width":800,"height":600}'}'.`,
    });
  }
  const kind = Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed;
  const ok = types.length === 0 || types.includes(kind) || (kind === 'number' && types.includes('integer'));
  if (ok) return parsed;
  if (types.includes('string')) return text;
  throw new UsageError(`${label} takes ${types.join(' or ')}, not ${kind}.`, {
    hint: `Give ${label} a ${types.join(' or ')} (the command's --help says what each flag takes).`,
  });
}

/** The value of a field given these tokens (one per occurrence of its flag, or its positionals). */
export function fieldValue(f: FieldSpec, tokens: string[]): unknown {
  const acceptsArray = f.types.includes('array');
  if (acceptsArray) {
    const others = f.types.filter((t) => t !== 'array');
    if (tokens.length > 1) return tokens.map((t) => coerce(f, f.items, t));
    const only = tokens[0]!;
    if (others.length > 0) return coerce(f, f.types, only);
    if (only.trim().startsWith('[')) return coerce(f, ['array'], only);
    return [coerce(f, f.items, only)];
  }
  if (tokens.length > 1) {
    throw new UsageError(`--${f.flag} was given ${tokens.length} times; it takes one value.`, {
      hint: `Give --${f.flag} once.`,
    });
  }
  return coerce(f, f.types, tokens[0]!);
}

const isGlobal = (token: string) =>
  (GLOBAL_FLAGS as readonly string[]).includes(token.slice(2).split('=')[0]!);

/** Split argv into the global options and a capability's (unvalidated) input. */
export function parseArgs(command: string, fields: FieldSpec[], argv: string[]): ParsedArgs {
  const globals: GlobalOptions = { json: false, help: false };
  const byFlag = new Map(fields.map((f) => [f.flag, f]));
  const raw = new Map<FieldSpec, string[]>();
  const positionals: string[] = [];
  const usage = `Usage: ${usageLine(command, fields)}; \`brow ${command} --help\` explains each.`;
  const add = (f: FieldSpec, v: string) => raw.set(f, [...(raw.get(f) ?? []), v]);
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (rest || t === '-' || !t.startsWith('-') || /^-\d/.test(t)) {
      positionals.push(t);
      continue;
    }
    if (t === '--') {
      rest = true;
      continue;
    }
    if (t === '-h') {
      globals.help = true;
      continue;
    }
    const eq = t.indexOf('=');
    const name = (eq > 0 ? t.slice(0, eq) : t).replace(/^--?/, '');
    const inline = eq > 0 ? t.slice(eq + 1) : undefined;
    const value = (label: string): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      const isFlag = next?.startsWith('--') && (byFlag.has(next.slice(2).split('=')[0]!) || isGlobal(next));
      if (next === undefined || isFlag) {
        throw new UsageError(`${label} needs a value.`, {
          hint: `Write ${label}=VALUE for a value that starts with --. ${usage}`,
        });
      }
      i++;
      return next;
    };
    if ((GLOBAL_FLAGS as readonly string[]).includes(name)) {
      if (name === 'json') globals.json = inline === undefined || /^(true|1)$/i.test(inline);
      else if (name === 'help') globals.help = true;
      else if (name === 'session') globals.session = value('--session');
      else if (name === 'idle-timeout') globals.idleTimeout = value('--idle-timeout');
      else if (name === 'config') globals.config = value('--config');
      else globals.inputJson = value('--input-json');
      continue;
    }
    const field = byFlag.get(name);
    const negated = !field && name.startsWith('no-') ? byFlag.get(name.slice(3)) : undefined;
    if (negated && negated.types.includes('boolean') && inline === undefined) {
      raw.set(negated, ['false']);
      continue;
    }
    if (!field) {
      const near = nearest(name, [...byFlag.keys()])[0];
      throw new UsageError(`Unknown flag ${t.split('=')[0]} for brow ${command}.`, {
        hint: `${near ? `Did you mean --${near}? ` : ''}${usage}`,
      });
    }
    if (field.types.length === 1 && field.types[0] === 'boolean') raw.set(field, [inline ?? 'true']);
    else add(field, value(`--${field.flag}`));
  }
  assignPositionals(command, fields, positionals, raw, usage);
  const input: Record<string, unknown> = globals.inputJson ? inputJson(globals.inputJson) : {};
  for (const [f, tokens] of raw) input[f.name] = fieldValue(f, tokens);
  return { globals, input: bareRefs(input) };
}

/** A ref field (`ref`, `to_ref`, …): `@e1`, as agent-browser writes refs, means `e1`. */
const isRefField = (name: string) => /(^|_)ref$/.test(name);

/** Ref fields written `@e1` (as agent-browser prints refs) become `e1`. */
export function bareRefs(input: Record<string, unknown>): Record<string, unknown> {
  const out = { ...input };
  for (const [k, v] of Object.entries(out)) {
    if (isRefField(k) && typeof v === 'string' && /^@./.test(v)) out[k] = v.slice(1);
  }
  return out;
}

function assignPositionals(
  command: string,
  fields: FieldSpec[],
  positionals: string[],
  raw: Map<FieldSpec, string[]>,
  usage: string,
): void {
  const slots = fields.filter((f) => f.positional !== null).sort((a, b) => a.positional! - b.positional!);
  let i = 0;
  for (const [n, f] of slots.entries()) {
    if (i >= positionals.length) break;
    const takeAll = n === slots.length - 1 && f.types.includes('array');
    const values = takeAll ? positionals.slice(i) : [positionals[i]!];
    i += values.length;
    if (raw.has(f)) {
      throw new UsageError(`${metavar(f)} was given both as an argument and as --${f.flag}.`, {
        hint: usage,
      });
    }
    raw.set(f, values);
  }
  if (i < positionals.length) {
    const extra = positionals.slice(i).map((p) => JSON.stringify(p));
    throw new UsageError(`brow ${command} got more arguments than it takes: ${extra.join(' ')}.`, {
      hint: `Quote a value that has spaces. ${usage}`,
    });
  }
}

function inputJson(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new UsageError('--input-json takes a JSON object.', {
      hint: `For example --input-json '{"ref":"e3"}'.`,
    });
  }
  return v as Record<string, unknown>;
}

/** Validate input as the capability will; a failure names the argument or flag to fix. */
export function checkInput(command: string, fields: FieldSpec[], schema: z.ZodObject, input: unknown): void {
  const r = schema.safeParse(input);
  if (r.success) return;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const parts = r.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
    const f = byName.get(String(issue.path[0]));
    const label = !f ? issue.path.join('.') || 'input' : f.positional !== null ? metavar(f) : `--${f.flag}`;
    const missing =
      f && issue.code === 'invalid_type' && (input as Record<string, unknown>)[f.name] === undefined;
    return missing
      ? `${label} is required`
      : `${label}${issue.path.length > 1 ? `.${issue.path.slice(1).join('.')}` : ''}: ${issue.message}`;
  });
  throw new UsageError(`brow ${command}: ${parts.join('; ')}.`, {
    hint: `Usage: ${usageLine(command, fields)}; \`brow ${command} --help\` explains each.`,
  });
}

/**
 * File path fields (`path`, `output_path`, `file_paths`, …) given relative on the command line mean
 * relative to where the command runs, not to where the daemon started: make them absolute. The
 * capability still refuses a path outside its workspace root.
 */
export function absolutePaths(input: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out = { ...input };
  for (const [k, v] of Object.entries(out)) {
    if (!/(^|_)paths?$/.test(k)) continue;
    if (typeof v === 'string' && v) out[k] = resolve(cwd, v);
    else if (Array.isArray(v)) out[k] = v.map((x) => (typeof x === 'string' && x ? resolve(cwd, x) : x));
  }
  return out;
}
