/**
 * `GET /v1/events?session_id=&types=&since_seq=`: the core's event stream as server-sent events.
 * Each event's `id:` is `<session_id>:<seq>`; a reader resumes with since_seq (per session).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EVENT_TYPES, type BrowEvent, type BrowEventType, type Runtime } from '../../runtime/runtime.js';

export interface EventsRouteOptions {
  /** Comment line sent this often so proxies keep the stream open (default 15 s). */
  heartbeatMs?: number;
  /** A reader this far behind (bytes buffered) is cut off; it resumes with since_seq (default 4 MiB). */
  maxBufferedBytes?: number;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

function badRequest(res: ServerResponse, message: string, hint: string): true {
  res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      ok: false,
      content: `${message} ${hint}`,
      data: { error_code: 'invalid_request', message, hint },
    }),
  );
  return true;
}

/** The SSE route, for `startHttpServer(runtime, {extraRoutes: [eventsRoute(runtime)]})`. */
export function eventsRoute(runtime: Runtime, opts: EventsRouteOptions = {}): Route {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const maxBuffered = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
  return (req, res, url) => {
    if (url.pathname !== '/v1/events') return false;
    if (req.method !== 'GET')
      return badRequest(res, 'Use GET for /v1/events.', 'It is a server-sent event stream.');
    const sessionId = url.searchParams.get('session_id') || undefined;
    const types = (url.searchParams.get('types') ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
    if (unknown.length > 0) {
      return badRequest(
        res,
        `Unknown event type(s): ${unknown.join(', ')}.`,
        `Known types: ${EVENT_TYPES.join(', ')}.`,
      );
    }
    const sinceText = url.searchParams.get('since_seq');
    const sinceSeq = sinceText === null ? null : Number(sinceText);
    if (sinceSeq !== null && !(Number.isInteger(sinceSeq) && sinceSeq >= 0)) {
      return badRequest(
        res,
        `since_seq must be a whole number ≥ 0, not "${sinceText}".`,
        'Pass the seq of the last event you read.',
      );
    }
    const filter = { ...(sessionId ? { session_id: sessionId } : {}), types: types as BrowEventType[] };

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': brow events\n\n');

    let open = true;
    const seen = new Map<string, number>(); // last seq written per session: replay and live never double up
    const send = (e: BrowEvent): void => {
      if (!open || (seen.get(e.session_id) ?? 0) >= e.seq) return;
      seen.set(e.session_id, e.seq);
      res.write(`id: ${e.session_id}:${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
      // a reader that stopped reading must not grow our memory: cut it off, it can resume
      if (res.writableLength > maxBuffered) close();
    };
    // subscribe before replaying, so nothing emitted in between is lost; live events wait while the
    // history comes (a cluster gateway asks its workers for it), then follow it
    let held: BrowEvent[] | null = sinceSeq !== null ? [] : null;
    const unsubscribe = runtime.subscribe(filter, (e) => (held ? held.push(e) : send(e)));
    if (sinceSeq !== null) {
      void Promise.resolve(runtime.history(filter, sinceSeq))
        .catch(() => [])
        .then((past) => {
          const live = held ?? [];
          held = null;
          for (const e of [...past, ...live]) send(e);
        });
    }
    const heartbeat = setInterval(() => {
      if (open) res.write(': ping\n\n');
    }, heartbeatMs);
    heartbeat.unref();
    function close(): void {
      if (!open) return;
      open = false;
      unsubscribe();
      clearInterval(heartbeat);
      res.end();
    }
    req.on('close', close);
    res.on('close', close);
    return true;
  };
}
