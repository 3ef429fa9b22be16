/**
 * A test double of the iii engine: the engine side of the worker WebSocket protocol, message by
 * message, as documented in iii's docs/reference/engine-protocol.mdx and spoken by iii-sdk 0.22.1.
 * It routes invocations between connected workers, forwards custom-trigger bindings to the worker
 * that registered the type, and answers a few `engine::*` built-ins. Not the real engine (a Rust
 * binary that cannot be installed here): no namespaces, RBAC, queues, channels or telemetry.
 */
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { scaled } from '../scale.js';

type Msg = Record<string, any> & { type: string };

interface Conn {
  id: string;
  ws: WebSocket;
  name: string | null;
  metadata: Record<string, unknown> | null;
}

interface FunctionEntry {
  id: string;
  owner: Conn;
  description?: string;
  request_format?: unknown;
  response_format?: unknown;
  metadata?: unknown;
}

interface TriggerTypeEntry {
  id: string;
  owner: Conn;
  description?: string;
  trigger_request_format?: unknown;
  call_request_format?: unknown;
}

export interface TriggerEntry {
  id: string;
  trigger_type: string;
  function_id: string;
  config: unknown;
  metadata?: unknown;
  owner: Conn;
  /** pending: no provider yet (or waiting for its answer); ok / failed: the provider's answer. */
  status: 'pending' | 'ok' | 'failed';
  error?: { code: string; message: string };
}

interface Pending {
  caller: Conn;
  callerInvocationId: string;
  target: Conn;
  function_id: string;
}

export interface EngineHarness {
  url: string;
  port: number;
  /** Every frame in and out, oldest first (the last 5000). */
  frames: { dir: 'in' | 'out'; worker: string; msg: Msg }[];
  workers(): { id: string; name: string | null; metadata: Record<string, unknown> | null }[];
  functionIds(): string[];
  functionInfo(id: string): Omit<FunctionEntry, 'owner'> | undefined;
  triggerTypes(): Omit<TriggerTypeEntry, 'owner'>[];
  triggers(): TriggerEntry[];
  /** Poll until the condition holds (default 10 s, scaled to the machine). */
  waitFor(cond: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Terminate every connection and stop listening (an engine crash, from the workers' side). */
  close(): Promise<void>;
}

const BUILTIN_PREFIX = 'engine::';

/** Start the engine double on 127.0.0.1 (port 0 = a free one). */
export async function startEngine(opts: { port?: number } = {}): Promise<EngineHarness> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: opts.port ?? 0 });
  await new Promise<void>((resolve, reject) => {
    wss.on('listening', () => resolve());
    wss.on('error', reject);
  });
  const port = (wss.address() as { port: number }).port;
  const conns = new Set<Conn>();
  const functions = new Map<string, FunctionEntry>();
  const triggerTypes = new Map<string, TriggerTypeEntry>();
  const triggers = new Map<string, TriggerEntry>();
  const pending = new Map<string, Pending>();
  const frames: EngineHarness['frames'] = [];

  const send = (c: Conn, msg: Msg): void => {
    frames.push({ dir: 'out', worker: c.name ?? c.id, msg });
    if (frames.length > 5000) frames.shift();
    if (c.ws.readyState === 1) c.ws.send(JSON.stringify(msg));
  };
  const result = (
    c: Conn,
    invocation_id: string | undefined,
    function_id: string,
    body: { result?: unknown; error?: unknown },
  ) => {
    if (invocation_id) send(c, { type: 'invocationresult', invocation_id, function_id, ...body });
  };

  /** Hand a binding to the worker that provides its type; it answers triggerregistrationresult. */
  const forwardTrigger = (t: TriggerEntry): void => {
    const provider = triggerTypes.get(t.trigger_type);
    if (!provider) return; // waits for a provider, as the engine does
    t.status = 'pending';
    send(provider.owner, {
      type: 'registertrigger',
      id: t.id,
      trigger_type: t.trigger_type,
      function_id: t.function_id,
      config: t.config,
      ...(t.metadata !== undefined ? { metadata: t.metadata } : {}),
    });
  };

  const builtins: Record<string, (c: Conn, data: any) => unknown> = {
    'engine::workers::register': (c, data) => {
      c.metadata = data ?? {};
      c.name = typeof data?.name === 'string' ? data.name : c.name;
      return { worker_id: c.id };
    },
    'engine::workers::list': () => ({
      workers: [...conns].map((c) => ({ id: c.id, name: c.name, ...c.metadata })),
    }),
    'engine::functions::list': () => ({
      functions: [...functions.values()].map((f) => ({
        function_id: f.id,
        description: f.description,
        worker_id: f.owner.id,
      })),
    }),
    'engine::functions::info': (_c, data) => {
      const f = functions.get(data?.function_id);
      if (!f)
        throw {
          code: 'function_not_found',
          message: `Function ${data?.function_id} not found in namespace default.`,
        };
      return {
        function_id: f.id,
        description: f.description,
        request_format: f.request_format,
        response_format: f.response_format,
        metadata: f.metadata,
      };
    },
    'engine::triggers::list': () => ({
      trigger_types: [...triggerTypes.values()].map((t) => ({
        id: t.id,
        description: t.description,
        worker_id: t.owner.id,
      })),
    }),
    'engine::triggers::info': (_c, data) => {
      const t = triggerTypes.get(data?.trigger_type_id ?? data?.id);
      if (!t)
        throw {
          code: 'trigger_type_not_found',
          message: `Trigger type ${data?.trigger_type_id ?? data?.id} not found.`,
        };
      const instances = [...triggers.values()].filter(
        (x) => x.trigger_type === t.id && x.status === 'ok',
      ).length;
      return {
        id: t.id,
        description: t.description,
        trigger_request_format: t.trigger_request_format,
        call_request_format: t.call_request_format,
        instances,
      };
    },
    'engine::registered-triggers::list': () => ({
      triggers: [...triggers.values()].map(({ owner, ...t }) => ({ ...t, worker_id: owner.id })),
    }),
  };

  const invoke = (c: Conn, m: Msg): void => {
    const invocation_id = m.invocation_id as string | undefined;
    const function_id = m.function_id as string;
    const builtin = builtins[function_id];
    if (builtin) {
      try {
        result(c, invocation_id, function_id, { result: builtin(c, m.data) });
      } catch (e) {
        result(c, invocation_id, function_id, { error: e });
      }
      return;
    }
    const f = functions.get(function_id);
    if (!f) {
      const message = function_id.startsWith(BUILTIN_PREFIX)
        ? `Engine function ${function_id} is not implemented by the test engine.`
        : `Function ${function_id} not found in namespace default.`;
      result(c, invocation_id, function_id, { error: { code: 'function_not_found', message } });
      return;
    }
    const forward: Msg = { type: 'invokefunction', function_id, data: m.data };
    for (const k of ['metadata', 'traceparent', 'baggage', 'action'] as const)
      if (m[k] !== undefined) forward[k] = m[k];
    if (invocation_id) {
      const engineId = randomUUID();
      pending.set(engineId, { caller: c, callerInvocationId: invocation_id, target: f.owner, function_id });
      forward.invocation_id = engineId;
    }
    send(f.owner, forward);
  };

  const onMessage = (c: Conn, m: Msg): void => {
    switch (m.type) {
      case 'ping':
        return send(c, { type: 'pong' });
      case 'pong':
      case 'reattach':
      case 'registerservice':
        return;
      case 'registerfunction':
        functions.set(m.id, { ...(m as any), owner: c });
        return;
      case 'unregisterfunction':
        if (functions.get(m.id)?.owner === c) functions.delete(m.id);
        return;
      case 'registertriggertype':
        triggerTypes.set(m.id, { ...(m as any), owner: c });
        for (const t of triggers.values()) if (t.trigger_type === m.id) forwardTrigger(t);
        return;
      case 'unregistertriggertype':
        if (triggerTypes.get(m.id)?.owner === c) triggerTypes.delete(m.id);
        return;
      case 'registertrigger': {
        const t: TriggerEntry = {
          id: m.id,
          trigger_type: m.trigger_type,
          function_id: m.function_id,
          config: m.config,
          metadata: m.metadata,
          owner: c,
          status: 'pending',
        };
        triggers.set(t.id, t);
        // without a provider the binding waits for one (start order never decides)
        return forwardTrigger(t);
      }
      case 'unregistertrigger': {
        const t = triggers.get(m.id);
        if (!t) return;
        triggers.delete(m.id);
        const provider = triggerTypes.get(t.trigger_type);
        if (provider)
          send(provider.owner, {
            type: 'unregistertrigger',
            id: t.id,
            trigger_type: t.trigger_type,
            function_id: t.function_id,
            config: t.config,
          });
        return;
      }
      case 'triggerregistrationresult': {
        const t = triggers.get(m.id);
        if (!t) return;
        t.status = m.error ? 'failed' : 'ok';
        if (m.error) {
          t.error = m.error;
          triggers.delete(t.id);
        }
        return send(t.owner, {
          type: 'triggerregistrationresult',
          id: t.id,
          trigger_type: t.trigger_type,
          function_id: t.function_id,
          ...(m.error ? { error: m.error } : {}),
        });
      }
      case 'invokefunction':
        return invoke(c, m);
      case 'invocationresult': {
        const p = pending.get(m.invocation_id);
        if (!p) return;
        pending.delete(m.invocation_id);
        return send(p.caller, {
          type: 'invocationresult',
          invocation_id: p.callerInvocationId,
          function_id: p.function_id,
          ...(m.error ? { error: m.error } : { result: m.result }),
        });
      }
      default:
        return;
    }
  };

  /** A worker went away: drop what it registered; fail calls in flight to it; release its bindings. */
  const onClose = (c: Conn): void => {
    conns.delete(c);
    for (const [id, f] of functions) if (f.owner === c) functions.delete(id);
    for (const [id, t] of triggerTypes) if (t.owner === c) triggerTypes.delete(id);
    for (const [id, p] of pending) {
      if (p.target === c) {
        pending.delete(id);
        send(p.caller, {
          type: 'invocationresult',
          invocation_id: p.callerInvocationId,
          function_id: p.function_id,
          error: { code: 'invocation_stopped', message: `The worker serving ${p.function_id} disconnected.` },
        });
      } else if (p.caller === c) pending.delete(id);
    }
    for (const [id, t] of triggers) {
      if (t.owner === c) {
        triggers.delete(id);
        const provider = triggerTypes.get(t.trigger_type);
        if (provider)
          send(provider.owner, {
            type: 'unregistertrigger',
            id,
            trigger_type: t.trigger_type,
            function_id: t.function_id,
            config: t.config,
          });
      } else if (!triggerTypes.has(t.trigger_type)) t.status = 'pending';
    }
  };

  wss.on('connection', (ws, req) => {
    // the SDK's telemetry socket (/otel) sends binary OTLP frames; the test engine ignores them
    if ((req.url ?? '/').startsWith('/otel')) return;
    const c: Conn = { id: randomUUID(), ws, name: null, metadata: null };
    conns.add(c);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let m: Msg;
      try {
        m = JSON.parse(data.toString()) as Msg;
      } catch {
        return;
      }
      frames.push({ dir: 'in', worker: c.name ?? c.id, msg: m });
      if (frames.length > 5000) frames.shift();
      onMessage(c, m);
    });
    ws.on('close', () => onClose(c));
    ws.on('error', () => undefined);
    send(c, { type: 'workerregistered', worker_id: c.id, reattach_token: randomUUID() });
  });

  const strip = <T extends { owner: Conn }>({ owner: _o, ...rest }: T) => rest;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    frames,
    workers: () => [...conns].map((c) => ({ id: c.id, name: c.name, metadata: c.metadata })),
    functionIds: () => [...functions.keys()],
    functionInfo: (id) => {
      const f = functions.get(id);
      return f ? strip(f) : undefined;
    },
    triggerTypes: () => [...triggerTypes.values()].map(strip),
    triggers: () => [...triggers.values()],
    async waitFor(cond, what, timeoutMs = 10_000) {
      const t0 = Date.now();
      const limit = scaled(timeoutMs);
      while (!cond()) {
        if (Date.now() - t0 > limit) throw new Error(`engine harness: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of conns) c.ws.terminate();
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}
