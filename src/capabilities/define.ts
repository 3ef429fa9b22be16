/**
 * How a capability is declared: once, with its schema, annotations and handler. Every door derives from it.
 * A capability file imports the core inside its handlers (`await import(...)`), not at the top: the CLI
 * client reads the declarations for every command, and must not load puppeteer, sharp or linkedom to do so.
 */
import type { z } from 'zod';
import type { BrowCore } from '../core/core.js';
import type { BrowPage } from '../core/session/page.js';

export type CapabilityGroup =
  | 'sessions'
  | 'pages'
  | 'navigation'
  | 'snapshot'
  | 'actions'
  | 'read'
  | 'observe'
  | 'scripts'
  | 'styles'
  | 'screenshots'
  | 'storage'
  | 'network'
  | 'emulation'
  | 'dialogs'
  | 'live'
  | 'tool';

export interface CapabilityContext {
  core: BrowCore;
  /** Who is calling (an MCP client, a CLI profile…); sessions it starts belong to it. */
  owner: string | null;
  /** Aborted when the caller goes away or the call times out. */
  signal?: AbortSignal;
  /**
   * Report progress on a long call (a handoff, a wait): `done` of `total` (same unit, total when
   * known) and a line for a person. Each door carries it its own way (MCP progress notifications,
   * server-sent events, a status line); absent when the caller did not ask.
   */
  progress?(done: number, total?: number, message?: string): void;
  /** The calling capability's gates for this input, set by invoke(); onPage applies them. */
  gates?: Gates;
  /** The calling capability's name, for the gates' messages (set by invoke()). */
  name?: string;
  /**
   * Called by onPage with the page, under its lock and after the gates, before the handler's own
   * work (invoke() reads the action log's refs here).
   */
  enterPage?(page: BrowPage): Promise<void>;
}

/**
 * The page states that refuse a call before it touches the page, declared by the capability and
 * checked in one place (onPage, under the page's lock, in this order).
 */
export interface Gates {
  /** Refused in a read-only session (`read_only`). */
  write?: boolean;
  /** The read_only answer's hint, where the general one does not fit. */
  writeHint?: string;
  /** Refused while a person holds the page in a handoff (`handoff_pending`). */
  handoff?: boolean;
  /** Refused while a reported dialog is open, which freezes the page's script (`dialog_blocking`). */
  dialog?: boolean;
}

/** Every gate: what a call that acts on a page passes. */
export const ACTS: Gates = { write: true, handoff: true, dialog: true };
/** A read of the page's script, which a dialog would freeze. */
export const READS: Gates = { dialog: true };

export interface ImageContent {
  /** base64 */
  data: string;
  mimeType: string;
}

export interface CapabilityResult {
  /** Text written for a model. */
  text: string;
  /** The structured result. */
  data: Record<string, unknown>;
  images?: ImageContent[];
}

export interface Annotations {
  /** Only reads: never changes a page or a session. */
  readOnly: boolean;
  /**
   * May change or destroy something (MCP's destructiveHint: meaningful when readOnly is false): an
   * action on a page, a navigation, a script, closing or stopping. false only for changes that add
   * and never alter (opening a page, starting a session).
   */
  destructive: boolean;
  /** Calling twice with the same input does no more than once. */
  idempotent: boolean;
}

/**
 * What replay does with a tool (browser_export_script, browser_replay_script): a script may run
 * it; `log` keeps its calls in the session's action log (what an export turns into steps).
 */
export interface ReplayPolicy {
  /** The session's action log keeps its calls (core/replay/log.ts, begun by invoke()). */
  log: boolean;
  /** The input field typed into its target: a secret field's value is logged as a placeholder. */
  textInput?: string;
  /** It opens, moves or closes pages by itself: an export derives no wait from its effect. */
  movesPages?: boolean;
}

/**
 * A tool's policy, read by the doors, the cluster and replay: declared on the capability, never
 * as a list of names elsewhere (tests/core/capability-policy.test.ts checks every capability has
 * each field a door needs). None of it is part of a door's tool listing.
 */
export interface CapabilityPolicy {
  /**
   * `core`: in the default MCP tool list (`--caps=core`: what an agent needs to finish a task on a
   * page, within 24 KB); `more`: added by its group or `--caps=all`.
   */
  tier: 'core' | 'more';
  /** false: a replay script cannot run it and the action log skips it. */
  replay: false | ReplayPolicy;
  /**
   * MCP's openWorldHint: `closed` when it acts only on brow's own state (sessions, scripts),
   * `open` when it reaches pages and the web.
   */
  world: 'open' | 'closed';
  /**
   * The cluster: `place` sends it to the worker with the most room (it starts a session or reads a
   * browser's tabs), and a full worker turns it away; absent, it goes where its session, page or
   * the caller's last call went.
   */
  placement?: 'place';
}

export interface Capability<
  S extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  N extends string = string,
> extends CapabilityPolicy {
  name: N;
  title: string;
  description: string;
  group: CapabilityGroup;
  input: S;
  /**
   * The shape of `data` on success (the full form the library and the tool API return). Loose:
   * records may carry more than is described. The MCP door derives its outputSchema from it.
   */
  output: O;
  annotations: Annotations;
  /** The CLI's positional arguments, in order (field names of input). */
  positional?: string[];
  /**
   * The longest this call may run when that is past max_timeout_ms (a handoff waits for a person up
   * to its own timeout_ms): invoke's deadline allows for it.
   */
  maxRunMs?(input: z.output<S>): number;
  /** What refuses this call before it starts (see Gates); none when absent. */
  gates?: Gates | ((input: z.output<S>) => Gates);
  handle(input: z.output<S>, ctx: CapabilityContext): Promise<CapabilityResult>;
}

/**
 * Declare a capability; the input schema is made strict so unknown fields are refused. The name
 * keeps its literal type, so the registry's names form a union (`ToolName`).
 */
export function defineCapability<const N extends string, S extends z.ZodObject, O extends z.ZodObject>(
  c: Capability<S, O, N>,
): Capability<S, O, N> {
  return { ...c, input: c.input.strict() as S };
}

/** A capability's gates for an input it has parsed. */
export function gatesOf<S extends z.ZodObject>(
  cap: Capability<S, z.ZodObject, string>,
  input: z.output<S>,
): Gates {
  return (typeof cap.gates === 'function' ? cap.gates(input) : cap.gates) ?? {};
}

/** Erase the schema types for registries. */
export type AnyCapability = Capability<z.ZodObject, z.ZodObject, string>;
