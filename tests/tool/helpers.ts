/** Shared setup of the browser-tool tests: a fresh build of the tab worker, and call helpers. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowConfigInput } from '../../src/core/config.js';
import type { OkOutcome, Outcome } from '../../src/runtime/outcome.js';
import { harness, type Harness } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'dist/core/tool/tab-worker.js');
const LOCK = join(tmpdir(), 'brow-tool-build.lock');

function newest(dir: string): number {
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) max = Math.max(max, newest(p));
    else if (e.name.endsWith('.ts')) max = Math.max(max, statSync(p).mtimeMs);
  }
  return max;
}

const fresh = () => existsSync(ENTRY) && statSync(ENTRY).mtimeMs >= newest(join(ROOT, 'src/core'));

/**
 * The worker runs compiled code (dist/core/tool/tab-worker.js): build when any core source is
 * newer. One build at a time across test files (a lock directory); a type error elsewhere in
 * the tree does not stop the emit, so only a missing entry fails.
 */
export async function ensureToolBuilt(): Promise<void> {
  if (fresh()) return;
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > until) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!fresh()) {
      try {
        execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
      } catch (e) {
        if (!existsSync(ENTRY)) throw e;
      }
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export interface ToolHarness extends Harness {
  /** Call the browser tool; returns the outcome as is. */
  tool(input: Record<string, unknown>): Promise<Outcome>;
  /** Call it and expect ok; returns the outcome. */
  toolOk(input: Record<string, unknown>): Promise<OkOutcome>;
  /** Run code in a tab (default "main") and expect ok. */
  run(code: string, extra?: Record<string, unknown>): Promise<OkOutcome>;
}

export async function toolHarness(config: BrowConfigInput = {}): Promise<ToolHarness> {
  await ensureToolBuilt();
  const h = await harness(config);
  const tool = (input: Record<string, unknown>) => h.rt.invoke('browser', input);
  const toolOk = async (input: Record<string, unknown>) => {
    const o = await tool(input);
    if (!o.ok) throw new Error(`browser ${JSON.stringify(input).slice(0, 200)} failed: ${o.content}`);
    return o;
  };
  return { ...h, tool, toolOk, run: (code, extra = {}) => toolOk({ action: 'run', code, ...extra }) };
}
