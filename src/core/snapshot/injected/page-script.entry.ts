/**
 * The in-page script: installs the brow page API once per document on
 * `globalThis[Symbol.for('brow.page')]` (non-enumerable, non-writable) and nothing else visible.
 * Injected at document start (evaluateOnNewDocument) and evaluated into already-loaded frames;
 * a second evaluation in the same document does nothing.
 */
import { describeElement } from './describe.js';
import { findHidden } from './find-hidden.js';
import { hitTarget, visibleBox } from './hit-target.js';
import { elementOf, idOf, staleReasonOf } from './ids.js';
import { mutationState, observeRoot, outlineStamp } from './mutations.js';
import { defineProperty, freeze, randomKey, symbolFor } from './natives.js';
import { installPatches, mayReactToHover, recordTimers, timerDue } from './patches.js';
import { settleQuiet } from './quiet.js';
import { composedParent } from './shadow.js';
import {
  BROW_PAGE_KEY,
  type BrowPageApi,
  type WalkNode,
  type WalkOptions,
  type WalkResult,
} from './types.js';
import { holdWalk } from './held-walk.js';
import { encodeWalk } from './wire.js';
import { Walker } from './walk.js';

const VERSION = 1;
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

/** Walk the document (or the subtree of opts.rootId); the nodes apart from the rest. */
function runWalk(docKey: string, opts?: WalkOptions): { meta: Omit<WalkResult, 'nodes'>; nodes: WalkNode[] } {
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
  return {
    meta: {
      docKey,
      mutationSeq: seq,
      stamp,
      url: location.href,
      title: document.title,
      viewport: viewport(),
      truncated: w ? w.truncated : false,
    },
    nodes: w ? w.nodes : [],
  };
}

function install(key: symbol): void {
  const docKey = randomKey();
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
      const { meta, nodes } = runWalk(docKey, opts);
      if (opts?.rootId !== undefined) return encodeWalk(meta, nodes);
      // a whole walk is held, so the next of its kind can travel as what changed
      const boxes = opts?.boxes !== false;
      const max = opts?.maxNodes ?? DEFAULT_MAX_NODES;
      const { walkId, delta } = holdWalk(docKey, boxes, max, nodes, opts?.since);
      return encodeWalk(meta, nodes, walkId, delta);
    },
    element: (id) => elementOf(id),
    staleReason: (id) => staleReasonOf(id),
    idOf: (el) => idOf(el),
    mutations: () => mutationState(),
    outlineStamp: () => outlineStamp(),
    hitTarget: (id, x, y) => hitTarget(id, x, y),
    visibleBox: (id) => visibleBox(id),
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
