/** The watchdog's limit on a busy machine (watchdogLimitMs in src/core/session/page.ts). */
import { describe, expect, it } from 'vitest';
import { watchdogLimitMs } from '../../src/core/session/page.js';

describe('watchdogLimitMs', () => {
  it('is the configured limit while the CPUs are not oversubscribed', () => {
    expect(watchdogLimitMs(6000, 0, 2)).toBe(6000);
    expect(watchdogLimitMs(6000, 1.9, 2)).toBe(6000);
  });

  it('stretches with the load per CPU, up to 5×', () => {
    expect(watchdogLimitMs(6000, 6, 2)).toBe(18_000);
    expect(watchdogLimitMs(1000, 9, 4)).toBe(2250);
    expect(watchdogLimitMs(6000, 34, 2)).toBe(30_000);
  });

  it('survives a platform without a load average or CPU count', () => {
    expect(watchdogLimitMs(6000, Number.NaN, 2)).toBe(6000);
    expect(watchdogLimitMs(6000, 4, 0)).toBe(24_000);
  });
});
