/**
 * Connecting to NATS: the URL and credentials a gateway or worker was given (token, user and
 * password, an nkey seed or a creds file, tls://), and the subject prefix that keeps two clusters
 * on one NATS server apart. nats.js is loaded only here, so nothing else pays for it.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions, NatsConnection } from 'nats';

/**
 * The nats.js module. nats is CommonJS: bundled (dist/bundle), a dynamic import of it may give its
 * exports as `default` only, so both shapes are read here, the one place the cluster loads it.
 */
export async function natsModule(): Promise<typeof import('nats')> {
  const m = (await import('nats')) as typeof import('nats') & { default?: typeof import('nats') };
  return typeof m.connect === 'function' ? m : (m.default ?? m);
}

export interface NatsOptions {
  /** nats://host:4222, tls://host:4222, or several comma-separated. */
  url: string;
  /** Subject prefix (default "brow"): two clusters sharing a NATS server use different ones. */
  prefix?: string;
  token?: string;
  user?: string;
  pass?: string;
  /** A .creds file (JWT + nkey seed), as `nsc` writes it. */
  creds?: string;
  /** A file holding an nkey seed (SU…). */
  nkey?: string;
  /** TLS files; a tls:// URL alone uses the system's CAs. */
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** The connection's name as the NATS server shows it. */
  name?: string;
}

/** The prefix's subjects must stay single tokens: letters, digits, _ and -, dots between. */
export function checkPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new Error(`--nats-prefix "${prefix}" must be tokens of A-Z a-z 0-9 _ - joined by dots.`);
  }
  return prefix;
}

/** nats.js connection options from ours (credentials from the URL's user:pass@ too). */
export async function connectionOptions(o: NatsOptions): Promise<ConnectionOptions> {
  const nats = await natsModule();
  const servers: string[] = [];
  let user = o.user;
  let pass = o.pass;
  let token = o.token;
  let tls = !!(o.tlsCa || o.tlsCert || o.tlsKey);
  for (const raw of o.url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const u = new URL(raw.includes('://') ? raw : `nats://${raw}`);
    if (u.protocol === 'tls:') tls = true;
    if (u.username && !u.password && !user && !token) token = decodeURIComponent(u.username);
    else if (u.username) {
      user ??= decodeURIComponent(u.username);
      pass ??= decodeURIComponent(u.password);
    }
    servers.push(`${u.hostname.includes(':') ? `[${u.hostname}]` : u.hostname}:${u.port || 4222}`);
  }
  const opts: ConnectionOptions = {
    servers,
    name: o.name ?? 'brow',
    // reconnect for as long as it takes: a NATS restart must not end a worker or a gateway
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  };
  if (token) opts.token = token;
  if (user) {
    opts.user = user;
    if (pass !== undefined) opts.pass = pass;
  }
  if (o.creds) opts.authenticator = nats.credsAuthenticator(readFileSync(o.creds));
  else if (o.nkey)
    opts.authenticator = nats.nkeyAuthenticator(
      new TextEncoder().encode(readFileSync(o.nkey, 'utf8').trim()),
    );
  if (tls) {
    opts.tls = {
      ...(o.tlsCa ? { caFile: o.tlsCa } : {}),
      ...(o.tlsCert ? { certFile: o.tlsCert } : {}),
      ...(o.tlsKey ? { keyFile: o.tlsKey } : {}),
    };
  }
  return opts;
}

/** Why a connection failed, from nats.js's and Node's error codes: credentials, TLS, or the server. */
export function connectFailure(
  e: unknown,
): 'nats_auth' | 'nats_tls' | 'nats_credentials' | 'nats_unreachable' {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  if (/AUTHORIZATION|AUTHENTICATION|PERMISSIONS/i.test(code) || /authorization violation/i.test(msg))
    return 'nats_auth';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)/i.test(code) || /\b(tls|ssl|certificate)\b/i.test(msg))
    return 'nats_tls';
  if (code === 'ENOENT' || code === 'EACCES' || /seed|creds|nkey|jwt/i.test(msg)) return 'nats_credentials';
  return 'nats_unreachable';
}

const HINTS: Record<ReturnType<typeof connectFailure>, string> = {
  nats_auth:
    'The NATS server refused the credentials: check --nats-token, --nats-user/--nats-pass, --nats-nkey (a seed the server lists) or --nats-creds (a user JWT its operator and account signed).',
  nats_tls:
    'TLS failed: give the CA that signed the server certificate (--nats-tls-ca), and a client certificate (--nats-tls-cert/--nats-tls-key) if the server verifies clients.',
  nats_credentials:
    'A credentials or TLS file could not be read or parsed: check the files given to --nats-nkey, --nats-creds and --nats-tls-*.',
  nats_unreachable: 'Check --nats (is nats-server running there, on that port?).',
};

/**
 * Connect; a failure is a BrowserError `connection_failed` whose `reason` says what to fix
 * (nats_auth, nats_tls, nats_credentials, nats_unreachable), with the server named (credentials hidden).
 */
export async function connectNats(o: NatsOptions): Promise<NatsConnection> {
  const [{ connect }, { BrowserError }] = await Promise.all([natsModule(), import('../core/errors.js')]);
  try {
    return await connect(await connectionOptions(o));
  } catch (e) {
    let why = e instanceof Error ? e.message : String(e);
    const reason = connectFailure(e);
    // nats.js says only "tls" when the client wants TLS and the server offers none
    if ((e as { code?: unknown } | null)?.code === 'SERVER_OPT_NA' && why === 'tls')
      why =
        'this NATS server does not offer TLS (use nats:// and no --nats-tls-* files, or enable tls on the server)';
    // a mutual-TLS server that wants a client certificate closes after the TLS 1.3 handshake: nats.js sees a timeout
    if (
      reason === 'nats_unreachable' &&
      /timeout/i.test(why) &&
      (/(^|,)\s*tls:/i.test(o.url) || o.tlsCa || o.tlsCert)
    )
      why +=
        ' (a TLS server that requires a client certificate ends the connection like this: --nats-tls-cert/--nats-tls-key)';
    throw new BrowserError(
      'connection_failed',
      `Cannot connect to NATS at ${o.url.replace(/\/\/[^@/]*@/g, '//***@')}: ${why}`,
      {
        cause: e,
        hint: HINTS[reason],
        details: { reason },
      },
    );
  }
}
