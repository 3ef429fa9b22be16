/**
 * NATS security on a brow cluster (issue 19): nkey, TLS (with client certificates) and creds-file
 * (operator/account/user JWT) authentication against a real nats-server, a real `brow node` worker
 * and an in-process gateway. For each: a wrong credential is refused at once with a typed error
 * (BrowserError connection_failed and a reason; a worker exits non-zero saying why), and the right
 * one carries a whole session: start, open a fixture page, list it, click, read the effect.
 *
 * The keys, JWTs, CA and certificates are made here, at test time, into a temp dir: nkeys.js (the
 * nkey library nats.js itself uses) signs the JWTs, openssl makes the CA and certificates.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createOperator, createUser, type KeyPair } from 'nkeys.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRuntime } from '../../src/cluster/gateway.js';
import type { NatsOptions } from '../../src/cluster/connect.js';
import { BrowserError } from '../../src/core/errors.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { startNats, startWorker, type Nats, type Worker } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'brow-nats-auth-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text, { mode: 0o600 });
  return p;
};
const seedOf = (kp: KeyPair) => new TextDecoder().decode(kp.getSeed());

/** A NATS JWT (v2, "ed25519-nkey"): header.claims signed by the issuer's nkey, base64url. */
function natsJwt(issuer: KeyPair, subject: KeyPair, name: string, nats: Record<string, unknown>): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const header = b64(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
  const claims = b64(
    JSON.stringify({
      jti: randomBytes(16).toString('hex').toUpperCase(),
      iat: Math.floor(Date.now() / 1000),
      iss: issuer.getPublicKey(),
      name,
      sub: subject.getPublicKey(),
      nats: { ...nats, version: 2 },
    }),
  );
  const sig = Buffer.from(issuer.sign(new TextEncoder().encode(`${header}.${claims}`))).toString('base64url');
  return `${header}.${claims}.${sig}`;
}

const NO_LIMITS = { subs: -1, data: -1, payload: -1 };
const userJwt = (account: KeyPair, user: KeyPair) =>
  natsJwt(account, user, 'brow', { pub: {}, sub: {}, ...NO_LIMITS, type: 'user' });

/** A .creds file as `nsc` writes it: the user JWT and the user's seed, armored. */
const credsFile = (name: string, jwt: string, user: KeyPair) =>
  file(
    name,
    `-----BEGIN NATS USER JWT-----\n${jwt}\n------END NATS USER JWT------\n\n` +
      `-----BEGIN USER NKEY SEED-----\n${seedOf(user)}\n------END USER NKEY SEED------\n`,
  );

/** A throwaway CA and a certificate it signs (for 127.0.0.1, or a client name). */
function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}
function makeCert(ca: string, name: string, cn: string, san?: string): void {
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${cn}`,
  );
  const ext = san ? ['-extfile', file(`${name}.ext`, `subjectAltName=${san}\n`)] : [];
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '1',
    ...ext,
  );
}

let server: FixtureServer;
let nats: Nats | null = null;
const workers: Worker[] = [];
const gateways: ClusterRuntime[] = [];

beforeAll(async () => {
  ensureInjectedBuilt();
  server = await startFixtureServer();
}, 30_000);

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close().catch(() => undefined)));
  await Promise.all(workers.splice(0).map((w) => w.kill()));
  await nats?.stop();
  nats = null;
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The gateway's connect fails with BrowserError connection_failed and this reason. */
async function refused(o: NatsOptions, reason: string): Promise<void> {
  const err = await ClusterRuntime.connect(o).then(
    (g) => {
      gateways.push(g);
      return null;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BrowserError);
  expect((err as BrowserError).code).toBe('connection_failed');
  expect((err as BrowserError).details.reason, (err as Error).message).toBe(reason);
}

/** A worker given a wrong credential exits non-zero, saying NATS refused it (it never serves). */
async function workerRefused(url: string, flags: string[], why: RegExp): Promise<void> {
  const err = await startWorker(url, 'wx', flags).then(
    (w) => {
      workers.push(w);
      return null;
    },
    (e: unknown) => e as Error,
  );
  expect(err?.message).toMatch(/worker wx exited \(code [1-9]/);
  expect(err?.message).toMatch(why);
}

/** A whole session through the gateway on the authenticated worker: start, open, list, click, read. */
async function session(g: ClusterRuntime): Promise<void> {
  const call = async (name: string, input: Record<string, unknown> = {}) => {
    const o = await g.invoke(name, input);
    expect(o.ok, `${name}: ${o.content}`).toBe(true);
    return o.data as any;
  };
  const sid = (await call('browser_start_session')).session_id as string;
  expect(sid).toMatch(/^s-wauth-\d+$/);
  const page = (
    await call('browser_open_page', { session_id: sid, url: server.url('/cluster/counter.html') })
  ).page_id as string;
  const snap = await call('browser_list_elements', { page_id: page });
  const ref = (snap.snapshot.refs as any[]).find(
    (r) => r.role === 'button' && r.accessible_name === 'Add one',
  ).ref;
  await call('browser_click', { page_id: page, ref });
  const read = await call('browser_evaluate', {
    page_id: page,
    expression: "document.getElementById('count').textContent",
  });
  expect(read.value).toBe('Count: 1');
  const listed = (await call('browser_list_sessions')).sessions.map((s: any) => s.session_id);
  expect(listed).toContain(sid);
  await call('browser_stop_session', { session_id: sid });
}

describe('NATS security on a brow cluster', () => {
  it('nkey: a seed the server does not list is refused; the listed one runs a session', async () => {
    const user = createUser();
    const stranger = createUser();
    const conf = file('nkey.conf', `authorization { users = [ { nkey: ${user.getPublicKey()} } ] }\n`);
    nats = await startNats(['-c', conf]);
    const good = file('user.nk', `${seedOf(user)}\n`);
    const bad = file('stranger.nk', `${seedOf(stranger)}\n`);

    await refused({ url: nats.url }, 'nats_auth');
    await refused({ url: nats.url, nkey: bad }, 'nats_auth');
    await refused({ url: nats.url, nkey: join(dir, 'missing.nk') }, 'nats_credentials');
    // tls:// to a server that offers no TLS: said so, not a bare "tls"
    await refused({ url: nats.url.replace('nats:', 'tls:'), nkey: good }, 'nats_tls');
    await workerRefused(nats.url, ['--nats-nkey', bad], /Authorization Violation/i);

    workers.push(await startWorker(nats.url, 'wauth', ['--capacity', '2', '--nats-nkey', good]));
    const g = await ClusterRuntime.connect({ url: nats.url, nkey: good });
    gateways.push(g);
    await session(g);
  }, 90_000);

  it('TLS with client certificates: an untrusted server certificate is refused; the right CA and certificate run a session', async () => {
    const subj = ['-days', '1', '-subj'];
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      ...subj,
      '/CN=brow test CA',
    );
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'other-ca.key',
      '-out',
      'other-ca.pem',
      ...subj,
      '/CN=another CA',
    );
    makeCert('ca', 'server', '127.0.0.1', 'IP:127.0.0.1,DNS:localhost');
    makeCert('ca', 'client', 'brow-node');
    const p = (n: string) => join(dir, n);
    const conf = file(
      'tls.conf',
      `tls {\n  cert_file: "${p('server.pem')}"\n  key_file: "${p('server.key')}"\n  ca_file: "${p('ca.pem')}"\n  verify: true\n}\n`,
    );
    nats = await startNats(['-c', conf]);
    const url = `tls://127.0.0.1:${nats.port}`;
    const client = { tlsCert: p('client.pem'), tlsKey: p('client.key') };

    // the server's certificate is not signed by the CA the client trusts (nor by the system's)
    await refused({ url, tlsCa: p('other-ca.pem'), ...client }, 'nats_tls');
    await refused({ url, ...client }, 'nats_tls');
    // a plain nats:// URL does not skip TLS: the server requires it, the client still verifies it
    await refused({ url: nats.url, tlsCa: p('other-ca.pem'), ...client }, 'nats_tls');
    await workerRefused(
      url,
      [
        '--nats-tls-ca',
        p('other-ca.pem'),
        '--nats-tls-cert',
        p('client.pem'),
        '--nats-tls-key',
        p('client.key'),
      ],
      /certificate/i,
    );

    workers.push(
      await startWorker(url, 'wauth', [
        '--capacity',
        '2',
        '--nats-tls-ca',
        p('ca.pem'),
        '--nats-tls-cert',
        p('client.pem'),
        '--nats-tls-key',
        p('client.key'),
      ]),
    );
    const g = await ClusterRuntime.connect({ url, tlsCa: p('ca.pem'), ...client });
    gateways.push(g);
    await session(g);
  }, 90_000);

  it('creds file (operator, account and user JWTs): a user the operator did not sign is refused; a signed one runs a session', async () => {
    const operator = createOperator();
    const account = createAccount();
    const user = createUser();
    const operatorJwt = natsJwt(operator, operator, 'brow-test', { type: 'operator' });
    const accountJwt = natsJwt(operator, account, 'BROW', {
      limits: { ...NO_LIMITS, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 },
      default_permissions: { pub: {}, sub: {} },
      type: 'account',
    });
    const conf = file(
      'operator.conf',
      `operator: ${operatorJwt}\nresolver: MEMORY\nresolver_preload: {\n  ${account.getPublicKey()}: ${accountJwt}\n}\n`,
    );
    nats = await startNats(['-c', conf]);
    const good = credsFile('user.creds', userJwt(account, user), user);
    // signed by an account the operator never signed
    const rogue = createAccount();
    const stranger = createUser();
    const bad = credsFile('rogue.creds', userJwt(rogue, stranger), stranger);
    // the right JWT with another user's seed: the server's nonce signature does not match
    const stolen = credsFile('stolen.creds', userJwt(account, user), stranger);

    await refused({ url: nats.url }, 'nats_auth');
    await refused({ url: nats.url, creds: bad }, 'nats_auth');
    await refused({ url: nats.url, creds: stolen }, 'nats_auth');
    await workerRefused(nats.url, ['--nats-creds', bad], /Authorization Violation/i);

    workers.push(await startWorker(nats.url, 'wauth', ['--capacity', '2', '--nats-creds', good]));
    const g = await ClusterRuntime.connect({ url: nats.url, creds: good });
    gateways.push(g);
    await session(g);
  }, 90_000);
});
