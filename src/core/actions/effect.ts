/** Run an action and report its effect: outcome, navigation, pages, dialogs, downloads, requests, changes. */
import { BrowserError } from '../errors.js';
import type { DialogRecord, DownloadRecord } from '../observe/records.js';
import type { BrowPage } from '../session/page.js';
import { diffOutlines, isEmptyDiff, renderDiff, type OutlineDiff } from '../snapshot/diff.js';
import { nodeLine } from '../snapshot/render-lines.js';
import { changedSince, takeSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import { settle, watchRequests } from './settle.js';

export interface TargetState {
  role: string;
  name: string;
  value?: string;
  checked?: boolean | 'mixed';
  states?: string[];
  is_sensitive?: boolean;
}

export interface Effect {
  action: string;
  ref?: string;
  outcome: 'completed' | 'no_change' | 'failed';
  navigation: { from: string; to: string } | null;
  opened_pages: { page_id: string; url: string; opener_page_id: string | null }[];
  dialogs: DialogRecord[];
  downloads: DownloadRecord[];
  console_errors: { level: string; text: string }[];
  requests: { method: string; url: string; status?: number; failed: boolean; resource_type: string }[];
  changes: OutlineDiff | null;
  target: TargetState | null;
  settle_ms: number;
  message?: string;
}

export interface ActionSpec {
  action: string;
  ref?: string;
  /** Dispatch the input; may return a message. */
  run(): Promise<string | void>;
  /** Read the target's state after the action (value, checked). */
  after?(): Promise<TargetState | null>;
}

const MAX_REQUESTS = 20;
const MAX_CHANGES = 25;

/** The effect compares lines only: its walks skip measuring boxes (a layout after every change). */
const LINES_ONLY = { boxes: false } as const;

/** Base outline for the diff: the latest walk if nothing changed since, else a fresh walk. */
async function baseline(page: BrowPage): Promise<Snapshot | null> {
  const last = page.lastWalk;
  if (last && !(await changedSince(last, page).catch(() => true))) return last;
  return takeSnapshot(page, LINES_ONLY).catch(() => null);
}

/** Perform an action on a page with everything an agent needs to know about what it did. */
export async function performAction(page: BrowPage, spec: ActionSpec): Promise<Effect> {
  const session = page.session;
  if (session.readOnly) {
    throw new BrowserError('read_only', `Session ${session.id} is read-only; ${spec.action} is refused.`);
  }
  page.assertNoHandoff();
  page.assertNoDialog();
  session.events.emit('action', session.id, { page_id: page.id, action: spec.action, ref: spec.ref });
  const cfg = session.config;
  const before = await baseline(page);
  const fromUrl = page.url();
  const generation = page.documentGeneration;
  const pagesBefore = new Set(session.pages.keys());
  const dialogsBefore = page.dialogLog.length;
  const downloadsBefore = session.downloads.length;
  const consoleSeq = session.console.lastSeq;
  const watch = watchRequests(page);
  let message: string | void = undefined;
  let settleMs = 0;
  try {
    const ran = await page.raceDialog(spec.run());
    if ('value' in ran) message = ran.value;
    settleMs = await settle(page, watch, { quietMs: cfg.settle_quiet_ms, maxMs: cfg.settle_max_ms });
  } finally {
    watch.stop();
  }

  const navigated = page.documentGeneration !== generation;
  let changes: OutlineDiff | null = null;
  if (!page.closed && !page.pendingDialog && before && !navigated) {
    const moved = await changedSince(before, page).catch(() => true);
    if (moved) {
      const after = await takeSnapshot(page, LINES_ONLY).catch(() => null);
      if (after) changes = diffOutlines(before.nodes, after.nodes, MAX_CHANGES);
    } else {
      changes = { added: [], removed: [], changed: [], truncated: false };
    }
  }
  const target =
    spec.after && !page.closed && !page.pendingDialog && !navigated
      ? await spec.after().catch(() => null)
      : null;
  const openedPages = [...session.pages.values()]
    .filter((p) => !pagesBefore.has(p.id))
    .map((p) => ({ page_id: p.id, url: p.url(), opener_page_id: p.openerPageId }));
  const dialogs = page.dialogLog.slice(dialogsBefore);
  const downloads = session.downloads.slice(downloadsBefore);
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
  const navigation = navigated || page.url() !== fromUrl ? { from: fromUrl, to: page.url() } : null;
  const somethingHappened =
    navigation !== null ||
    openedPages.length > 0 ||
    dialogs.length > 0 ||
    downloads.length > 0 ||
    requests.length > 0 ||
    (changes !== null && !isEmptyDiff(changes)) ||
    changes === null;
  return {
    action: spec.action,
    ...(spec.ref ? { ref: spec.ref } : {}),
    outcome: somethingHappened ? 'completed' : 'no_change',
    navigation,
    opened_pages: openedPages,
    dialogs,
    downloads,
    console_errors: consoleErrors,
    requests,
    changes,
    target,
    settle_ms: settleMs,
    ...(message ? { message } : {}),
  };
}

/** A compact summary of an effect for a model. */
export function renderEffect(e: Effect, targetLine?: string): string {
  const lines: string[] = [];
  const what = targetLine ? `${e.action} ${targetLine}` : e.action;
  lines.push(`${what} → ${e.outcome} (settled in ${e.settle_ms} ms)`);
  if (e.message) lines.push(e.message);
  if (e.target) {
    const t = e.target;
    const bits = [
      t.value !== undefined ? `value=${JSON.stringify(t.value)}` : '',
      t.checked !== undefined ? `checked=${t.checked}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (bits) lines.push(`Target now: ${bits}`);
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
  if (e.changes && !isEmptyDiff(e.changes)) lines.push(renderDiff(e.changes));
  else if (e.navigation) lines.push('The page navigated: take a fresh snapshot; old refs are stale.');
  return lines.join('\n');
}

export { nodeLine };
