/**
 * `brow/sdk`: seed 001's code-mode client. `tool.call(name, params)` posts to a running
 * `brow serve` (POST /v1/tools/<name>) and returns `{ok, content, data}`; it never throws for a
 * failed tool call. Standalone: it imports only types from the rest of brow (tool names, inputs and
 * data, derived from the capability declarations), so it loads anywhere fetch does.
 */
import type { ToolData, ToolInput, ToolName } from '../../capabilities/types.js';
import { failureText } from '../../runtime/outcome.js';

export type { ToolData, ToolInput, ToolName };

/** A failed call's data: error_code, message and hint (some codes add fields: cast to read them). */
export interface ToolErrorData {
  error_code: string;
  message: string;
  hint: string;
}

/** An image a tool returned (base64), e.g. a screenshot. */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** What every tool call returns (seed 001's Result). */
export interface ToolResult<D extends object = Record<string, any>> {
  ok: boolean;
  /** Text written for a model: print it. */
  content: string;
  /**
   * The structured result (typed from the tool's output schema); on failure `{error_code, message,
   * hint, …}` instead, so those fields are typed too, as optional.
   */
  data: D & Partial<ToolErrorData>;
  /** Images the tool returned, if any. */
  images?: ToolImage[];
  /** The tool that was called. */
  name: string;
  /** Seconds the call took, round trip. */
  execution_time: number;
  /** A per-client counter, for matching calls in logs. */
  tool_call_id: string;
}

/** A tool as the server lists it. */
export interface ToolInfo {
  name: string;
  title: string;
  description: string;
  group: string;
  annotations: { readOnly: boolean; destructive: boolean; idempotent: boolean };
  input_schema: Record<string, unknown>;
}

export interface ToolClientOptions {
  /** Server URL; default `BROW_URL`, else http://127.0.0.1:7777. */
  url?: string;
  /** Bearer token; default `BROW_TOKEN`. */
  token?: string;
  /** Sent as x-brow-client: sessions this client starts belong to it. Default `BROW_CLIENT`. */
  client?: string;
  /** Give up on a call after this many ms (default 180000, above the server's own limits). */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ToolClient {
  /**
   * Call a tool by name (a `ToolName`); params and data are typed per tool. Resolves with ok:false
   * (never rejects) when the tool or the connection fails.
   */
  call<N extends ToolName>(
    name: N,
    params?: ToolInput<N>,
    opts?: CallOptions,
  ): Promise<ToolResult<ToolData<N>>>;
  /** The tools this server offers, with their JSON schemas. */
  list(): Promise<ToolInfo[]>;
  /** The server this client talks to. */
  readonly url: string;
}

const DEFAULT_URL = 'http://127.0.0.1:7777';

function env(name: string): string | undefined {
  const v = typeof process === 'undefined' ? undefined : process.env[name];
  return v && v.length > 0 ? v : undefined;
}

function failure(
  name: string,
  code: string,
  message: string,
  hint: string,
  started: number,
  id: string,
): ToolResult {
  return {
    ok: false,
    content: failureText(code, message, hint),
    data: { error_code: code, message, hint },
    name,
    execution_time: (Date.now() - started) / 1000,
    tool_call_id: id,
  };
}

/** A client for one server. */
export function createToolClient(options: ToolClientOptions = {}): ToolClient {
  const base = (options.url ?? env('BROW_URL') ?? DEFAULT_URL).replace(/\/+$/, '');
  const token = options.token ?? env('BROW_TOKEN');
  const client = options.client ?? env('BROW_CLIENT');
  const timeoutMs = options.timeoutMs ?? 180_000;
  let counter = 0;

  const headers = (): Record<string, string> => ({
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(client ? { 'x-brow-client': client } : {}),
  });

  async function call(
    name: string,
    params: Record<string, unknown> = {},
    opts: CallOptions = {},
  ): Promise<ToolResult> {
    const id = `call_${++counter}`;
    const started = Date.now();
    const signal = opts.signal
      ? AbortSignal.any([opts.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await fetch(`${base}/v1/tools/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(params),
        signal,
      });
    } catch (e) {
      const aborted = signal.aborted;
      return failure(
        name,
        aborted ? 'timeout' : 'connection_failed',
        aborted
          ? `No answer from ${base} in time.`
          : `Cannot reach brow at ${base} (${(e as Error).message}).`,
        aborted
          ? 'Read the page to see its current state, then try again.'
          : 'Start it with `brow serve`, or set BROW_URL to where it runs.',
        started,
        id,
      );
    }
    const text = await res.text();
    type Body = { ok?: unknown; content?: unknown; data?: unknown; images?: unknown };
    let body: Body | null;
    try {
      body = JSON.parse(text) as Body | null;
    } catch {
      body = null;
    }
    if (!body || typeof body.ok !== 'boolean' || typeof body.data !== 'object' || body.data === null) {
      return failure(
        name,
        'unexpected_error',
        `HTTP ${res.status} from ${base}: ${text.slice(0, 200)}`,
        'Check BROW_URL points at `brow serve`.',
        started,
        id,
      );
    }
    return {
      ok: body.ok,
      content: typeof body.content === 'string' ? body.content : '',
      data: body.data as Record<string, any>,
      ...(Array.isArray(body.images) ? { images: body.images as ToolImage[] } : {}),
      name,
      execution_time: (Date.now() - started) / 1000,
      tool_call_id: id,
    };
  }

  async function list(): Promise<ToolInfo[]> {
    const res = await fetch(`${base}/v1/tools`, {
      headers: headers(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`GET ${base}/v1/tools: HTTP ${res.status}`);
    return ((await res.json()) as { tools: ToolInfo[] }).tools;
  }

  return { call: call as ToolClient['call'], list, url: base };
}

let shared: ToolClient | null = null;
let sharedKey = '';

/** The default client, configured from BROW_URL / BROW_TOKEN / BROW_CLIENT when first used (and when they change). */
export const tool: ToolClient = {
  call: (name, params, opts) => current().call(name, params, opts),
  list: () => current().list(),
  get url() {
    return current().url;
  },
};

function current(): ToolClient {
  const key = `${env('BROW_URL')}\n${env('BROW_TOKEN')}\n${env('BROW_CLIENT')}`;
  if (!shared || key !== sharedKey) {
    shared = createToolClient();
    sharedKey = key;
  }
  return shared;
}
