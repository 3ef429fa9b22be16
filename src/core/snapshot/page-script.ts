/**
 * The bundled in-page script and how to reach it in a frame. The script is a generated module
 * (scripts/build.mjs bundles ./injected and writes ./generated/page-script.js), imported statically:
 * nothing is read from dist/ at run time. Its version (a hash of the bundle) is on the page side as
 * `api.version`; every call through withApi or walkWire compares it, so a document that carries
 * another brow build's script (a reused tab) answers version_mismatch instead of a broken call.
 */
import type { CDPSession, Frame } from 'puppeteer-core';
import { frameClient, setFrameClient } from '../browser/internals.js';
import { BrowserError } from '../errors.js';
import { oopifSession } from './frames.js';
import { source, version } from './generated/page-script.js';
import type { BrowPageApi } from './injected/types.js';

/** The version this brow's page script carries (a hash of its bundle, baked in at build). */
export const PAGE_SCRIPT_VERSION: string = version;

/** The in-page script's source text. */
export function pageScriptSource(): string {
  return source;
}

/** What an in-page check answers when the document has no brow script, or another build's. */
export const MISSING = '"missing"';
export const OTHER_BUILD = '"old"';

/**
 * The start of an expression's body that binds `api` to this build's page API, and returns
 * MISSING or OTHER_BUILD (as JSON text) when the document lacks it or carries another build's.
 */
export const API_PRELUDE =
  `const api = globalThis[Symbol.for('brow.page')]; if (!api) return '${MISSING}';` +
  ` if (api.version !== ${JSON.stringify(version)}) return '${OTHER_BUILD}';`;

/**
 * The page script of another brow build sits in this document: it is installed non-writable and
 * non-configurable, so it cannot be replaced until the document goes.
 */
export function otherBuildError(): BrowserError {
  return new BrowserError(
    'version_mismatch',
    'This document carries the page script of another brow build, which this brow cannot read.',
    { hint: 'Reload the page (browser_history {action: "reload"}) so it gets this brow\'s script.' },
  );
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

/**
 * Make sure this build's script is installed in this frame's current document (idempotent, one
 * round trip when it is); version_mismatch when another build's is there.
 */
export async function ensureInstalled(frame: Frame): Promise<void> {
  const state = await evaluateIn(frame, `(() => { ${API_PRELUDE} return 'ok'; })()`);
  if (state === OTHER_BUILD) throw otherBuildError();
  if (state === MISSING) await evaluateIn(frame, pageScriptSource());
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
    `(() => { ${API_PRELUDE}` +
    ` return Promise.resolve((${fn.toString()})(api, ...${JSON.stringify(args)}))` +
    `.then((value) => value === undefined ? '{}' : JSON.stringify({ value })); })()`;
  let res = (await evaluateIn(frame, expr)) as string;
  if (res === MISSING) {
    await evaluateIn(frame, pageScriptSource());
    res = (await evaluateIn(frame, expr)) as string;
    if (res === MISSING) throw new Error('brow in-page script failed to install');
  }
  if (res === OTHER_BUILD) throw otherBuildError();
  return (JSON.parse(res) as { value: Awaited<R> }).value;
}
