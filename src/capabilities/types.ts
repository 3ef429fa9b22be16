/**
 * Types over the registry: tool names as a union, and each tool's input and data types, derived from
 * the capability declarations (a type-only module: importing it loads nothing).
 */
import type { z } from 'zod';
import type { Capability } from './define.js';
import type { MODULES } from './registry.js';

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void
  ? I
  : never;
/** Every export of every capability module, by export name. */
export type RegistryExports = UnionToIntersection<(typeof MODULES)[number]>;

/** The capability exports only. */
export type CapabilityExports = {
  [
    K in keyof RegistryExports as RegistryExports[K] extends Capability<z.ZodObject, z.ZodObject, string>
      ? K
      : never
  ]: RegistryExports[K];
};

type AnyDeclared = CapabilityExports[keyof CapabilityExports];

/** Every tool name, e.g. `'browser_click' | 'browser_open_page' | …`. */
export type ToolName = AnyDeclared extends infer C
  ? C extends Capability<z.ZodObject, z.ZodObject, infer N>
    ? N
    : never
  : never;

/** The declaration of one tool. */
export type CapabilityOf<N extends ToolName> = Extract<AnyDeclared, { name: N }>;

/** The fields a loose object declares, without its `[key: string]: unknown`. */
type Declared<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/** What a capability takes: z.input of its schema. */
export type InputOf<C> = C extends Capability<infer S, z.ZodObject, string> ? z.input<S> : never;
/** What it answers as `data` on success: the fields its output schema declares (z.output). */
export type DataOf<C> = C extends Capability<z.ZodObject, infer O, string> ? Declared<z.output<O>> : never;

/** A tool's input by name, e.g. `ToolInput<'browser_click'>`. */
export type ToolInput<N extends ToolName> = InputOf<CapabilityOf<N>>;
/** A tool's `data` on success by name, e.g. `ToolData<'browser_open_page'>['page_id']` is `string`. */
export type ToolData<N extends ToolName> = DataOf<CapabilityOf<N>>;
