/** The HTTP door: POST /v1/tools/<name> → {ok, content, data}, derived from the registry. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { failureText } from '../../runtime/outcome.js';
import type { Runtime } from '../../runtime/runtime.js';
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

/**
 * How long an idle kept-alive socket stays open, and the shorter time clients are told (a
 * `Keep-Alive: timeout=5` header). A client that reuses an idle socket just as the server closes it
 * gets ECONNRESET ("socket hang up"), a race a loaded machine makes likely; told less than the server
 * really waits, a client that honours the header drops the socket first.
 */
export const KEEP_ALIVE_MS = 15_000;
export const KEEP_ALIVE_ADVERTISED_S = 5;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

class BodyTooLarge extends Error {}

/** An error body in the tool API's own shape: {ok:false, content, data:{error_code, message, hint}}. */
export function refuse(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  hint: string,
): void {
  sendJson(res, status, {
    ok: false,
    content: failureText(code, message, hint),
    data: { error_code: code, message, hint },
  });
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The tool list with JSON schemas, as the code-mode API and clients see it. */
export function toolList(runtime: Runtime) {
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
  runtime: Runtime,
  opts: HttpServerOptions = {},
): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? null;
  if (!isLoopbackBind(host) && !token) {
    throw new Error(`Binding ${host} exposes the browser to the network: pass --token (or set BROW_TOKEN).`);
  }
  let port = opts.port ?? 7777;
  const server = createServer((req, res) => {
    // set here, Node sends this header instead of its own (which would name the server's real time)
    res.setHeader('keep-alive', `timeout=${KEEP_ALIVE_ADVERTISED_S}`);
    void handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      if (e instanceof BodyTooLarge) {
        return refuse(
          res,
          413,
          'invalid_request',
          'The request body is over 10 MiB.',
          'Send smaller parameters.',
        );
      }
      refuse(res, 500, 'unexpected_error', String(e), 'Try again; if it persists, restart brow serve.');
    });
  });

  server.keepAliveTimeout = KEEP_ALIVE_MS;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const denied = checkRequest(req, { host, port, token });
    if (denied) {
      // not a tool's failure: the request is refused before any tool runs
      return refuse(
        res,
        denied.status,
        'invalid_request',
        denied.reason,
        denied.status === 401
          ? 'Send the server token as Authorization: Bearer <token>.'
          : 'Call brow from a local program, not from a web page; use the address brow printed.',
      );
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    for (const route of opts.extraRoutes ?? []) if (await route(req, res, url)) return;
    if (req.method === 'GET' && url.pathname === '/healthz') return sendJson(res, 200, { ok: true });
    if (req.method === 'GET' && url.pathname === '/v1/tools')
      return sendJson(res, 200, { tools: toolList(runtime) });
    const m = /^\/v1\/tools\/([\w:.-]+)$/.exec(url.pathname);
    if (m) {
      if (req.method !== 'POST') {
        return refuse(
          res,
          405,
          'invalid_request',
          `${req.method} is not allowed here.`,
          'Use POST with a JSON body.',
        );
      }
      const raw = await readBody(req);
      let input: unknown = {};
      if (raw.trim()) {
        try {
          input = JSON.parse(raw);
        } catch {
          return refuse(
            res,
            400,
            'invalid_request',
            'The body is not JSON.',
            'Send the parameters as a JSON object.',
          );
        }
      }
      const owner = req.headers['x-brow-client'];
      return runTool(req, res, m[1]!, input, typeof owner === 'string' ? owner : null);
    }
    refuse(
      res,
      404,
      'invalid_request',
      `No route ${req.method} ${url.pathname}.`,
      'Tools are at POST /v1/tools/<name>; GET /v1/tools lists them.',
    );
  }

  /**
   * Run a tool for a request. A client that goes away before the answer aborts the call (a handoff or
   * wait ends, the page is freed). With `Accept: text/event-stream` the answer is a stream: `progress`
   * events ({done, total, message}) while the tool works, then one `result` event (the outcome).
   */
  async function runTool(
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    input: unknown,
    owner: string | null,
  ): Promise<void> {
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableEnded) gone.abort(new Error('the client went away'));
    };
    res.once('close', onClose);
    // a stream when asked for it first: a client that names JSON first gets JSON, as before
    const accept = req.headers.accept ?? '';
    const sse = accept.search(/\btext\/event-stream\b/);
    const json = accept.search(/\bapplication\/json\b/);
    const streaming = sse >= 0 && (json < 0 || sse < json);
    const event = (type: string, data: unknown) => {
      if (!res.writableEnded && !res.destroyed)
        res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    if (streaming) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.write(': brow tool call\n\n');
    }
    try {
      const outcome = await runtime.invoke(name, input, {
        owner,
        door: 'http',
        signal: gone.signal,
        ...(streaming
          ? {
              progress: (done: number, total?: number, message?: string) =>
                event('progress', {
                  done,
                  ...(total !== undefined ? { total } : {}),
                  ...(message ? { message } : {}),
                }),
            }
          : {}),
      });
      if (gone.signal.aborted) return;
      if (!streaming) return sendJson(res, 200, outcome);
      event('result', outcome);
      res.end();
    } finally {
      res.off('close', onClose);
    }
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
