/**
 * Every way loadConfig can fail is a BrowserError with code `invalid_config` whose message and hint
 * name the file (or the layer) at fault: missing, unreadable, not JSON, not an object, a bad key.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserError } from '../../src/core/errors.js';
import { loadConfig as loadConfigCore } from '../../src/core/config-load.js';
import { main } from '../../src/doors/cli/main.js';
import { BrowError, loadConfig } from '../../src/index.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';

const dir = mkdtempSync(join(tmpdir(), 'brow-cfg-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A file in the test dir holding exactly `text`. */
function file(text: string): string {
  const f = join(dir, `c${++n}.json`);
  writeFileSync(f, text);
  return f;
}

/** The error loadConfig throws (fails the test when it does not throw). */
function failure(run: () => unknown): BrowserError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(BrowserError);
    return e as BrowserError;
  }
  throw new Error('loadConfig did not throw');
}

/** An invalid_config error naming `path` in its message, hint and details. */
function expectFileError(e: BrowserError, path: string, message: RegExp): void {
  expect(e.code).toBe('invalid_config');
  expect(e.message).toMatch(message);
  expect(e.message).toContain(path);
  expect(e.hint).toContain(path);
  expect(e.details.file).toBe(path);
  expect(e.toJSON()).toMatchObject({ error_code: 'invalid_config', file: path });
}

describe('loadConfig failures are invalid_config BrowserErrors', () => {
  it('a missing file, as docs/library.md calls it: the package entry throws its BrowError', () => {
    const missing = join(dir, 'brow.config.json');
    let thrown: unknown;
    try {
      loadConfig({ file: missing, env: {} });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BrowError);
    const e = thrown as BrowError;
    expect(e.code).toBe('invalid_config');
    expect(e.message).toMatch(/does not exist/);
    expect(e.message).toContain(missing);
    expect(e.hint).toMatch(/^Create /);
    expect(e.data.file).toBe(missing);
  });

  it('a missing file named by BROW_CONFIG', () => {
    const missing = join(dir, 'from-env.json');
    const e = failure(() => loadConfigCore({ env: { BROW_CONFIG: missing } }));
    expectFileError(e, missing, /does not exist/);
  });

  it('a relative path is reported as the absolute file it resolved to', () => {
    const e = failure(() => loadConfigCore({ file: 'no-such-brow-config.json', env: {} }));
    expectFileError(e, join(process.cwd(), 'no-such-brow-config.json'), /does not exist/);
  });

  it('a file that cannot be read: a directory', () => {
    const sub = join(dir, 'a-directory.json');
    mkdirSync(sub);
    expectFileError(
      failure(() => loadConfigCore({ file: sub, env: {} })),
      sub,
      /is a directory/,
    );
  });

  // root reads any file whatever its mode, so permission denied can only be provoked as another user
  it.skipIf(process.getuid?.() === 0)('a file that cannot be read: no read permission', () => {
    const f = file('{}');
    chmodSync(f, 0o000);
    try {
      expectFileError(
        failure(() => loadConfigCore({ file: f, env: {} })),
        f,
        /not readable/,
      );
    } finally {
      chmodSync(f, 0o600);
    }
  });

  it('bad JSON, and an empty file', () => {
    const trailing = file('{"max_sessions": 8,}');
    expectFileError(
      failure(() => loadConfigCore({ file: trailing, env: {} })),
      trailing,
      /is not valid JSON: /,
    );
    const empty = file('  \n');
    expectFileError(
      failure(() => loadConfigCore({ file: empty, env: {} })),
      empty,
      /is not valid JSON: the file is empty/,
    );
  });

  it('JSON that is not an object', () => {
    for (const [text, kind] of [
      ['[1, 2]', 'an array'],
      ['null', 'null'],
      ['"max_sessions"', 'a string'],
      ['8', 'a number'],
    ] as const) {
      const f = file(text);
      expectFileError(
        failure(() => loadConfigCore({ file: f, env: {} })),
        f,
        new RegExp(`holds ${kind}, not a JSON object`),
      );
    }
  });

  it('schema violations in the file: an unknown key, a wrong type, a value out of range', () => {
    const typo = file(JSON.stringify({ max_sesions: 6 }));
    const e = failure(() => loadConfigCore({ file: typo, env: {} }));
    expectFileError(e, typo, /unknown key\(s\) "max_sesions"/);
    expect(e.hint).toMatch(/Known keys: .*max_sessions/);

    const wrongType = file(JSON.stringify({ max_sessions: 'many' }));
    expectFileError(
      failure(() => loadConfigCore({ file: wrongType, env: {} })),
      wrongType,
      /"max_sessions"/,
    );
    const nested = file(JSON.stringify({ viewport: { width: 10, height: 800 } }));
    expectFileError(
      failure(() => loadConfigCore({ file: nested, env: {} })),
      nested,
      /"viewport\.width"/,
    );
  });

  it('schema violations in BROW_* variables and in flags name their layer', () => {
    const env = failure(() => loadConfigCore({ env: { BROW_MAX_SESSIONS: '-1' } }));
    expect(env.code).toBe('invalid_config');
    expect(env.message).toMatch(/BROW_\* environment variables.*max_sessions/);
    expect(env.hint).toMatch(/BROW_\* environment variables/);
    expect(env.details.file).toBeUndefined();

    const flags = failure(() => loadConfigCore({ env: {}, flags: { headless: 'yes' as never } }));
    expect(flags.code).toBe('invalid_config');
    expect(flags.message).toMatch(/command-line flags.*headless/);
  });

  it('a good file still loads, and an absent default brow.config.json is no error', () => {
    const good = file(JSON.stringify({ max_sessions: 6 }));
    expect(loadConfigCore({ file: good, env: {} })).toMatchObject({
      config: { max_sessions: 6 },
      file: good,
    });
    expect(loadConfigCore({ env: {} }).file).toBeNull();
  });

  it('the CLI prints [invalid_config] naming the file and exits with the table code', async () => {
    const missing = join(dir, 'cli-missing.json');
    let out = '';
    let err = '';
    const code = await main(['config', '--config', missing], {
      out: (s) => void (out += s),
      err: (s) => void (err += s),
    });
    expect(code).toBe(ERROR_TABLE.invalid_config.exit);
    expect(`${out}${err}`).toContain('[invalid_config]');
    expect(`${out}${err}`).toContain(missing);
  });
});
