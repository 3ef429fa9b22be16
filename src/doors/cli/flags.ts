/** The CLI's global flags and field view: no registry, no zod, so the quick client (fast.ts) can load them. */

/** Flags every command takes; a capability field with one of these names is reachable only via --input-json. */
export const GLOBAL_FLAGS = ['json', 'session', 'idle-timeout', 'config', 'input-json', 'help'] as const;

/** Global flags that take a value (`--session NAME`); the others are switches. */
export const VALUE_FLAGS: readonly string[] = ['session', 'idle-timeout', 'config', 'input-json'];

/** A JSON-schema view of one input field, enough to parse a flag and print help. */
export interface FieldSpec {
  /** Input field name (snake_case). */
  name: string;
  /** Flag name without dashes (kebab-case). */
  flag: string;
  /** JSON types the field accepts ('string', 'number', 'integer', 'boolean', 'array', 'object'); empty = any. */
  types: string[];
  /** For arrays: the item types. */
  items: string[];
  enum: unknown[] | null;
  required: boolean;
  description: string;
  default: unknown;
  /** Index among the positional arguments, or null for a flag. */
  positional: number | null;
}
