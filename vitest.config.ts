import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file launches its own Chromium; two cores fit two files at a time.
    maxWorkers: 2,
    pool: 'forks',
    // one TMPDIR for the run, removed at its end (tests/suite-tmp.ts)
    globalSetup: ['tests/suite-tmp.ts'],
    env: {
      // every patched walk is checked against a whole walk (src/core/snapshot/injected/incremental.ts)
      BROW_VERIFY_WALKS: '1',
      // An action with nothing to show watches 500 ms for late effects, not the product's 1000 ms
      // (src/core/config.ts, testDefault): the fixtures' late effects (debounces of 250-300 ms)
      // start well inside it. Tests that check a later effect set effect_window_ms on their runtime.
      BROW_TEST_EFFECT_WINDOW_MS: '500',
    },
  },
});
