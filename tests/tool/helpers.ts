/** Shared setup of the browser-tool tests: a fresh build of the tab worker, and call helpers. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowConfigInput } from '../../src/core/config.js';
import type { OkOutcome, Outcome } from '../../src/runtime/outcome.js';
import { buildOnce } from '../doors/helpers.js';
import { harness, type Harness } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'dist/core/tool/tab-worker.js');

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
 * newer, through the doors' buildOnce (one build per run, shared with the other test files that
 * need dist/, and none when dist/ is current).
 */
export async function ensureToolBuilt(): Promise<void> {
  if (!fresh()) buildOnce();
  if (!existsSync(ENTRY)) throw new Error(`the build did not write ${ENTRY}`);
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
