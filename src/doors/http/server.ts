/** The HTTP door: POST /v1/tools/<name> → {ok, content, data}, derived from the registry. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { BrowRuntime } from '../../runtime/runtime.js';
import { checkRequest, isLoopbackBind } from './guard.js';

export interface HttpServerOptions {
  host?: string;
  port?: number;
  token?: string | null;
  /** Extra routes (MCP, events, console) mounted by other doors: return true when handled. */
  extraRoutes?: ((req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>)[];
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 10 * 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The tool list with JSON schemas, as the code-mode API and clients see it. */
export function toolList(runtime: BrowRuntime) {
  return runtime.capabilities.map((c) => ({
    name: c.name,
    title: c.title,
    description: c.description,
    group: c.group,
    annotations: c.annotations,
    input_schema: z.toJSONSchema(c.input, { io: 'input' }),
  }));
}

/** Start the server; refuses a non-loopback bind without a token. */
export async function startHttpServer(
  runtime: BrowRuntime,
  opts: HttpServerOptions = {},
): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? null;
  if (!isLoopbackBind(host) && !token) {
    throw new Error(`Binding ${host} exposes the browser to the network: pass --token (or set BROW_TOKEN).`);
  }
  let port = opts.port ?? 7777;
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { ok: false, content: String(e), data: { error_code: 'unexpected_error' } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const denied = checkRequest(req, { host, port, token });
    if (denied)
      return sendJson(res, denied.status, {
        ok: false,
        content: denied.reason,
        data: { error_code: 'forbidden' },
      });
    const url = new URL(req.url ?? '/', `http://${host}`);
    for (const route of opts.extraRoutes ?? []) if (await route(req, res, url)) return;
    if (req.method === 'GET' && url.pathname === '/healthz') return sendJson(res, 200, { ok: true });
    if (req.method === 'GET' && url.pathname === '/v1/tools')
      return sendJson(res, 200, { tools: toolList(runtime) });
    const m = /^\/v1\/tools\/([\w:.-]+)$/.exec(url.pathname);
    if (m) {
      if (req.method !== 'POST')
        return sendJson(res, 405, {
          ok: false,
          content: 'Use POST.',
          data: { error_code: 'invalid_request' },
        });
      const raw = await readBody(req);
      let input: unknown = {};
      if (raw.trim()) {
        try {
          input = JSON.parse(raw);
        } catch {
          return sendJson(res, 400, {
            ok: false,
            content:
              'Browser operation failed [invalid_request]: the body is not JSON. Send the parameters as a JSON object.',
            data: {
              error_code: 'invalid_request',
              message: 'The body is not JSON.',
              hint: 'Send the parameters as a JSON object.',
            },
          });
        }
      }
      const owner = req.headers['x-brow-client'];
      const outcome = await runtime.invoke(m[1]!, input, { owner: typeof owner === 'string' ? owner : null });
      return sendJson(res, 200, outcome);
    }
    sendJson(res, 404, {
      ok: false,
      content: `No route ${req.method} ${url.pathname}.`,
      data: { error_code: 'invalid_request' },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
