/** The door contract table through the CLI: one process per call, through the daemon, `--input-json … --json`. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { CONTRACT_CASES, prepareContract, type ContractEnv } from '../doors/contract.js';
import { buildOnce, cliDoor, cliEnv, type CliEnv } from './helpers.js';

// every call is a new node process talking to a daemon: slow on a busy two-core machine
vi.setConfig({ testTimeout: 180_000 });

let fixtures: FixtureServer;
let cli: CliEnv;
let door: ReturnType<typeof cliDoor>;
let env: ContractEnv;

beforeAll(async () => {
  buildOnce();
  fixtures = await startFixtureServer();
  cli = cliEnv('contract');
  door = cliDoor(cli);
  env = await prepareContract(door, fixtures);
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
  await fixtures?.close();
});

describe('door contract through the CLI', () => {
  it.each(CONTRACT_CASES)('$name', async (c) => {
    const r = await door(c.tool, c.input(env));
    const expected = c.expect.ok
      ? { ok: true, error_code: null }
      : { ok: false, error_code: c.expect.error_code };
    expect({ ok: r.ok, error_code: r.error_code }, r.text).toEqual(expected);
    const code = r.error_code as keyof typeof ERROR_TABLE | null;
    // `brow doctor` also fails when its report found something missing (data.ok false)
    const okExit = c.tool === 'browser_doctor' && r.data.ok === false ? 1 : 0;
    expect(door.last()!.code).toBe(code ? ERROR_TABLE[code].exit : okExit);
    if (!r.ok) {
      expect(r.text).toContain(`[${r.error_code}]`);
      expect(r.data.hint.length).toBeGreaterThan(0);
    }
  });
});
