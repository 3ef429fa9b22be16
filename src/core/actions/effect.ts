/** Run an action and report its effect: outcome, navigation, pages, dialogs, downloads, requests, changes. */
import type { DialogRecord, DownloadRecord } from '../observe/records.js';
import type { BrowPage } from '../session/page.js';
import { diffOutlines, isEmptyDiff, renderDiff, type OutlineDiff } from '../snapshot/diff.js';
import { nodeLine, valueText } from '../snapshot/render-lines.js';
import { changedSince, takeSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import {
  recordPageTimers,
  relevantRequest,
  settle,
  sleep,
  watchRequests,
  type RequestWatch,
} from './settle.js';
import { withApi } from '../snapshot/page-script.js';
import { unlessVerifyFailure } from '../snapshot/wire.js';

export interface TargetState {
  role: string;
  name: string;
  /** The element's visible text (empty for fields). */
  text?: string;
  value?: string;
  checked?: boolean | 'mixed';
  states?: string[];
  is_sensitive?: boolean;
  /** The element left the page with the action (an option of a list that closed): role and name are from before. */
  gone?: true;
}

export interface Effect {
  action: string;
  ref?: string;
  /**
   * completed: something observable changed; dispatched: the input was delivered and the page was
   * still busy (requests pending, DOM changing) when the effect window closed; no_change: nothing
   * happened; failed.
   */
  outcome: 'completed' | 'dispatched' | 'no_change' | 'failed';
  navigation: { from: string; to: string } | null;
  opened_pages: { page_id: string; url: string; title: string; opener_page_id: string | null }[];
  dialogs: DialogRecord[];
  downloads: DownloadRecord[];
  console_errors: { level: string; text: string }[];
  requests: { method: string; url: string; status?: number; failed: boolean; resource_type: string }[];
  changes: OutlineDiff | null;
  target: TargetState | null;
  settle_ms: number;
  /** The effect window, when the action showed no change on settling and brow kept watching. */
  waited?: EffectWindow;
  message?: string;
}

/** What the effect window watched after settling. */
export interface EffectWindow {
  /** How long brow watched (and then followed what it saw). */
  window_ms: number;
  /** What it saw and followed: "GET /api/search 200", "DOM changes". */
  saw: string[];
  /** Requests still unfinished when it gave up. */
  pending: string[];
}

/** What run() may return: a message, and whether the action changed something the outline cannot show. */
export interface RunResult {
  message?: string;
  /** Something changed that the outline diff does not show (a pane's scroll position). */
  changed?: boolean;
  /** No input was sent (already in that state): skip the effect window. */
  noInput?: boolean;
  /**
   * Pointer input that the target was seen to receive ("the target received the click"): with no
   * visible effect the outcome is no_change and the answer says the input arrived.
   */
  delivered?: string;
  /**
   * Pointer input that did not reach the target even after measuring again: the outcome is failed,
   * and this says where it went.
   */
  missed?: string;
  /**
   * The target suggests as one types (a combobox, a searchbox): when the only change is its own
   * value (the echo of the input), keep watching for what the page does with it (suggestions).
   */
  watchEcho?: boolean | (() => Promise<boolean>);
  /**
   * Whether a timer the page set while the input went in is still due (a debounce that has not
   * fired): keys typed slower than the page's debounce get an answer to an early prefix while the
   * one to the whole value is still to come, so the effect window watches for it too.
   */
  timerDue?: () => Promise<boolean>;
}

export interface ActionSpec {
  action: string;
  ref?: string;
  /** Dispatch the input; may return a message. `watch` records the requests since the action began. */
  run(ctx: { watch: RequestWatch }): Promise<string | void | RunResult>;
  /** Read the target's state after the action (value, checked). */
  after?(): Promise<TargetState | null>;
  /** After settling: more words for the message (what a drag moved). */
  finish?(): Promise<string | void>;
}

const MAX_REQUESTS = 20;
const MAX_CHANGES = 25;

/** The effect compares lines only: its walks skip measuring boxes (a layout after every change). */
const LINES_ONLY = { boxes: false } as const;

/** Base outline for the diff: the latest walk if nothing changed since, else a fresh walk. */
async function baseline(page: BrowPage): Promise<Snapshot | null> {
  const last = page.lastWalk;
  if (last && !(await changedSince(last, page).catch(() => true))) return last;
  return takeSnapshot(page, LINES_ONLY).catch(unlessVerifyFailure(null));
}

type Req = RequestWatch['requests'][number];

/** "GET /slow?ms=300 200": a request in a few words (same-origin URLs by path). */
function requestLabel(page: BrowPage, r: Req): string {
  let url = r.url();
  try {
    const u = new URL(url);
    if (u.origin === new URL(page.url()).origin) url = u.pathname + u.search;
  } catch {
    // keep the URL as is
  }
  const status = r.response()?.status();
  return `${r.method()} ${url.length > 120 ? `${url.slice(0, 119)}…` : url}${
    status !== undefined ? ` ${status}` : r.failure() ? ' (failed)' : ''
  }`;
}

/** The most frames the effect window watches for DOM changes (the main frame first). */
const WATCHED_FRAMES = 8;

/** The mutation counters of the page's frames ("docKey:seq" each; "" for one that cannot be read). */
const frameSeqs = (page: BrowPage) =>
  Promise.all(
    page.raw
      .frames()
      .slice(0, WATCHED_FRAMES)
      .map((f) => withApi(f, (api) => `${api.docKey}:${api.mutations().seq}`).catch(() => '')),
  ).then((xs) => xs.join(' '));

/**
 * The effect window: after an action settled with nothing to show, keep watching (at most
 * effect_window_ms) for DOM changes in any of its frames or new requests; once something starts, follow the action's requests
 * until they finish and the DOM is quiet again (bounded by the settle bounds). Delayed effects (a
 * search that fetches 300 ms after Enter) are then reported instead of read as nothing.
 */
async function effectWindow(
  page: BrowPage,
  watch: RequestWatch,
  cfg: { effect_window_ms: number; settle_quiet_ms: number; settle_max_ms: number },
): Promise<EffectWindow & { busy: boolean }> {
  const t0 = Date.now();
  const seq0 = await frameSeqs(page);
  const n0 = watch.requests.length;
  const waitedOn = new Set(watch.pending());
  const blocked = () => page.closed || !!page.pendingDialog;
  const saw = new Set<string>();
  // requests the action started that are still on their way: follow them at once; else poll (one
  // evaluate per frame and tick; requests of every frame arrive through the watch)
  const pendingAtStart = watch.pending().some(relevantRequest);
  let started = pendingAtStart;
  while (!started && Date.now() - t0 < cfg.effect_window_ms && !blocked()) {
    if (watch.requests.length > n0 || watch.navigationRequested || watch.windowOpens > 0) break;
    if ((await frameSeqs(page)) !== seq0) {
      started = true;
      break;
    }
    await sleep(25);
  }
  let busy = false;
  if ((started || watch.requests.length > n0) && !blocked()) {
    // requests already followed while settling get the window's time, not another settle's
    const maxMs = pendingAtStart ? cfg.effect_window_ms : cfg.settle_max_ms;
    const took = await settle(page, watch, { quietMs: cfg.settle_quiet_ms, maxMs });
    busy = took >= maxMs;
  }
  const relevant = relevantRequest;
  // what it waited for: requests that finished during the window (also those begun before it)
  const stillPending = new Set(watch.pending());
  for (const r of watch.requests)
    if (!stillPending.has(r) && (watch.requests.indexOf(r) >= n0 || waitedOn.has(r)))
      saw.add(requestLabel(page, r));
  if ((await frameSeqs(page)) !== seq0) saw.add('DOM changes');
  const pending = watch
    .pending()
    .filter(relevant)
    .map((r) => requestLabel(page, r));
  return {
    window_ms: Date.now() - t0,
    saw: [...saw].slice(0, 8),
    pending: pending.slice(0, 8),
    busy: busy || pending.length > 0,
  };
}

/** The only change so far is the target's own line (a typed value): nothing the page did with it yet. */
function echoOnly(seen: Observed, ref: string, watch: RequestWatch): boolean {
  const c = seen.changes;
  if (!c || seen.navigation || seen.openedPages.length || seen.dialogs.length || seen.downloads.length)
    return false;
  // a request still on its way (a debounce that fired while settling) is followed by the window
  const pending = new Set(watch.pending());
  if (watch.requests.some((r) => !pending.has(r))) return false;
  if (c.added.length > 0 || c.removed.length > 0 || c.truncated) return false;
  const own = new RegExp(`\\bref=${ref}[\\s\\]]`);
  return c.changed.length > 0 && c.changed.every((line) => own.test(line.split(' (was: ')[0] ?? ''));
}

interface Observed {
  navigated: boolean;
  changes: OutlineDiff | null;
  openedPages: Effect['opened_pages'];
  dialogs: DialogRecord[];
  downloads: DownloadRecord[];
  navigation: Effect['navigation'];
  happened: boolean;
}

/** Perform an action on a page with everything an agent needs to know about what it did. */
export async function performAction(page: BrowPage, spec: ActionSpec): Promise<Effect> {
  // the gates (read-only, handoff, dialog) are the capability's, checked before this (onPage)
  const session = page.session;
  session.events.emit('action', session.id, { page_id: page.id, action: spec.action, ref: spec.ref });
  const cfg = session.config;
  // the baseline and the timer recording in one round trip's time
  const [before] = await Promise.all([baseline(page), recordPageTimers(page, true)]);
  const fromUrl = page.url();
  const generation = page.documentGeneration;
  const pagesBefore = new Set(session.pages.keys());
  const dialogsBefore = page.dialogLog.length;
  const downloadsBefore = session.downloads.length;
  const consoleSeq = session.console.lastSeq;
  const watch = watchRequests(page);
  let result: RunResult = {};
  let settleMs = 0;
  let waited: (EffectWindow & { busy: boolean }) | undefined;
  let seen: Observed;
  let stopTimers: Promise<void> | undefined;
  try {
    const ran = await page.raceDialog(spec.run({ watch }));
    if ('value' in ran && ran.value)
      result = typeof ran.value === 'string' ? { message: ran.value } : ran.value;
    settleMs = await settle(page, watch, { quietMs: cfg.settle_quiet_ms, maxMs: cfg.settle_max_ms });
    seen = await observed();
    const w = result.watchEcho;
    // only the target's own value changed: keep watching when the page may still answer it (a
    // field that suggests, a debounce not yet fired, or a request it already sent still on its way)
    const echo =
      !!w &&
      !!spec.ref &&
      echoOnly(seen, spec.ref, watch) &&
      (w === true || watch.pending().some(relevantRequest) || (await w().catch(() => false)));
    // typed input that already changed something, while the page's answer to the whole value may
    // still be coming: a debounce still due, or a request it started still on its way
    const debounced =
      seen.happened &&
      !echo &&
      !!result.timerDue &&
      (watch.pending().some(relevantRequest) || (await result.timerDue().catch(() => false)));
    if (
      (!seen.happened || echo || debounced) &&
      !result.noInput &&
      !result.missed &&
      cfg.effect_window_ms > 0 &&
      !page.closed &&
      !page.pendingDialog
    ) {
      waited = await effectWindow(page, watch, cfg);
      settleMs += waited.window_ms;
      // again: what the window saw, and what it does not watch itself (a dialog, a popup)
      seen = await observed();
    }
  } finally {
    watch.stop();
    // awaited below, beside the reads of the target's state (never throws)
    stopTimers = !page.closed && !page.pendingDialog ? recordPageTimers(page, false) : undefined;
  }

  /** Everything the action led to so far; `happened` when any of it is observable. */
  async function observed(): Promise<Observed> {
    const navigated = page.documentGeneration !== generation;
    let changes: OutlineDiff | null = null;
    if (!page.closed && !page.pendingDialog && before && !navigated) {
      const moved = await changedSince(before, page).catch(() => true);
      if (moved) {
        const after = await takeSnapshot(page, LINES_ONLY).catch(unlessVerifyFailure(null));
        if (after) changes = diffOutlines(before.nodes, after.nodes, MAX_CHANGES);
      } else {
        changes = { added: [], removed: [], changed: [], truncated: false };
      }
    }
    const openedPages = [...session.pages.values()]
      .filter((p) => !pagesBefore.has(p.id))
      .map((p) => ({ page_id: p.id, url: p.url(), title: p.title(), opener_page_id: p.openerPageId }));
    const dialogs = page.dialogLog.slice(dialogsBefore);
    const downloads = session.downloads.slice(downloadsBefore);
    // requests that say the page did something (an image or a font loading says nothing: a hover
    // picture swapped in is not an effect of a click)
    const pending = new Set(watch.pending());
    const finished = watch.requests.filter((r) => !pending.has(r) && relevantRequest(r));
    const navigation = navigated || page.url() !== fromUrl ? { from: fromUrl, to: page.url() } : null;
    const happened =
      navigation !== null ||
      openedPages.length > 0 ||
      dialogs.length > 0 ||
      downloads.length > 0 ||
      finished.length > 0 ||
      result.changed === true ||
      (changes !== null && !isEmptyDiff(changes)) ||
      changes === null;
    return { navigated, changes, openedPages, dialogs, downloads, navigation, happened };
  }

  const { navigated, changes, openedPages, dialogs, downloads, navigation } = seen;
  const fin =
    spec.finish && !page.closed && !page.pendingDialog
      ? await spec.finish().catch(() => undefined)
      : undefined;
  const heard = !seen.happened && !result.missed ? result.delivered : undefined;
  const message = [result.missed, result.message, fin, heard].filter(Boolean).join(' ');
  const [target] = await Promise.all([
    spec.after && !page.closed && !page.pendingDialog && !navigated ? spec.after().catch(() => null) : null,
    stopTimers,
  ]);
  const consoleErrors = session.console
    .read((e) => e.page_id === page.id && (e.level === 'error' || e.level === 'exception'), consoleSeq, 10)
    .map((e) => ({ level: e.level, text: e.text.slice(0, 500) }));
  const requests = watch.requests.slice(0, MAX_REQUESTS).map((r) => {
    const status = r.response()?.status();
    return {
      method: r.method(),
      url: r.url(),
      ...(status !== undefined ? { status } : {}),
      failed: !!r.failure() || (status !== undefined && status >= 400),
      resource_type: r.resourceType(),
    };
  });
  const outcome: Effect['outcome'] = result.missed
    ? 'failed'
    : seen.happened
      ? 'completed'
      : waited?.busy || watch.pending().some(relevantRequest)
        ? 'dispatched'
        : 'no_change';
  // the action's end, with how it went (the console's event rows say it)
  session.events.emit('action', session.id, {
    page_id: page.id,
    action: spec.action,
    ref: spec.ref,
    outcome,
  });
  return {
    action: spec.action,
    ...(spec.ref ? { ref: spec.ref } : {}),
    outcome,
    navigation,
    opened_pages: openedPages,
    dialogs,
    downloads,
    console_errors: consoleErrors,
    requests,
    changes,
    target,
    settle_ms: settleMs,
    ...(waited ? { waited: { window_ms: waited.window_ms, saw: waited.saw, pending: waited.pending } } : {}),
    ...(message ? { message } : {}),
  };
}

/** "settled in 412 ms; waited for GET /api/search 200": how the effect was concluded. */
function settleNote(e: Effect): string {
  const w = e.waited;
  let note = `settled in ${e.settle_ms} ms`;
  if (!w) return note;
  if (w.saw.length > 0) note += `; waited for ${w.saw.join(', ')}`;
  if (w.pending.length > 0) note += `; still pending: ${w.pending.join(', ')}`;
  if (w.saw.length === 0 && w.pending.length === 0)
    note += `; watched ${w.window_ms} ms for changes or requests: none`;
  return note;
}

/** A compact summary of an effect for a model. */
export function renderEffect(e: Effect, targetLine?: string): string {
  const lines: string[] = [];
  const what = targetLine ? `${e.action} ${targetLine}` : e.action;
  lines.push(`${what} → ${e.outcome} (${settleNote(e)})`);
  if (e.message) lines.push(e.message);
  if (e.target) {
    const t = e.target;
    const bits = [
      t.value !== undefined ? valueText(t.value) : '',
      t.checked !== undefined ? `checked=${t.checked}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (bits) lines.push(`Target now: ${bits}`);
    if (t.gone) lines.push('Target now: gone from the page');
  }
  if (e.navigation) lines.push(`Navigation: ${e.navigation.from} → ${e.navigation.to}`);
  for (const p of e.opened_pages) lines.push(`Opened page ${p.page_id}: ${p.url}`);
  for (const d of e.dialogs) {
    lines.push(
      `Dialog (${d.type}) "${d.message}": ${d.handled === 'pending' ? 'open — answer it with browser_handle_dialog' : d.handled}`,
    );
  }
  for (const d of e.downloads) lines.push(`Download: ${d.suggested_filename} → ${d.path} (${d.state})`);
  const shown = e.requests.filter((r) => r.resource_type !== 'image' && r.resource_type !== 'font');
  if (shown.length > 0) {
    lines.push(
      `Requests: ${shown
        .slice(0, 8)
        .map(
          (r) =>
            `${r.method} ${r.url}${r.status !== undefined ? ` ${r.status}` : ''}${r.failed ? ' (failed)' : ''}`,
        )
        .join('; ')}`,
    );
  }
  for (const c of e.console_errors) lines.push(`Console ${c.level}: ${c.text.split('\n')[0]}`);
  // the changed lines are page text: between brow's page-content lines, as a listing's are (the
  // doors with content boundaries mark them)
  if (e.changes && !isEmptyDiff(e.changes))
    lines.push('<page-content>', renderDiff(e.changes), '</page-content>');
  // changes are only read within one document: read and empty, the URL moved inside the page
  // (a #hash, pushState) and every ref still points where it did
  else if (e.navigation && e.changes)
    lines.push('Same document, new URL (nothing else changed): the refs still work.');
  else if (e.navigation) lines.push('The page navigated: take a fresh snapshot; old refs are stale.');
  return lines.join('\n');
}

export { nodeLine };
