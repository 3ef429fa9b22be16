/** Streamable HTTP MCP at /mcp, mounted on `brow serve`: one MCP session per client, its browser sessions its own. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Runtime } from '../../runtime/runtime.js';
import { readBody, sendJson } from '../http/server.js';
import { createMcpServer } from './server.js';

export interface McpHttpOptions {
  /** Every client sees and drives the same browser sessions (default: each MCP session has its own). */
  sharedSessions?: boolean;
  /** Close an MCP session after this long with no request and no open stream (default 30 min). */
  idleMs?: number;
  /** Where to mount (default /mcp). */
  path?: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface McpHttpRoute {
  /** Pass to startHttpServer's `extraRoutes`. */
  route: Route;
  /** Live MCP sessions. */
  readonly sessions: number;
  /** Close every MCP session (their browser sessions are released). */
  close(): Promise<void>;
}

interface Entry {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** Requests or streams still open on this session. */
  open: number;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

const initializes = (body: unknown): boolean =>
  Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);

/** The /mcp route. Sessions started through an MCP session are stopped when it closes, unless shared. */
export function mcpHttpRoute(runtime: Runtime, opts: McpHttpOptions = {}): McpHttpRoute {
  const path = opts.path ?? '/mcp';
  const idleMs = opts.idleMs ?? 30 * 60_000;
  const entries = new Map<string, Entry>();

  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const e of entries.values()) if (e.open === 0 && now - e.lastSeen > idleMs) void e.server.close();
    },
    Math.min(idleMs, 60_000),
  );
  reaper.unref();

  async function openSession(): Promise<Entry> {
    const id = randomUUID();
    // the session is listed once initialize succeeds; a failed one is simply dropped
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void entries.set(id, entry),
    });
    const server = createMcpServer(runtime, { owner: opts.sharedSessions ? null : id });
    const entry: Entry = { server, transport, lastSeen: Date.now(), open: 0 };
    server.onclose = () => {
      entries.delete(id);
      if (!opts.sharedSessions) void runtime.releaseOwner(id).catch(() => undefined);
    };
    await server.connect(transport);
    return entry;
  }

  function track(entry: Entry, res: ServerResponse): void {
    entry.open += 1;
    entry.lastSeen = Date.now();
    res.once('close', () => {
      entry.open -= 1;
      entry.lastSeen = Date.now();
    });
  }

  const route: Route = async (req, res, url) => {
    if (url.pathname !== path) return false;
    const sid = req.headers['mcp-session-id'];
    let entry = typeof sid === 'string' ? entries.get(sid) : undefined;
    if (typeof sid === 'string' && !entry) {
      rpcError(res, 404, -32001, 'Session not found: initialize a new MCP session.');
      return true;
    }
    let body: unknown;
    if (req.method === 'POST') {
      let raw: string;
      try {
        raw = await readBody(req);
      } catch {
        rpcError(res, 413, -32000, 'Request body too large.');
        return true;
      }
      try {
        body = JSON.parse(raw);
      } catch {
        rpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
        return true;
      }
    }
    if (!entry) {
      if (req.method !== 'POST' || !initializes(body)) {
        rpcError(res, 400, -32000, 'Bad Request: send initialize first (no valid Mcp-Session-Id).');
        return true;
      }
      entry = await openSession();
    }
    track(entry, res);
    await entry.transport.handleRequest(req, res, body);
    return true;
  };

  return {
    route,
    get sessions() {
      return entries.size;
    },
    async close() {
      clearInterval(reaper);
      await Promise.all([...entries.values()].map((e) => e.server.close()));
    },
  };
}
