/**
 * The CLI daemon: one per profile, holding a BrowRuntime (and so its Chromium) between commands.
 * It listens on a private unix socket and answers one newline-delimited JSON request per
 * connection: `{op:"invoke", name, input}` → `{outcome}`, `{op:"status"}`, `{op:"stop"}`.
 * After `idleMs` without a request it closes the browser and exits.
 */
import { existsSync, statSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { LoadedConfig } from '../lib/config.js';
import { onStopSignals } from '../../runtime/stop-signals.js';
import { profilePaths } from './runtime-dir.js';

export interface DaemonRequest {
  op: 'invoke' | 'status' | 'stop' | 'ping';
  /** invoke: the CLI command typed, whose client left checking the input to the daemon (fast.ts). */
  cli?: string;
  name?: string;
  input?: unknown;
  /** invoke: send `{progress: {done, total?, message?}}` lines before the answer line. */
  progress?: boolean;
}

/**
 * Which build of brow this process runs: a daemon started before a rebuild or upgrade differs. Read
 * from dist/doors/cli/daemon.js, which the CLI bundle (main.bundle.js, beside it) and the daemon share.
 */
export const BUILD = String(
  statSync(
    [new URL('./daemon.js', import.meta.url), new URL(import.meta.url)].find((u) => existsSync(u)) ??
      fileURLToPath(import.meta.url),
  ).mtimeMs,
);

export interface DaemonStatus {
  profile: string;
  pid: number;
  socket: string;
  started_at: number;
  last_used_at: number;
  idle_timeout_ms: number;
  /** After this long without a call a browser session (and its pages) stops. */
  session_idle_stop_ms: number;
  in_flight: number;
  config_file: string | null;
  build: string;
  cwd: string;
  sessions: unknown[];
  /** The web console this daemon serves (token included), or null. */
  console_url: string | null;
}

export interface DaemonOptions {
  profile: string;
  idleMs: number;
  loaded: LoadedConfig;
}

const log = (msg: string) =>
  process.stderr.write(`${new Date().toISOString()} brow daemon[${process.pid}]: ${msg}\n`);

/**
 * The daemon's configuration: browser sessions live as long as the daemon. A session idles out after
 * the daemon's own idle time (or the usual 5 minutes when the daemon's is shorter: the daemon exits
 * first then, and a slow call never outlives a short session timer), unless `idle_stop_ms` is
 * configured (file or BROW_IDLE_STOP_MS), which still sets it.
 */
export function daemonConfig(opts: DaemonOptions): LoadedConfig['config'] {
  const { config, sources } = opts.loaded;
  if (sources.idle_stop_ms !== 'default') return config;
  return { ...config, idle_stop_ms: Math.max(config.idle_stop_ms, opts.idleMs) };
}

/** Does something answer on this socket? */
export function probe(socket: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    const done = (v: boolean) => {
      c.destroy();
      resolve(v);
    };
    c.setTimeout(timeoutMs, () => done(false));
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
  });
}

async function listen(server: Server, socket: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socket, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      // another daemon won the race, or a dead one left its socket behind
      if (await probe(socket)) return false;
      if (existsSync(socket)) unlinkSync(socket);
    }
  }
  return false;
}

/** Run the daemon until it is stopped or idle; resolves with the process exit code. */
export async function runDaemon(opts: DaemonOptions): Promise<number> {
  const { socket } = profilePaths(opts.profile);
  // loaded here, not at the top: the CLI client imports this file for probe() and BUILD only
  // with BROW_NATS set, the daemon is a gateway to a brow cluster (docs/cluster.md)
  const { daemonRuntime } = await import('../../cluster/cli.js');
  const runtime = await daemonRuntime(daemonConfig(opts));
  // the web console starts once this daemon owns the socket (a daemon that lost the race serves none)
  const { consoleFromConfig } = await import('../console/serve-console.js');
  let consoleDoor: ReturnType<typeof consoleFromConfig> | null = null;
  const startedAt = Date.now();
  let lastUsed = startedAt;
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | null = null;
  let finished!: (code: number) => void;
  const done = new Promise<number>((r) => (finished = r));

  const shutdown = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log(`stopping (${why})`);
      if (idleTimer) clearTimeout(idleTimer);
      server.close();
      await consoleDoor?.close().catch(() => undefined);
      await runtime.close().catch((e: unknown) => log(`closing the browser failed: ${String(e)}`));
      try {
        unlinkSync(socket);
      } catch {
        // already gone
      }
      finished(0);
    })();
    return stopping;
  };
  const armIdle = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (inFlight === 0) void shutdown(`idle for ${opts.idleMs} ms`);
      else armIdle();
    }, opts.idleMs);
  };

  const status = async (): Promise<DaemonStatus> => {
    const sessions = await runtime.invoke('browser_list_sessions', {});
    return {
      profile: opts.profile,
      pid: process.pid,
      socket,
      started_at: startedAt,
      last_used_at: lastUsed,
      idle_timeout_ms: opts.idleMs,
      session_idle_stop_ms: runtime.config.idle_stop_ms,
      in_flight: inFlight - 1,
      config_file: opts.loaded.file,
      build: BUILD,
      cwd: process.cwd(),
      sessions: sessions.ok ? ((sessions.data.sessions as unknown[]) ?? []) : [],
      console_url: (await consoleDoor?.ready)?.url ?? null,
    };
  };

  const answer = async (req: DaemonRequest, sock: Socket, gone: AbortSignal): Promise<unknown> => {
    if (req.op === 'invoke') {
      if (req.cli) {
        // the quick client does not load the registry: check its input here, as the full CLI would
        const usage = await cliCheck(String(req.cli), String(req.name), req.input);
        if (usage) return { usage, daemon: { config_file: opts.loaded.file, build: BUILD } };
      }
      const progress = req.progress
        ? (done: number, total?: number, message?: string) => {
            if (!gone.aborted && sock.writable)
              sock.write(`${JSON.stringify({ progress: { done, total, message } })}\n`);
          }
        : undefined;
      const outcome = await runtime.invoke(String(req.name), req.input ?? {}, {
        signal: gone,
        ...(progress ? { progress } : {}),
      });
      return { outcome, daemon: { config_file: opts.loaded.file, build: BUILD } };
    }
    if (req.op === 'status') return { status: await status() };
    if (req.op === 'stop') return { stopping: true };
    return { pong: true };
  };

  const onConnection = (sock: Socket) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('error', () => undefined);
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      // one request per connection: read on only to hear the client leave (Ctrl-C), which cancels the call
      sock.removeAllListeners('data');
      sock.on('data', () => undefined);
      const gone = new AbortController();
      let answered = false;
      const left = () => {
        if (!answered) gone.abort(new Error('the client went away'));
      };
      sock.once('end', left);
      sock.once('close', left);
      inFlight++;
      lastUsed = Date.now();
      if (idleTimer) clearTimeout(idleTimer);
      void (async () => {
        let reply: unknown;
        let req: DaemonRequest | null = null;
        try {
          req = JSON.parse(line) as DaemonRequest;
          reply = await answer(req, sock, gone.signal);
        } catch (e) {
          reply = { error: String(e) };
        }
        answered = true;
        if (sock.writable) sock.end(`${JSON.stringify(reply)}\n`);
        inFlight--;
        lastUsed = Date.now();
        if (req?.op === 'stop') void shutdown('asked to stop');
        else if (!stopping) armIdle();
      })();
    });
  };

  const server = createServer(onConnection);
  if (!(await listen(server, socket))) {
    log(`another daemon already serves profile "${opts.profile}"; leaving it be`);
    await runtime.close();
    return 0;
  }
  consoleDoor = consoleFromConfig(runtime, log);
  log(
    `profile "${opts.profile}" listening on ${socket}; idle timeout ${opts.idleMs} ms; browser sessions stop after ${runtime.config.idle_stop_ms} ms idle`,
  );
  armIdle();
  onStopSignals((signal) => void shutdown(signal), ['SIGTERM', 'SIGINT', 'SIGHUP']);
  return done;
}

/** The CLI's own input check (argv.ts checkInput) for `command`, run here; its message and hint when it fails. */
async function cliCheck(
  command: string,
  name: string,
  input: unknown,
): Promise<{ message: string; hint: string } | null> {
  const [{ capabilityCommands }, { checkInput }, { UsageError }] = await Promise.all([
    import('./commands.js'),
    import('./argv.js'),
    import('./usage-error.js'),
  ]);
  const spec = capabilityCommands().get(command);
  if (!spec || spec.capability.name !== name) return null;
  try {
    checkInput(spec.command, spec.fields, spec.capability.input, input);
    return null;
  } catch (e) {
    if (e instanceof UsageError) return { message: e.message, hint: e.hint };
    throw e;
  }
}
