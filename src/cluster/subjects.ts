/**
 * The cluster's subjects and messages. Every subject starts with the prefix (default "brow"):
 *
 *   P.place                 queue group: a new session, when no worker is known yet
 *   P.w.<worker>.call       a call sent to one worker (placement, or a default-page call)
 *   P.s.<worker>.<id>       a call naming a session, page or handoff: the owner's per-session subject
 *   P.w.<worker>.<op>       ping, cancel, overview, release (one worker)
 *   P.all.status            every worker answers with its status (scatter-gather)
 *   P.all.release           every worker stops an owner's sessions
 *   P.hb                    each worker's status, every second
 *   P.ev.<worker>.<session>.<type>  the event stream, per session and type (NATS filters for the listeners)
 */
import type { InvokeOptions } from '../runtime/runtime.js';

export const subjects = (p: string) => ({
  place: `${p}.place`,
  workerCall: (w: string) => `${p}.w.${w}.call`,
  workerOp: (w: string, op: string) => `${p}.w.${w}.${op}`,
  workerAll: (w: string) => `${p}.w.${w}.>`,
  session: (w: string, id: string) => `${p}.s.${w}.${id}`,
  sessionAll: (w: string) => `${p}.s.${w}.>`,
  all: (op: string) => `${p}.all.${op}`,
  heartbeat: `${p}.hb`,
  events: (w: string, sessionId: string, type: string) => `${p}.ev.${w}.${sessionId}.${type}`,
});

/** The worker an id names: `s-<worker>-7` → worker; null for an id brow did not make. */
export function workerOf(id: unknown): string | null {
  if (typeof id !== 'string') return null;
  const m = /^[a-z]+-([A-Za-z0-9_-]+)-\d+$/.exec(id);
  return m?.[1] ?? null;
}

/** The fields whose ids route a call to the worker that owns them, most specific first. */
export const ROUTING_FIELDS = ['page_id', 'session_id', 'handoff_id'] as const;

/** A call, gateway → worker. */
export interface CallMessage {
  op: 'invoke';
  /** Unique per gateway call: cancel messages name it. */
  call: string;
  name: string;
  input: unknown;
  owner: InvokeOptions['owner'];
  /** The caller's subject for this call: progress on `<back>.p`, a large answer's chunks on `<back>.c<i>`. */
  back: string;
  /** The caller wants progress notifications. */
  progress?: boolean;
}

/** The console's requests for a page, gateway → worker (on the page's per-session subject). */
export interface LiveMessage {
  op: 'live';
  fn: 'input' | 'inspect' | 'pick' | 'watch' | 'unwatch';
  page_id: string;
  args?: unknown;
  /** watch: where frames go; unwatch: which watch. */
  to?: string;
}

export interface WorkerStatus {
  id: string;
  /** Sessions it takes (max_sessions). */
  capacity: number;
  sessions: number;
  /** Calls running now. */
  running: number;
  /** 1-minute load average per core. */
  load: number;
  chromium_version: string | null;
  started_at: number;
  uptime_s: number;
  draining: boolean;
  host: string;
  pid: number;
}

export const encode = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
export const decode = <T>(b: Uint8Array): T => JSON.parse(new TextDecoder().decode(b)) as T;
