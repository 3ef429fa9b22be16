// Print vitest's JSON results as one plain line: "N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
// a suite that failed to load has no failed tests of its own: count it once
const failed = Math.max(r.numFailedTests ?? 0, r.success === false ? 1 : 0);
console.log(
  `${r.numPassedTests ?? 0} passed, ${failed} failed, ${(r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)} skipped`,
);
