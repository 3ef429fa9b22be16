/** `brow node` and `brow cluster status`: a cluster worker, and the cluster's workers listed (docs/cluster.md). */
import { parseArgs } from 'node:util';
import { NATS_CLI_OPTIONS, natsFromValues } from '../../cluster/cli.js';
import { extractConfigArgs, loadFromArgs } from './config-cmd.js';
import type { Streams } from './output.js';
import { own, UsageError } from './usage-error.js';

const needNats = (cmd: string) =>
  new UsageError(`brow ${cmd} needs --nats URL.`, {
    hint: 'Give the NATS server, e.g. --nats nats://127.0.0.1:4222 (or set BROW_NATS).',
  });

/** A NATS server that cannot be reached (or refuses the credentials), said as a usage problem. */
export function natsUnreachable(e: unknown): UsageError {
  // connectNats's error names what to fix (credentials, TLS, the server) in its hint
  const hint = (e as { hint?: unknown } | null)?.hint;
  return new UsageError(e instanceof Error ? e.message : String(e), {
    hint:
      typeof hint === 'string'
        ? hint
        : 'Check --nats (is nats-server running there?) and the credentials (--nats-token, --nats-user/--nats-pass, --nats-creds).',
  });
}

function checked<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError((e as Error).message, { hint: 'See brow --help for the NATS flags.' });
  }
}

/** `brow node --nats URL [--capacity N] [--name ID]`: this machine's Chromium, served to the cluster. */
export async function nodeCommand(argv: string[], io: Streams): Promise<number> {
  const config = extractConfigArgs(argv);
  const { values } = own('node', () =>
    parseArgs({
      args: config.rest,
      options: { ...NATS_CLI_OPTIONS, capacity: { type: 'string' }, name: { type: 'string' } },
    }),
  );
  const nats = checked(() => natsFromValues(values));
  if (!nats) throw needNats('node');
  const loaded = loadFromArgs(config).config;
  if (values.capacity !== undefined) {
    const n = Number(values.capacity);
    if (!Number.isInteger(n) || n < 1) {
      throw new UsageError(`--capacity ${values.capacity} is not a session count.`, {
        hint: 'Give 1 or more.',
      });
    }
    loaded.max_sessions = n;
  }
  if (values.name !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(values.name)) {
    throw new UsageError(`--name ${values.name} cannot name a worker.`, {
      hint: 'Use 1-64 of A-Z a-z 0-9 _ - (it goes into every session id and NATS subject).',
    });
  }
  const { runNode } = await import('../../cluster/cli.js');
  const code = await runNode(nats, loaded, values.name, (line) => io.err(`brow: ${line}\n`)).catch(
    (e: unknown) => {
      throw /NATS/.test(String(e)) ? natsUnreachable(e) : e;
    },
  );
  setTimeout(() => process.exit(code), 50).unref();
  return code;
}

/** `brow cluster status --nats URL [--json]`. */
export async function clusterCommand(argv: string[], io: Streams): Promise<number> {
  const { values, positionals } = own('cluster', () =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...NATS_CLI_OPTIONS, json: { type: 'boolean', default: false } },
    }),
  );
  const action = positionals[0] ?? 'status';
  if (action !== 'status') {
    throw new UsageError(`brow cluster has no "${action}".`, { hint: 'Use brow cluster status --nats URL.' });
  }
  const nats = checked(() => natsFromValues(values));
  if (!nats) throw needNats('cluster status');
  const { clusterStatus } = await import('../../cluster/cli.js');
  return clusterStatus(nats, values.json, io.out).catch((e: unknown) => {
    throw natsUnreachable(e);
  });
}
