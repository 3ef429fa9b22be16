import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file launches its own Chromium; two cores fit two files at a time.
    maxWorkers: 2,
    pool: 'forks',
    // every patched walk is checked against a whole walk (src/core/snapshot/injected/incremental.ts)
    env: { BROW_VERIFY_WALKS: '1' },
  },
});
