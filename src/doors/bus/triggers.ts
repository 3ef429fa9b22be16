/**
 * `browser::*` trigger types, fed by the core's one event stream. Each binding is `{session_id?}`
 * (unknown keys refused at registration); each matching binding fires once per event as a void
 * invocation, so no subscriber can slow a session down.
 */
import { TriggerAction, type IIIClient } from 'iii-sdk';
import { z } from 'zod';
import type { BrowEvent, BrowEventType, BrowRuntime } from '../../runtime/runtime.js';
import { Bucket, bufferedBytes, DEFAULT_FLOW, type FlowOptions } from './flow.js';

const bindingConfig = z
  .object({
    session_id: z.string().min(1).optional().describe('Only events of this session; omit for every session'),
  })
  .strict();

type Payload = Record<string, unknown>;

interface TriggerTypeSpec {
  id: string;
  event: BrowEventType;
  description: string;
  payload(e: BrowEvent): Payload;
  call: z.ZodType;
}

const base = {
  session_id: z.string(),
  seq: z.number().describe('Per-session event sequence number'),
  timestamp: z.number(),
};
const entryOf = (e: BrowEvent): Payload => (e.entry ?? {}) as Payload;
const STOP_REASONS: Record<string, 'stopped' | 'idle' | 'crashed'> = {
  stopped: 'stopped',
  shutdown: 'stopped',
  idle: 'idle',
  ttl: 'idle',
  crashed: 'crashed',
};

export const TRIGGER_TYPES: TriggerTypeSpec[] = [
  {
    id: 'browser::session-started',
    event: 'session-started',
    description: 'A browser session started.',
    payload: (e) => ({
      session_id: e.session_id,
      url: e.url,
      headless: e.headless,
      timestamp: e.timestamp,
      seq: e.seq,
    }),
    call: z.object({ ...base, url: z.string(), headless: z.boolean() }),
  },
  {
    id: 'browser::session-stopped',
    event: 'session-stopped',
    description: 'A browser session stopped: reason stopped, idle (idle timer or ttl) or crashed.',
    payload: (e) => ({
      session_id: e.session_id,
      reason: STOP_REASONS[String(e.reason)] ?? 'stopped',
      timestamp: e.timestamp,
      seq: e.seq,
    }),
    call: z.object({ ...base, reason: z.enum(['stopped', 'idle', 'crashed']) }),
  },
  {
    id: 'browser::navigated',
    event: 'navigated',
    description: 'A page of a session committed a navigation of its main frame.',
    payload: (e) => ({
      session_id: e.session_id,
      url: e.url,
      page_id: e.page_id,
      timestamp: e.timestamp,
      seq: e.seq,
    }),
    call: z.object({ ...base, url: z.string(), page_id: z.string() }),
  },
  {
    id: 'browser::console-event',
    event: 'console-event',
    description: 'One captured console entry or uncaught exception (high volume: filter by session_id).',
    payload: (e) => {
      const x = entryOf(e);
      return {
        session_id: e.session_id,
        entry: {
          seq: x.seq,
          timestamp: x.timestamp,
          level: x.level,
          text: x.text,
          ...(x.source ? { source: x.source } : {}),
        },
        seq: e.seq,
      };
    },
    call: z.object({ session_id: z.string(), seq: z.number(), entry: z.record(z.string(), z.unknown()) }),
  },
  {
    id: 'browser::network-event',
    event: 'network-event',
    description: 'One finished or failed request.',
    payload: (e) => {
      const x = entryOf(e);
      const entry = {
        seq: x.seq,
        timestamp: x.timestamp,
        method: x.method,
        url: x.url,
        status: x.status,
        mime_type: x.mime_type,
        failed: x.failed,
        error: x.error,
      };
      return {
        session_id: e.session_id,
        entry: Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined && v !== '')),
        seq: e.seq,
      };
    },
    call: z.object({ session_id: z.string(), seq: z.number(), entry: z.record(z.string(), z.unknown()) }),
  },
  {
    id: 'browser::picked',
    event: 'picked',
    description: 'A human picked an element in the console UI; element.ref feeds browser::act.',
    payload: ({ type: _t, ...rest }) => rest,
    call: z.object({ ...base, element: z.record(z.string(), z.unknown()) }),
  },
  {
    id: 'browser::handoff-requested',
    event: 'handoff-requested',
    description: 'A session is paused waiting for a human (CAPTCHA, 2FA, payment).',
    payload: ({ type: _t, ...rest }) => rest,
    call: z.object({ ...base, handoff_id: z.string(), instructions: z.string() }),
  },
];

/**
 * browser::session-started carries the URL the start call asked for. The core announces a session
 * before its first page opens (url about:blank), so while a browser::sessions::start is in flight its
 * session's event waits here until the start function names the URL (or the start ends).
 */
export class StartUrls {
  private starts = 0;
  private readonly urls = new Map<string, string>();
  private readonly parked = new Map<string, BrowEvent>();
  /** Set by registerTriggers: delivers a (possibly parked) session-started event. */
  deliver: (e: BrowEvent) => void = () => undefined;

  /** A start call begins; call the returned function when it ends (success or not). */
  begin(): () => void {
    this.starts += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.starts -= 1;
      if (this.starts > 0) return;
      for (const e of this.parked.values()) this.deliver(e);
      this.parked.clear();
      this.urls.clear();
    };
  }

  /** The start call of `sessionId` asked for `url`. */
  named(sessionId: string, url: string): void {
    const e = this.parked.get(sessionId);
    if (e) {
      this.parked.delete(sessionId);
      this.deliver({ ...e, url });
    } else if (this.starts > 0) this.urls.set(sessionId, url);
  }

  /** The event to deliver now (with the asked URL), or null when it waits for its start call. */
  take(e: BrowEvent): BrowEvent | null {
    const url = this.urls.get(e.session_id);
    if (url !== undefined) {
      this.urls.delete(e.session_id);
      return { ...e, url };
    }
    if (this.starts === 0) return e;
    this.parked.set(e.session_id, e);
    return null;
  }
}

const startUrls = new WeakMap<BrowRuntime, StartUrls>();
/** The runtime's start-URL bookkeeping, shared by the functions and the triggers. */
export function startUrlsOf(runtime: BrowRuntime): StartUrls {
  let s = startUrls.get(runtime);
  if (!s) startUrls.set(runtime, (s = new StartUrls()));
  return s;
}

interface Binding {
  type: string;
  function_id: string;
  session_id?: string | undefined;
  bucket: Bucket;
}

/** Register the trigger types and deliver events to their bindings until `stop()`. */
export function registerTriggers(
  client: IIIClient,
  runtime: BrowRuntime,
  log: (msg: string) => void,
  flow: FlowOptions = DEFAULT_FLOW,
) {
  const bindings = new Map<string, Binding>();
  const byEvent = new Map(TRIGGER_TYPES.map((t) => [t.event, t]));

  for (const t of TRIGGER_TYPES) {
    const type = {
      id: t.id,
      description: t.description,
      trigger_request_format: z.toJSONSchema(bindingConfig),
      call_request_format: z.toJSONSchema(t.call),
    };
    client.registerTriggerType<unknown>(type, {
      async registerTrigger({ id, function_id, config }) {
        const parsed = bindingConfig.safeParse(config ?? {});
        if (!parsed.success) {
          const unknown = parsed.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
          throw new Error(
            unknown.length > 0
              ? `[invalid_request] unknown key(s) ${unknown.map((k) => `"${k}"`).join(', ')} in the ${t.id} binding config — the only key is session_id.`
              : `[invalid_request] bad ${t.id} binding config: ${parsed.error.issues.map((i) => i.message).join('; ')} — pass {} or {"session_id": "…"}.`,
          );
        }
        bindings.set(id, {
          type: t.id,
          function_id,
          session_id: parsed.data.session_id,
          bucket: new Bucket(flow),
        });
      },
      async unregisterTrigger({ id }) {
        bindings.delete(id);
      },
    });
  }

  const send = (e: BrowEvent): void => {
    const spec = byEvent.get(e.type);
    if (!spec) return;
    let payload: Payload | null = null;
    let backedUp: boolean | null = null;
    for (const b of bindings.values()) {
      if (b.type !== spec.id || (b.session_id && b.session_id !== e.session_id)) continue;
      backedUp ??= bufferedBytes(client) > flow.maxBufferedBytes;
      if (backedUp) b.bucket.dropped += 1;
      if (backedUp || !b.bucket.admit()) continue;
      payload ??= spec.payload(e);
      const dropped = b.bucket.dropped;
      b.bucket.dropped = 0;
      // fire-and-forget: a void invocation has no answer to wait for
      client
        .trigger({
          function_id: b.function_id,
          payload: dropped > 0 ? { ...payload, dropped } : payload,
          action: TriggerAction.Void(),
        })
        .catch((err: unknown) => {
          log(`delivering ${spec.id} to ${b.function_id} failed: ${String(err)}`);
        });
    }
  };
  const starts = startUrlsOf(runtime);
  starts.deliver = send;
  const deliver = (e: BrowEvent): void => {
    if (e.type !== 'session-started') return send(e);
    const now = starts.take(e);
    if (now) send(now);
  };
  const stop = runtime.subscribe({ types: TRIGGER_TYPES.map((t) => t.event) }, deliver);
  return { bindings, stop };
}
