/**
 * Locators: a ref as a replay script names it (role + accessible name, the frame and shadow path,
 * the text as a fallback, an ordinal among equal matches), and back to a ref on a live page. A
 * locator that matches nothing fails with ref_not_found naming the locator; it never guesses.
 */
import type { Frame } from 'puppeteer-core';
import { frameIdOf } from '../browser/internals.js';
import { readState } from '../actions/prepare.js';
import { locate, lookupRef, type Located } from '../actions/locate.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { withApi } from '../snapshot/page-script.js';
import { takeSnapshot, type SnapNode } from '../snapshot/snapshot.js';

/** One iframe on the way from the top document to the element: its name attribute, else its URL path. */
export interface FrameStep {
  name?: string;
  path: string;
}

export interface Locator {
  role: string;
  name: string;
  /** Visible text when it differs from the name (or the name is empty): the fallback. */
  text?: string;
  /** Iframes from the top down; absent: the top document. */
  frame?: FrameStep[];
  /** Shadow hosts from the outside in (`tag#id`); absent: the light DOM. */
  shadow?: string[];
  /** Which of several equal matches (0 = the first in document order); absent: 0. */
  nth?: number;
}

/** What the log keeps about a ref at the time of a call. */
export interface TargetInfo {
  ref: string;
  locator: Locator;
  is_sensitive: boolean;
}

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** The iframes from the top down to `frame` (empty for the main frame). */
export function framePath(frame: Frame): FrameStep[] {
  const out: FrameStep[] = [];
  for (let f: Frame | null = frame; f?.parentFrame(); f = f.parentFrame()) {
    const name = f.name();
    out.unshift({ ...(name ? { name } : {}), path: pathOf(f.url()) });
  }
  return out;
}

const sameFrame = (want: FrameStep[], have: FrameStep[]): boolean =>
  want.length === have.length &&
  want.every((w, i) => (w.name ? have[i]!.name === w.name : have[i]!.path === w.path));

/** `button "Sign in"` (+ text, frame, shadow, nth): how a person reads a locator. */
export function describeLocator(l: Locator): string {
  let s = `${l.role} ${JSON.stringify(l.name)}`;
  if (!l.name && l.text) s += ` text=${JSON.stringify(l.text)}`;
  if (l.frame?.length) s += ` in frame ${l.frame.map((f) => f.name ?? f.path).join(' > ')}`;
  if (l.shadow?.length) s += ` in shadow ${l.shadow.join(' > ')}`;
  if (l.nth) s += ` nth=${l.nth}`;
  return s;
}

/** The shadow hosts around an element, outside in. */
function shadowPath(frame: Frame, docKey: string, localId: number): Promise<string[]> {
  return withApi(
    frame,
    (api, key: string, id: number) => {
      const el = api.docKey === key ? api.element(id) : null;
      const hosts: string[] = [];
      let root = el?.getRootNode();
      while (root instanceof ShadowRoot) {
        const h = root.host;
        hosts.unshift(h.id ? `${h.localName}#${h.id}` : h.localName);
        root = h.getRootNode();
      }
      return hosts;
    },
    docKey,
    localId,
  ).catch(() => []);
}

/** Frame id → the page's frame, for matching snapshot nodes by frame path. */
function framesById(page: BrowPage): Map<string, Frame> {
  return new Map(page.raw.frames().map((f) => [frameIdOf(f), f]));
}

/** Nodes of `nodes` (with refs) that `l` names, before the ordinal is applied. */
function matches(nodes: SnapNode[], l: Locator, frames: Map<string, Frame>): SnapNode[] {
  const want = l.frame ?? [];
  const inFrame = (n: SnapNode) => {
    const f = frames.get(n.frameId);
    return f ? sameFrame(want, framePath(f)) : false;
  };
  const byName = nodes.filter((n) => n.ref && n.role === l.role && n.name === l.name && inFrame(n));
  const named = l.name || !l.text ? byName : byName.filter((n) => (n.text ?? '') === l.text);
  if (named.length > 0 || !l.text) return named;
  // the name changed (an aria-label) but the text a person sees did not
  return nodes.filter((n) => n.ref && n.role === l.role && (n.text ?? '') === l.text && inFrame(n));
}

/**
 * A ref's locator at the time of a call: its role, name and text now, its frame and shadow path,
 * and its ordinal among the elements of the latest snapshot that read the same.
 */
export async function describeRef(page: BrowPage, ref: string): Promise<TargetInfo | null> {
  let loc: Located;
  try {
    loc = lookupRef(page, ref);
  } catch {
    return null;
  }
  // both reads in one round trip's time; a read that finds nothing asks whether the ref is stale
  const [d, shadow] = await Promise.all([
    readState(page, loc).catch(() => null),
    shadowPath(loc.frame, loc.entry.docKey, loc.entry.localId),
  ]);
  const alive = d !== null || (await locate(page, ref).catch(() => null)) !== null;
  if (!alive) return null;
  const role = d?.role ?? loc.entry.role;
  const name = d?.name ?? loc.entry.name;
  const text = d?.text ?? '';
  const frame = framePath(loc.frame);
  const locator: Locator = {
    role,
    name,
    ...(text && text !== name ? { text } : {}),
    ...(frame.length > 0 ? { frame } : {}),
    ...(shadow.length > 0 ? { shadow } : {}),
  };
  const snap = page.lastWalk;
  if (snap) {
    const same = matches(snap.nodes, { ...locator, text: locator.text ?? '' }, framesById(page));
    const nth = same.findIndex((n) => n.ref === ref);
    if (nth > 0) locator.nth = nth;
  }
  const sensitive = d?.sensitive === true || (d?.tag === 'input' && d.states.includes('password'));
  return { ref, locator, is_sensitive: sensitive };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The ref a locator names on the page now. Polls until the element shows (a page still rendering)
 * or `timeoutMs` passes; then ref_not_found naming the locator and what the page has instead.
 */
export async function resolveLocator(page: BrowPage, l: Locator, timeoutMs: number): Promise<string> {
  const t0 = Date.now();
  let last: { found: number; near: string[] } = { found: 0, near: [] };
  for (;;) {
    page.assertOpen();
    const snap = await takeSnapshot(page).catch(() => null);
    if (snap) {
      let hits = matches(snap.nodes, l, framesById(page));
      if (hits.length > 1 && l.shadow?.length) {
        const want = l.shadow.join(' > ');
        const paths = await Promise.all(
          hits.map((n) => {
            const e = page.refs.lookup(n.ref!);
            const f = e.frame.deref();
            return f ? shadowPath(f, e.docKey, e.localId).then((p) => p.join(' > ')) : '';
          }),
        );
        const inShadow = hits.filter((_, i) => paths[i] === want);
        if (inShadow.length > 0) hits = inShadow;
      }
      const hit = hits[l.nth ?? 0];
      if (hit) return hit.ref!;
      last = {
        found: hits.length,
        near: snap.nodes
          .filter((n) => n.ref && n.role === l.role)
          .slice(0, 8)
          .map((n) => JSON.stringify(n.name)),
      };
    }
    if (Date.now() - t0 >= timeoutMs) break;
    await sleep(100);
  }
  const what = describeLocator(l);
  const why =
    last.found > 0
      ? `only ${last.found} element(s) match, the script wants number ${(l.nth ?? 0) + 1}`
      : `no element matches`;
  throw new BrowserError('ref_not_found', `No element for ${what} on ${page.url()}: ${why}.`, {
    hint: last.near.length
      ? `The page has ${l.role} elements named ${last.near.join(', ')}; the page changed since the script was exported: edit the step's locator or export again.`
      : "The page changed since the script was exported: edit the step's locator or export the script again.",
    details: { locator: l, found: last.found },
  });
}
