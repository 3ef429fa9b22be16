/**
 * The in-page script: installs the brow page API once per document on
 * `globalThis[Symbol.for('brow.page')]` (non-enumerable, non-writable) and nothing else visible.
 * Injected at document start (evaluateOnNewDocument) and evaluated into already-loaded frames;
 * a second evaluation in the same document does nothing.
 */
import { describeElement } from './describe.js';
import { findHidden } from './find-hidden.js';
import { aimPoint, hitTarget, visibleBox } from './hit-target.js';
import { elementOf, idOf, staleReasonOf } from './ids.js';
import { mutationState, observeRoot, outlineStamp } from './mutations.js';
import { defineProperty, freeze, randomKey, symbolFor } from './natives.js';
import { installPatches, mayReactToHover, recordTimers, timerDue } from './patches.js';
import { armPresses, installPressWatch, pressReport } from './press-watch.js';
import { settleQuiet } from './quiet.js';
import { composedParent } from './shadow.js';
import {
  BROW_PAGE_KEY,
  type BrowPageApi,
  type WalkNode,
  type WalkOptions,
  type WalkResult,
} from './types.js';
import { holdWalk, sameNode } from './held-walk.js';
import { holdBase, patchedWalk, walkCounts, wholeReason } from './incremental.js';
import { encodeWalk } from './wire.js';
import { VERIFY_FAILED } from './wire-format.js';
import { Walker, deepActiveElement } from './walk.js';

/** The script's version: scripts/build.mjs puts a hash of the bundle in its place. */
const VERSION = '@@brow-page-script-version@@';
const DEFAULT_MAX_NODES = 100_000;

function viewport(): WalkResult['viewport'] {
  const scroller = document.scrollingElement ?? document.documentElement;
  return {
    width: innerWidth,
    height: innerHeight,
    scrollX,
    scrollY,
    scrollWidth: scroller?.scrollWidth ?? 0,
    scrollHeight: scroller?.scrollHeight ?? 0,
  };
}

type WalkMeta = Omit<WalkResult, 'nodes'>;

function metaNow(docKey: string, seq: number, stamp: string, truncated: boolean): WalkMeta {
  return {
    docKey,
    mutationSeq: seq,
    stamp,
    url: location.href,
    title: document.title,
    viewport: viewport(),
    truncated,
  };
}

/** Walk the document (or the subtree of opts.rootId); the nodes apart from the rest. */
function runWalk(docKey: string, opts?: WalkOptions): { meta: WalkMeta; nodes: WalkNode[] } {
  const seq = mutationState().seq;
  const stamp = outlineStamp();
  let w: Walker | null = null;
  try {
    w = new Walker(opts?.maxNodes ?? DEFAULT_MAX_NODES, opts?.boxes !== false);
    if (opts?.rootId !== undefined) {
      // An unknown or detached root walks nothing (staleReason() says why).
      const el = elementOf(opts.rootId);
      if (el) w.walkFrom(el, composedParent(el));
    } else if (document.documentElement) {
      w.walkFrom(document.documentElement, null);
    }
  } catch {
    // a failure the per-element guards did not catch: return what we have
  }
  return { meta: metaNow(docKey, seq, stamp, w ? w.truncated : false), nodes: w ? w.nodes : [] };
}

/**
 * A whole-document walk. One that does not measure patches the last whole walk where the page
 * changed since (incremental.ts); with `verify` it is checked against a full walk.
 */
function wholeWalk(
  docKey: string,
  opts: WalkOptions | undefined,
  max: number,
): { meta: WalkMeta; nodes: WalkNode[]; patched: boolean } {
  if (opts?.boxes === false) {
    const seq = mutationState().seq;
    const stamp = outlineStamp();
    let patched: WalkNode[] | null = null;
    try {
      patched = patchedWalk(max);
    } catch {
      patched = null; // walk everything instead
    }
    if (patched) {
      walkCounts.patched++;
      if (opts.verify) verifyPatched(docKey, opts, patched);
      return { meta: metaNow(docKey, seq, stamp, false), nodes: patched, patched: true };
    }
  }
  walkCounts.whole++;
  return { ...runWalk(docKey, opts), patched: false };
}

function verifyPatched(docKey: string, opts: WalkOptions, patched: WalkNode[]): void {
  const full = runWalk(docKey, opts).nodes;
  const n = full.length > patched.length ? full.length : patched.length;
  for (let i = 0; i < n; i++) {
    const a = patched[i];
    const b = full[i];
    if (!a || !b || !sameNode(a, b, false)) {
      const line = (x: WalkNode | undefined) =>
        x
          ? `${x.depth} ${x.role} "${x.name}" #${x.id} ${x.text ?? ''} [${x.states.join(',')}] [${x.actions.join(',')}]`
          : 'none';
      throw new Error(`${VERIFY_FAILED} at line ${i}: ${line(a)} / ${line(b)}`);
    }
  }
}

function install(key: symbol): void {
  const docKey = randomKey();
  // before the patches: brow's own listeners are not the page's (hover and click records)
  installPressWatch((type, fn) => addEventListener(type, fn, { capture: true, passive: true }));
  try {
    installPatches();
  } catch {
    // a frozen prototype: walk without closed roots and listener records
  }
  observeRoot(document);

  const api: BrowPageApi = {
    version: VERSION,
    docKey,
    walk(opts?: WalkOptions): WalkResult {
      const { meta, nodes } = runWalk(docKey, opts);
      return { ...meta, nodes };
    },
    walkWire(opts?: WalkOptions): string {
      if (opts?.rootId !== undefined) {
        const { meta, nodes } = runWalk(docKey, opts);
        return encodeWalk(meta, nodes);
      }
      const max = opts?.maxNodes ?? DEFAULT_MAX_NODES;
      const { meta, nodes, patched } = wholeWalk(docKey, opts, max);
      // a whole walk is held, so the next of its kind can travel as what changed, and the next
      // walk that does not measure can patch it
      const boxes = opts?.boxes !== false;
      holdBase(nodes, max, meta.truncated, deepActiveElement(), patched);
      const { walkId, delta } = holdWalk(docKey, boxes, max, nodes, opts?.since);
      return encodeWalk(meta, nodes, walkId, delta);
    },
    walkStats: () => ({ patched: walkCounts.patched, whole: walkCounts.whole, reason: wholeReason() }),
    element: (id) => elementOf(id),
    staleReason: (id) => staleReasonOf(id),
    idOf: (el) => idOf(el),
    mutations: () => mutationState(),
    outlineStamp: () => outlineStamp(),
    hitTarget: (id, x, y) => hitTarget(id, x, y),
    aimPoint: (id, x, y) => aimPoint(id, x, y),
    visibleBox: (id) => visibleBox(id),
    armPresses: (id) => armPresses(id),
    pressReport: (id, needed) => pressReport(id, needed),
    mayReactToHover: () => mayReactToHover(),
    recordTimers: (on) => recordTimers(on),
    timerDue: () => timerDue(),
    settleQuiet: (quietMs, maxMs) => settleQuiet(quietMs, maxMs),
    describe(id) {
      const el = elementOf(id);
      return el ? describeElement(el) : null;
    },
    findHidden: (q) => findHidden(q),
  };
  freeze(api);
  defineProperty(globalThis, key, { value: api, enumerable: false, writable: false, configurable: false });
}

const key = symbolFor(BROW_PAGE_KEY);
if (!(key in globalThis)) install(key);
