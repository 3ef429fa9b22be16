/**
 * The library's typed methods, one per capability: a mapped type over the capability modules' exports,
 * so input types come from each schema (`z.input`) and cannot drift. A method is named after its
 * capability in camelCase without the prefix (`browser_open_page` → `openPage`); the runtime methods
 * are built from the registry with the same rule, and a test checks both agree.
 */
import type { CapabilityExports, DataOf, InputOf } from '../../capabilities/types.js';
import { MODULES } from '../../capabilities/registry.js';
import type { ErrorOutcome, OkOutcome } from '../../runtime/outcome.js';

/** Every capability module the registry lists. */
export const TYPED_MODULES = MODULES;

/** Exports whose name is not the method name with an optional `Cap` suffix. */
export const EXPORT_RENAMES = { uploadCap: 'uploadFile' } as const;

type Renames = typeof EXPORT_RENAMES;
type MethodName<K extends string> = K extends keyof Renames
  ? Renames[K]
  : K extends `${infer Base}Cap`
    ? Base
    : K;

/** The method name an export stands for (the same rule as the type, for the test). */
export function methodNameOfExport(key: string): string {
  return (EXPORT_RENAMES as Record<string, string>)[key] ?? key.replace(/Cap$/, '');
}

/** `browser_open_page` → `openPage`. */
export function methodName(capabilityName: string): string {
  return capabilityName.replace(/^browser_/, '').replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** An ok Outcome whose data has a known type. */
export type TypedOk<D> = Omit<OkOutcome, 'data'> & { data: D };

/**
 * What a method resolves with: the Outcome (its data typed from the capability's output schema), or
 * (strict) only an ok one, failures being thrown. Without D (`brow.call`) data is a plain record.
 */
export type Result<Strict extends boolean, D = OkOutcome['data']> = Strict extends true
  ? TypedOk<D>
  : TypedOk<D> | ErrorOutcome;

/** A method; its input may be left out when every field is optional. */
type Method<C, Strict extends boolean> =
  object extends InputOf<C>
    ? (input?: InputOf<C>) => Promise<Result<Strict, DataOf<C>>>
    : (input: InputOf<C>) => Promise<Result<Strict, DataOf<C>>>;

/** One typed method per capability. */
export type BrowMethods<Strict extends boolean = false> = {
  [K in keyof CapabilityExports & string as MethodName<K>]: Method<CapabilityExports[K], Strict>;
};

/** The input type of a method, e.g. `BrowInput<'click'>` = `{ref: string, button?: …}`. */
export type BrowInput<M extends keyof BrowMethods> = Parameters<BrowMethods[M]>[0] & {};

/** The data type of a method's ok answer, e.g. `BrowData<'openPage'>` = `{page_id: string, session_id: string, page: …}`. */
export type BrowData<M extends keyof BrowMethods> = Extract<
  Awaited<ReturnType<BrowMethods[M]>>,
  { ok: true }
>['data'];

export type { ToolData, ToolInput, ToolName } from '../../capabilities/types.js';
