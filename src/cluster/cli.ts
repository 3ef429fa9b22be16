/** `brow node` (a worker), `brow cluster status`, and the --nats flags serve and mcp share. */
import type { BrowConfigInput } from '../runtime/config.js';
import type { Runtime } from '../runtime/runtime.js';
import { onStopSignals } from '../runtime/stop-signals.js';
import { checkPrefix, type NatsOptions } from './connect.js';

/** The NATS flags, for node:util parseArgs (with BROW_NATS* variables as defaults). */
export const NATS_CLI_OPTIONS = {
  nats: { type: 'string', default: process.env.BROW_NATS },
  'nats-prefix': { type: 'string', default: process.env.BROW_NATS_PREFIX ?? 'brow' },
  'nats-token': { type: 'string', default: process.env.BROW_NATS_TOKEN },
  'nats-user': { type: 'string', default: process.env.BROW_NATS_USER },
  'nats-pass': { type: 'string', default: process.env.BROW_NATS_PASS },
  'nats-creds': { type: 'string', default: process.env.BROW_NATS_CREDS },
  'nats-nkey': { type: 'string', default: process.env.BROW_NATS_NKEY },
  'nats-tls-ca': { type: 'string', default: process.env.BROW_NATS_TLS_CA },
  'nats-tls-cert': { type: 'string', default: process.env.BROW_NATS_TLS_CERT },
  'nats-tls-key': { type: 'string', default: process.env.BROW_NATS_TLS_KEY },
} as const;

export const NATS_USAGE =
  '--nats URL (nats:// or tls://, or BROW_NATS) [--nats-prefix P] [--nats-token T | --nats-user U --nats-pass P | --nats-creds FILE | --nats-nkey FILE] [--nats-tls-ca/-cert/-key FILE]';

type NatsValues = { [K in keyof typeof NATS_CLI_OPTIONS]?: string | undefined };

/** Our NATS options from parsed flags; null without --nats. */
export function natsFromValues(v: NatsValues): NatsOptions | null {
  if (!v.nats) return null;
  const pick = (from: keyof NatsValues, to: keyof NatsOptions) => (v[from] ? { [to]: v[from] } : {});
  return {
    url: v.nats,
    prefix: checkPrefix(v['nats-prefix'] ?? 'brow'),
    ...pick('nats-token', 'token'),
    ...pick('nats-user', 'user'),
    ...pick('nats-pass', 'pass'),
    ...pick('nats-creds', 'creds'),
    ...pick('nats-nkey', 'nkey'),
    ...pick('nats-tls-ca', 'tlsCa'),
    ...pick('nats-tls-cert', 'tlsCert'),
    ...pick('nats-tls-key', 'tlsKey'),
  };
}

/** The NATS URL without the credentials it may carry (user:pass@, token@), for logs. */
export const redact = (url: string): string => url.replace(/\/\/[^@/]*@/g, '//***@');

/** A gateway runtime on the cluster (the doors' config for its own settings). */
export async function gatewayRuntime(nats: NatsOptions, config: BrowConfigInput): Promise<Runtime> {
  const { ClusterRuntime } = await import('./gateway.js');
  return ClusterRuntime.connect(nats, config);
}

/**
 * The CLI daemon's runtime: a gateway when BROW_NATS names a cluster (with BROW_NATS_PREFIX,
 * BROW_NATS_TOKEN, … as for the --nats flags), else a core in this process.
 */
export async function daemonRuntime(config: BrowConfigInput): Promise<Runtime> {
  const nats = natsFromValues({
    nats: process.env.BROW_NATS,
    'nats-prefix': process.env.BROW_NATS_PREFIX,
    'nats-token': process.env.BROW_NATS_TOKEN,
    'nats-user': process.env.BROW_NATS_USER,
    'nats-pass': process.env.BROW_NATS_PASS,
    'nats-creds': process.env.BROW_NATS_CREDS,
    'nats-nkey': process.env.BROW_NATS_NKEY,
    'nats-tls-ca': process.env.BROW_NATS_TLS_CA,
    'nats-tls-cert': process.env.BROW_NATS_TLS_CERT,
    'nats-tls-key': process.env.BROW_NATS_TLS_KEY,
  });
  if (nats) return gatewayRuntime(nats, config);
  const { BrowRuntime } = await import('../runtime/runtime.js');
  return new BrowRuntime(config);
}

/** `brow node`: serve this machine's Chromium to the cluster until SIGTERM (drain) or SIGINT. */
export async function runNode(
  nats: NatsOptions,
  config: BrowConfigInput,
  name: string | undefined,
  log: (line: string) => void,
): Promise<number> {
  const [{ BrowRuntime, setWorkerId }, { ClusterWorker }, { WORKER_ID }] = await Promise.all([
    import('../runtime/runtime.js'),
    import('./worker.js'),
    import('../core/ids.js'),
  ]);
  // before any id is made: every session and page id names this worker
  if (name) setWorkerId(name);
  const id = name ?? WORKER_ID;
  const runtime = new BrowRuntime(config);
  const worker = await ClusterWorker.start(runtime, { ...nats, id, log }).catch(async (e: unknown) => {
    await runtime.close();
    throw e;
  });
  // sessions will come: launch Chromium now, not on the first one
  if (runtime.config.prelaunch) runtime.prelaunch();
  log(
    `worker ${id} serving up to ${runtime.config.max_sessions} sessions on ${redact(nats.url)} (prefix ${nats.prefix ?? 'brow'})`,
  );
  return new Promise<number>((resolve) => {
    // SIGTERM drains (running calls finish), SIGINT closes
    onStopSignals((signal) => {
      void (signal === 'SIGTERM' ? worker.drain() : worker.close()).finally(() => {
        log(`worker ${id} left the cluster`);
        resolve(0);
      });
    });
  });
}

const HEARTBEAT_WAIT_MS = 1200;

/** `brow cluster status`: the workers the cluster has now. */
export async function clusterStatus(
  nats: NatsOptions,
  json: boolean,
  out: (s: string) => void,
): Promise<number> {
  const [{ connectNats }, { WorkerTable }, { subjects }] = await Promise.all([
    import('./connect.js'),
    import('./workers.js'),
    import('./subjects.js'),
  ]);
  const nc = await connectNats({ ...nats, name: 'brow-cluster-status' });
  try {
    const table = new WorkerTable(nc, subjects(nats.prefix ?? 'brow'));
    // a second of heartbeats first: every live worker is then known, and a busy one is waited for
    await new Promise((r) => setTimeout(r, HEARTBEAT_WAIT_MS));
    const workers = await table.refresh();
    if (json) out(`${JSON.stringify({ workers })}\n`);
    else if (workers.length === 0)
      out(`No brow worker on ${redact(nats.url)} (prefix ${nats.prefix ?? 'brow'}).\n`);
    else {
      const rows = [
        ['WORKER', 'SESSIONS', 'LOAD', 'CHROMIUM', 'UPTIME', 'HOST', 'STATE'],
        ...workers.map((w) => [
          w.id,
          `${w.sessions}/${w.capacity}`,
          String(w.load),
          (w.chromium_version ?? '?').replace(/ built on .*/, ''),
          `${w.uptime_s} s`,
          `${w.host}:${w.pid}`,
          w.draining ? 'draining' : 'up',
        ]),
      ];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows)
        out(
          `${r
            .map((c, i) => c.padEnd(widths[i]!))
            .join('  ')
            .trimEnd()}\n`,
        );
    }
    return workers.length > 0 ? 0 : 1;
  } finally {
    await nc.close();
  }
}
