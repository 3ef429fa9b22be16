/** The bundled in-page script (built by scripts/build.mjs from ./injected) and how to reach it in a frame. */
import { readFileSync } from 'node:fs';
import type { Frame } from 'puppeteer-core';
import type { BrowPageApi } from './injected/types.js';

let cached: string | null = null;

/** The in-page script's source text (dist/injected/page-script.js). */
export function pageScriptSource(): string {
  if (cached !== null) return cached;
  // src/core/snapshot and dist/core/snapshot are both three levels below the package root.
  const url = new URL('../../../dist/injected/page-script.js', import.meta.url);
  try {
    cached = readFileSync(url, 'utf8');
  } catch {
    throw new Error(`The in-page script is not built (${url.pathname}); run \`npm run build\`.`);
  }
  return cached;
}

/** Make sure the script is installed in this frame's current document (idempotent, one round trip). */
export async function ensureInstalled(frame: Frame): Promise<void> {
  const present = await frame.evaluate(() => Symbol.for('brow.page') in globalThis);
  if (!present) await frame.evaluate(pageScriptSource());
}

/**
 * Run fn against the frame's BrowPageApi, installing the script first if this document lacks it.
 * fn is serialised into the page and may only use its JSON arguments. It is sent as one
 * expression (Runtime.evaluate), which a page's Content-Security-Policy does not block. The
 * result comes back as one JSON string: CDP's by-value transfer of large object trees is several
 * times slower than JSON.stringify in the page plus JSON.parse here.
 */
export async function withApi<A extends unknown[], R>(
  frame: Frame,
  fn: (api: BrowPageApi, ...args: A) => R,
  ...args: A
): Promise<Awaited<R>> {
  const expr =
    `(() => { const api = globalThis[Symbol.for('brow.page')]; if (!api) return '"missing"';` +
    ` return Promise.resolve((${fn.toString()})(api, ...${JSON.stringify(args)}))` +
    `.then((value) => value === undefined ? '{}' : JSON.stringify({ value })); })()`;
  let res = (await frame.evaluate(expr)) as string;
  if (res === '"missing"') {
    await frame.evaluate(pageScriptSource());
    res = (await frame.evaluate(expr)) as string;
    if (res === '"missing"') throw new Error('brow in-page script failed to install');
  }
  return (JSON.parse(res) as { value: Awaited<R> }).value;
}
