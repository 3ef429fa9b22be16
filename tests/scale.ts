/**
 * One scale factor for the deadlines tests set on the machine's speed (a page that must open within
 * a bound, a wait that must succeed in time), not on the behaviour under test (a 1 s limit that must
 * fire keeps its 1 s; only the assertions around it allow a slow machine).
 *
 * `BROW_TEST_SCALE` (default 1) sets a floor; a loaded machine (1-minute load average per CPU above
 * 1) scales up by that ratio, up to AUTO_MAX. The load is read at each call: keep a scaled value in a
 * constant when two figures must agree (a limit and a sleep past it).
 */
import { cpus, loadavg } from 'node:os';

/** The most a load scales deadlines by itself. */
const AUTO_MAX = 4;
/** The most any scale goes (with BROW_TEST_SCALE). */
const MAX = 20;

/** The factor now: max(BROW_TEST_SCALE, load per CPU capped at AUTO_MAX), at least 1, at most MAX. */
export function testScale(): number {
  const asked = Number(process.env.BROW_TEST_SCALE);
  const floor = Number.isFinite(asked) && asked > 0 ? asked : 1;
  const perCpu = loadavg()[0]! / Math.max(1, cpus().length);
  const auto = perCpu > 1 ? Math.min(AUTO_MAX, perCpu) : 1;
  return Math.min(MAX, Math.max(1, floor, auto));
}

/** A deadline in ms, scaled to the machine (rounded to whole ms). */
export function scaled(ms: number): number {
  return Math.round(ms * testScale());
}

/**
 * Poll until `fn` answers true, for at most scaled(ms): what a fixed sleep "long enough for X"
 * should be. Returns whether it did (the last answer, checked once more at the deadline).
 */
export async function eventually(
  fn: () => boolean | Promise<boolean>,
  ms: number,
  stepMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + scaled(ms);
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return fn();
}
