/** The suite's own TMPDIR (tests/suite-tmp.ts): every worker writes its temporary files under it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';

it('a test file runs with the suite TMPDIR, which the run removes at its end', () => {
  expect(basename(tmpdir())).toMatch(/^brow-suite-/);
  const made = mkdtempSync(join(tmpdir(), 'brow-check-'));
  expect(dirname(made)).toBe(tmpdir());
  rmSync(made, { recursive: true });
});
