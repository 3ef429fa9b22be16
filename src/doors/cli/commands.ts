/** The CLI's capability commands, derived from the registry: `browser_open_page` → `brow open-page`. */
import { z } from 'zod';
import type { AnyCapability } from '../../capabilities/define.js';
import { capabilities } from '../../capabilities/registry.js';
import { cliCommandName } from '../../runtime/door-names.js';

import type { FieldSpec } from './flags.js';

export { GLOBAL_FLAGS, VALUE_FLAGS, type FieldSpec } from './flags.js';

export interface CommandSpec {
  command: string;
  capability: AnyCapability;
  fields: FieldSpec[];
}

export const kebab = (s: string): string => s.replace(/_/g, '-');

/** Command name of a capability: its name without the `browser_` prefix, in kebab-case. */
export function commandName(capabilityName: string): string {
  return cliCommandName(capabilityName);
}

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
};

function typesOf(s: JsonSchema | undefined): string[] {
  if (!s) return [];
  const alts = s.anyOf ?? s.oneOf;
  if (alts) {
    const all = alts.map(typesOf);
    return all.some((t) => t.length === 0) ? [] : [...new Set(all.flat())];
  }
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.enum) return [...new Set(s.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (s.const !== undefined) return [typeof s.const];
  return [];
}

function itemsOf(s: JsonSchema): string[] {
  const arr = (s.anyOf ?? s.oneOf ?? [s]).find((a) => typesOf(a).includes('array'));
  return typesOf(arr?.items);
}

function enumOf(s: JsonSchema): unknown[] | null {
  if (s.enum) return s.enum;
  const arr = (s.anyOf ?? s.oneOf ?? [s]).find((a) => typesOf(a).includes('array'));
  return arr?.items?.enum ?? null;
}

/** Fields of any zod object (a capability's input, or the configuration), as the CLI sees them. */
export function fieldSpecs(schema: z.ZodObject, positional: string[] = []): FieldSpec[] {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    json = { properties: Object.fromEntries(Object.keys(schema.shape).map((k) => [k, {}])) };
  }
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    flag: kebab(name),
    types: typesOf(s),
    items: itemsOf(s),
    enum: enumOf(s),
    required: required.has(name),
    description: s.description ?? '',
    default: s.default,
    positional: positional.includes(name) ? positional.indexOf(name) : null,
  }));
}

let table: Map<string, CommandSpec> | null = null;

/** Every capability command, by command name, in registry order. */
export function capabilityCommands(): Map<string, CommandSpec> {
  table ??= new Map(
    capabilities.map((c) => {
      let fields: FieldSpec[] | undefined;
      const spec: CommandSpec = {
        command: commandName(c.name),
        capability: c,
        // a command needs its own fields only: converting every schema would slow each command's start
        get fields() {
          return (fields ??= fieldSpecs(c.input, c.positional ?? []));
        },
      };
      return [spec.command, spec];
    }),
  );
  return table;
}
