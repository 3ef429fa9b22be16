/**
 * vitest globalSetup: the whole run gets one TMPDIR of its own (workers inherit it), removed when the
 * run ends. What a test or the brow it starts leaves in TMPDIR (a daemon's runtime dir, a profile
 * a killed Chromium kept, a config a test wrote) goes with it, and two copies of the suite on one
 * machine never see each other's files. What was left is counted on the way out, so a new leak
 * shows in the run's log.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'brow-suite-'));
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  process.env.TMPDIR = process.env.TMP = process.env.TEMP = dir;
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(dir);
    } catch {
      // already gone
    }
    if (left.length) {
      const kinds = new Map<string, number>();
      for (const name of left) {
        // mkdtemp's six characters and any number stand for themselves
        const kind = name.replace(/[-.][A-Za-z0-9]{6}$/, '.*').replace(/\d+/g, 'N');
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      const list = [...kinds].map(([k, n]) => `${k} ×${n}`).join(', ');
      console.log(`suite TMPDIR: ${left.length} entries left by tests, removed (${list})`);
    }
    rmSync(dir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
