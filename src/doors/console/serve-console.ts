/**
 * The web console for doors without an HTTP server of their own (`brow mcp`, the CLI daemon): the
 * same server `brow serve` runs (tool API, events, console, its Host/Origin/token guard) on a
 * loopback port, with a token of its own so no other local program can drive the browser without
 * the printed URL. The URL is recorded on the core, so handoffs and the doctor can name it.
 */
import { randomBytes } from 'node:crypto';
import type { Runtime } from '../../runtime/runtime.js';

export interface ConsoleServer {
  /** The console's URL, token included. */
  url: string;
  close(): Promise<void>;
}

export interface ConsoleOptions {
  /** 0 = a free port. */
  port: number;
  /** Default: BROW_TOKEN, else a random one. */
  token?: string;
  /** Where to say what happens (stderr, the daemon log): one line each. */
  log: (line: string) => void;
}

/** Serve the console on 127.0.0.1; resolves once it listens. */
export async function startConsole(runtime: Runtime, opts: ConsoleOptions): Promise<ConsoleServer> {
  const [{ consoleRoute }, { eventsRoute }, { startHttpServer }] = await Promise.all([
    import('./routes.js'),
    import('../http/events-route.js'),
    import('../http/server.js'),
  ]);
  const token = opts.token || process.env.BROW_TOKEN || randomBytes(18).toString('base64url');
  const server = await startHttpServer(runtime, {
    host: '127.0.0.1',
    port: opts.port,
    token,
    extraRoutes: [eventsRoute(runtime), consoleRoute(runtime)],
  });
  const url = `${server.url}/?token=${encodeURIComponent(token)}`;
  // a person is needed: say where to go, beside the agent's own answer
  const off = runtime.subscribe({ types: ['handoff-requested', 'pick-requested'] }, (e) => {
    const at = new URL(url);
    at.searchParams.set('page', String(e.page_id));
    const what = e.type === 'pick-requested' ? 'to pick an element' : '';
    opts.log(
      `a person is needed ${what ? `${what} ` : ''}on page ${String(e.page_id)}: ${String(e.instructions)} — open ${at.toString()}`,
    );
  });
  return {
    url,
    close: async () => {
      off();
      await server.close();
    },
  };
}

/**
 * Start the console when the configuration says so (`console`, `console_port`), recording its URL
 * on the core at once (as a promise) so a handoff that starts meanwhile waits for it. A console that
 * cannot start (its port taken) is logged and left out: the door still works without it.
 */
export function consoleFromConfig(
  runtime: Runtime,
  log: (line: string) => void,
): { ready: Promise<ConsoleServer | null>; close(): Promise<void> } {
  if (!runtime.config.console) {
    runtime.setConsoleUrl(null);
    return { ready: Promise.resolve(null), close: () => Promise.resolve() };
  }
  const ready = startConsole(runtime, { port: runtime.config.console_port, log }).then(
    (c) => {
      log(`web console at ${c.url}`);
      return c;
    },
    (e: unknown) => {
      log(
        `no web console: ${e instanceof Error ? e.message : String(e)} (--console-port N picks another port)`,
      );
      return null;
    },
  );
  runtime.setConsoleUrl(ready.then((c) => c?.url ?? null));
  return { ready, close: async () => (await ready)?.close() };
}
