/** The bundled in-page script (built by scripts/build.mjs from ./injected) and how to reach it in a frame. */
import { readFileSync } from 'node:fs';
import type { CDPSession, Frame } from 'puppeteer-core';
import { frameClient, setFrameClient } from '../browser/internals.js';
import { oopifSession } from './frames.js';
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

/**
 * Evaluate an expression in a frame's main world. A frame that is the root of its own target
 * (the main frame, or an out-of-process iframe) is reached with Runtime.evaluate on its target's
 * session, without a context id: puppeteer's own execution-context bookkeeping for OOPIFs can miss
 * a context after a navigation and then waits forever. In-process child frames need puppeteer's
 * context id.
 */
export async function evaluateIn(frame: Frame, expression: string): Promise<unknown> {
  const parent = frame.parentFrame();
  let client: CDPSession | undefined = frameClient(frame);
  const ownTarget = !parent || frameClient(parent) !== client;
  if (!ownTarget) {
    // puppeteer can miss that a child frame moved out of process (its Frame keeps the parent's
    // session and waits forever for a context there): an iframe target with the frame's id says so
    client = parent ? oopifSession(frame) : undefined;
    if (!client) return frame.evaluate(expression);
    await repairFrame(frame, client);
  }
  const res = await client!.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  if (res.exceptionDetails) {
    const d = res.exceptionDetails;
    throw new Error(d.exception?.description ?? d.text);
  }
  return res.result.value;
}

const repaired = new WeakSet<Frame>();

/**
 * Point puppeteer's Frame at its out-of-process session and have that session announce its
 * execution contexts again, so puppeteer's own calls on the frame (handles, screenshots) work too.
 */
async function repairFrame(frame: Frame, client: CDPSession): Promise<void> {
  if (repaired.has(frame)) return;
  repaired.add(frame);
  setFrameClient(frame, client);
  await client.send('Runtime.disable').catch(() => undefined);
  await client.send('Runtime.enable').catch(() => undefined);
}

/** Make sure the script is installed in this frame's current document (idempotent, one round trip). */
export async function ensureInstalled(frame: Frame): Promise<void> {
  const present = await evaluateIn(frame, `Symbol.for('brow.page') in globalThis`);
  if (!present) await evaluateIn(frame, pageScriptSource());
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
  let res = (await evaluateIn(frame, expr)) as string;
  if (res === '"missing"') {
    await evaluateIn(frame, pageScriptSource());
    res = (await evaluateIn(frame, expr)) as string;
    if (res === '"missing"') throw new Error('brow in-page script failed to install');
  }
  return (JSON.parse(res) as { value: Awaited<R> }).value;
}
