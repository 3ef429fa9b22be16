/**
 * A brow command's own process parses arguments and talks to the daemon: it must not load the
 * browser driver or the page-reading libraries, which only the daemon uses (they cost most of a
 * second to import). A module loader hook in the child lists every module it loads.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../doors/helpers.js';
import { buildOnce, cliEnv, type CliEnv } from './helpers.js';

const MARK = 'brow-test-loaded ';
const hooks = `import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  writeSync(2, ${JSON.stringify(MARK)} + url + '\\n');
  return next(url, context);
}`;
const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
const IMPORT_HOOKS = `data:text/javascript,${encodeURIComponent(register)}`;

/** Only the daemon (or a builtin that runs a runtime) may load these. */
const DAEMON_ONLY = [
  /\/node_modules\/puppeteer-core\//,
  /\/node_modules\/sharp\//,
  /\/node_modules\/linkedom\//,
  /\/node_modules\/@mozilla\/readability\//,
  /\/node_modules\/turndown\//,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/iii-sdk\//,
  /\/dist\/core\/core\.js$/,
  /\/dist\/bundle\//,
];

let cli: CliEnv;

beforeAll(() => {
  buildOnce();
  cli = cliEnv('start-up');
}, 300_000);
afterAll(() => cli.cleanup());

/** Run `brow args…` with the hook; the daemon it may start is a plain child, without it. */
function loadedBy(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; loaded: string[] }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', IMPORT_HOOKS, BIN, ...args, '--session', cli.session], {
      cwd: ROOT,
      env: { ...process.env, ...cli.env, ...env },
    });
    let stderr = '';
    proc.stdout.resume();
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.once('close', (code) => {
      const loaded = stderr
        .split('\n')
        .filter((l) => l.startsWith(MARK))
        .map((l) => l.slice(MARK.length));
      resolve({ code, loaded });
    });
  });
}

const daemonOnly = (loaded: string[]) => loaded.filter((u) => DAEMON_ONLY.some((re) => re.test(u)));

describe('the CLI client loads no daemon-only module', () => {
  it('the hook sees what a process loads: brow doctor runs a runtime, so it loads the core', async () => {
    const r = await loadedBy(['doctor', '--json']);
    // from the runtime bundle, puppeteer-core inside it (the installed package has no node_modules for it)
    expect(r.loaded.some((u) => u.endsWith('/dist/bundle/main.js'))).toBe(true);
    expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/main.js'))).toBe(false);
    expect(r.loaded.some((u) => u.includes('/node_modules/puppeteer-core/'))).toBe(false);
    const unbundled = await loadedBy(['doctor', '--json'], { BROW_NO_BUNDLE: '1' });
    expect(unbundled.loaded.some((u) => u.includes('/node_modules/puppeteer-core/'))).toBe(true);
  });

  it.each([[['--help']], [['click', '--help']], [['read-page', '--help']], [['clik']]])(
    'brow %j',
    async (args) => {
      const r = await loadedBy(args);
      expect(r.code).not.toBeNull();
      expect(r.loaded.length).toBeGreaterThan(5);
      expect(daemonOnly(r.loaded)).toEqual([]);
    },
  );

  it('brow list-pages, answered by the daemon', async () => {
    const r = await loadedBy(['list-pages']);
    expect(r.code).toBe(0);
    expect(daemonOnly(r.loaded)).toEqual([]);
  });
});

describe('a browser command loads the CLI client as one bundle', () => {
  const own = (loaded: string[]) => loaded.filter((u) => u.startsWith('file:'));

  it('brow list-pages for a running daemon loads bin/brow.js and the quick client (dist/doors/cli/fast.bundle.js) only: no registry, no zod', async () => {
    await loadedBy(['list-pages']); // the daemon runs from here on
    const r = await loadedBy(['list-pages']);
    expect(r.code).toBe(0);
    expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/fast.bundle.js'))).toBe(true);
    expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/main.bundle.js'))).toBe(false);
    expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/main.js'))).toBe(false);
    expect(r.loaded.some((u) => u.includes('/node_modules/zod/'))).toBe(false);
    expect(own(r.loaded).length).toBeLessThanOrEqual(2);
  });

  it('BROW_NO_FAST=1 (and help) load dist/doors/cli/main.bundle.js (zod inside), not the ~90 modules of dist/', async () => {
    const cases: [string[], Record<string, string>][] = [
      [['list-pages'], { BROW_NO_FAST: '1' }],
      [['list-pages', '--help'], {}],
    ];
    for (const [args, env] of cases) {
      const r = await loadedBy(args, env);
      expect(r.code).toBe(0);
      expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/main.bundle.js'))).toBe(true);
      expect(r.loaded.some((u) => u.endsWith('/dist/doors/cli/main.js'))).toBe(false);
      expect(r.loaded.some((u) => u.includes('/node_modules/zod/'))).toBe(false);
      expect(own(r.loaded).length).toBeLessThanOrEqual(4);
    }
  });

  it('the quick client answers as the full one: a bad input (checked by the daemon), an unknown ref, --json, --version', async () => {
    const run = (args: string[], env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const proc = spawn(process.execPath, [BIN, ...args, '--session', cli.session], {
          cwd: ROOT,
          env: { ...process.env, ...cli.env, ...env },
        });
        let out = '';
        let err = '';
        proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
        proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
        proc.once('close', (code) => resolve({ code, out, err }));
      });
    await run(['list-pages'], {});
    const lines = [
      ['click'],
      ['click', '--json'],
      ['click', 'e999'],
      ['type', 'e1', 'x', '--delay-ms', 'y'],
      ['--version'],
    ];
    for (const args of lines) {
      const quick = await run(args, {});
      const full = await run(args, { BROW_NO_FAST: '1' });
      expect(quick, args.join(' ')).toEqual(full);
    }
  });

  it('the builtins that run a runtime here (doctor) load the runtime bundle; BROW_NO_BUNDLE loads dist/ as compiled', async () => {
    const doctor = await loadedBy(['doctor', '--json']);
    expect(doctor.loaded.some((u) => u.endsWith('/dist/doors/cli/main.bundle.js'))).toBe(false);
    expect(doctor.loaded.some((u) => u.endsWith('/dist/bundle/main.js'))).toBe(true);
    const unbundled = await loadedBy(['list-pages'], { BROW_NO_BUNDLE: '1' });
    expect(unbundled.code).toBe(0);
    expect(unbundled.loaded.some((u) => u.endsWith('/dist/doors/cli/main.js'))).toBe(true);
    expect(own(unbundled.loaded).length).toBeGreaterThan(own((await loadedBy(['list-pages'])).loaded).length);
  });
});
