/**
 * The web console at `/` (mounted on `brow serve` with extraRoutes): sessions and pages, a live
 * viewport per page (screencast frames over server-sent events), a person's input, pick, the
 * handoff queue and live console/network panes. Served by brow alone: no external network.
 * The HTTP server's guard (Host, Origin, token) has already run for every request.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_TABLE } from '../../runtime/error-table.js';
import { errorOutcome } from '../../runtime/invoke.js';
import { EVENT_TYPES, type Runtime } from '../../runtime/runtime.js';
import { eventsRoute } from '../http/events-route.js';
import { readBody, sendJson } from '../http/server.js';

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

const STATIC_DIR = new URL('./static/', import.meta.url);
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};
/** A viewer this far behind (bytes buffered) skips frames until it catches up. */
const MAX_BUFFERED = 2 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The static files, by name (read once at mount: only these names are ever served). */
function staticNames(): Set<string> {
  try {
    return new Set(readdirSync(STATIC_DIR).filter((f) => /^[\w-]+\.(js|css|svg|html)$/.test(f)));
  } catch {
    return new Set();
  }
}

function fail(res: ServerResponse, e: unknown): void {
  const outcome = errorOutcome(e);
  sendJson(res, ERROR_TABLE[outcome.data.error_code].http, outcome);
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  try {
    const v: unknown = raw.trim() ? JSON.parse(raw) : {};
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const point = (b: Record<string, unknown>): [number, number] => [Number(b.x), Number(b.y)];

/** The console's route, for `startHttpServer(runtime, {extraRoutes: [consoleRoute(runtime)]})`. */
export function consoleRoute(runtime: Runtime): Route {
  const live = runtime.live();
  const names = staticNames();
  const events = eventsRoute(runtime);

  async function page(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = url.searchParams.get('token') ?? '';
    const modules = [...names].filter((n) => n.endsWith('.js'));
    const qs = token ? `?token=${encodeURIComponent(token)}` : '';
    // module imports cannot carry the token themselves: an import map adds it to each
    const importMap = {
      imports: Object.fromEntries(modules.map((m) => [`/console/static/${m}`, `/console/static/${m}${qs}`])),
    };
    const mapText = JSON.stringify(importMap).replace(/</g, '\\u003c');
    const html = (await readFile(new URL('index.html', STATIC_DIR), 'utf8'))
      .replaceAll('{{TOKEN}}', () => escapeHtml(token))
      .replaceAll('{{QS}}', () => escapeHtml(qs))
      .replace('{{IMPORTMAP}}', () => mapText);
    // the import map is the page's only inline script: the policy allows exactly its text
    const inline = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const mapHash = createHash('sha256').update(inline).digest('base64');
    res.writeHead(200, {
      'content-type': TYPES.html!,
      'cache-control': 'no-store',
      'content-security-policy':
        `default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self' 'sha256-${mapHash}';` +
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
    });
    res.end(html);
    void req;
  }

  async function asset(res: ServerResponse, name: string): Promise<void> {
    if (!names.has(name) || name === 'index.html') {
      sendJson(res, 404, { ok: false, content: `No console file ${name}.` });
      return;
    }
    const body = await readFile(new URL(name, STATIC_DIR));
    res.writeHead(200, {
      'content-type': TYPES[name.split('.').pop()!] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  }

  function frames(req: IncomingMessage, res: ServerResponse, pageId: string): void {
    let open = true;
    let off: () => void = () => undefined;
    const close = () => {
      if (!open) return;
      open = false;
      off();
      clearInterval(heartbeat);
      res.end();
    };
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': brow frames\n\n');
    const heartbeat = setInterval(() => open && res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    req.on('close', close);
    res.on('close', close);
    off = live.watch(pageId, {
      frame: (f) => {
        if (!open || res.writableLength > MAX_BUFFERED) return;
        res.write(`event: frame\ndata: ${JSON.stringify(f)}\n\n`);
      },
      end: () => {
        if (open) res.write('event: end\ndata: {}\n\n');
        close();
      },
    });
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const get = req.method === 'GET';
    if (get && path === 'overview') return sendJson(res, 200, { ok: true, data: await live.overview() });
    if (get && path === 'event-types') return sendJson(res, 200, { ok: true, data: { types: EVENT_TYPES } });
    if (get && path === 'events') {
      events(req, res, new URL(`/v1/events${url.search}`, url));
      return;
    }
    let m = /^pages\/([\w-]+)\/(frames|input|inspect|pick|dialog)$/.exec(path);
    if (m) {
      const [, pageId = '', what] = m;
      if (what === 'frames' && get) return frames(req, res, pageId);
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, content: 'Use POST.' });
      const body = await jsonBody(req);
      if (what === 'input') {
        const list = Array.isArray(body.events) ? body.events : [body];
        for (const ev of list) await live.input(pageId, ev);
        return sendJson(res, 200, { ok: true });
      }
      if (what === 'dialog') {
        const out = await runtime.invoke('browser_handle_dialog', { page_id: pageId, ...body });
        return sendJson(res, out.ok ? 200 : ERROR_TABLE[out.data.error_code].http, out);
      }
      const element = await (what === 'pick' ? live.pick : live.inspect)(pageId, ...point(body));
      return sendJson(res, 200, { ok: true, data: element });
    }
    m = /^handoffs\/([\w-]+)\/confirm$/.exec(path);
    if (m && req.method === 'POST') {
      const out = await runtime.invoke('browser_confirm_handoff', { handoff_id: m[1] });
      return sendJson(res, out.ok ? 200 : ERROR_TABLE[out.data.error_code].http, out);
    }
    m = /^sessions\/([\w-]+)\/(console|network)$/.exec(path);
    if (m && get) {
      const name = m[2] === 'console' ? 'browser_read_console' : 'browser_read_network';
      const out = await runtime.invoke(name, { session_id: m[1], limit: 200, clear: false });
      return sendJson(res, out.ok ? 200 : ERROR_TABLE[out.data.error_code].http, out);
    }
    sendJson(res, 404, { ok: false, content: `No console route ${req.method} /console/api/${path}.` });
  }

  return async (req, res, url) => {
    const p = url.pathname;
    if (req.method === 'GET' && (p === '/' || p === '/console' || p === '/console/')) {
      await page(req, res, url);
      return true;
    }
    if (p.startsWith('/console/static/') && req.method === 'GET') {
      await asset(res, p.slice('/console/static/'.length));
      return true;
    }
    if (!p.startsWith('/console/api/')) return false;
    try {
      await api(req, res, p.slice('/console/api/'.length), url);
    } catch (e) {
      if (!res.headersSent) fail(res, e);
      else res.end();
    }
    return true;
  };
}
