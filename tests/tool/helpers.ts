/** Shared setup of the browser-tool tests: a fresh build of the tab worker, and call helpers. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowConfigInput } from '../../src/core/config.js';
import type { OkOutcome, Outcome } from '../../src/runtime/outcome.js';
import { buildOnce } from '../doors/helpers.js';
import { harness, type Harness } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'dist/core/tool/tab-worker.js');

/**
 * The worker runs compiled code (dist/core/tool/tab-worker.js): the doors' buildOnce builds when
 * dist/ is not current (distIsCurrent), once per run for every test file that needs dist/.
 */
export async function ensureToolBuilt(): Promise<void> {
  buildOnce();
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
