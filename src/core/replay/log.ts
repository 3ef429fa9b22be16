/**
 * Every session's action log: for each call of a capability that declares `replay: {log: true}`, the tool, its input with
 * secrets replaced by placeholders, each ref as a locator read before the call ran (a name can
 * change with the click), and the outcome with the effect seen. Kept in the session's StateBag,
 * the last MAX_LOG entries. invoke() begins an entry when the call reaches its page (or after a call
 * that never did) and ends it with the outcome.
 */
import type { BrowCore } from '../core.js';
import { within } from '../deadline.js';
import type { BrowPage } from '../session/page.js';
import { evaluateIn } from '../snapshot/page-script.js';
import { slot } from '../state-bag.js';
import { describeLocator, describeRef, type TargetInfo } from './locator.js';

/** How long the log may spend reading a ref before the call (a busy page is not waited for). */
const DESCRIBE_MS = 1000;

/** The effect of a call, as much as a replay needs (waits) and a person reads. */
export interface LoggedEffect {
  outcome?: string;
  /** The page's URL after the call. */
  url?: string;
  navigation?: { from: string; to: string } | null;
  opened_pages?: { page_id: string; url: string }[];
  dialogs?: { type: string; message: string }[];
  /** "GET /api/items 200", at most 10. */
  requests?: string[];
  /** Outline lines that appeared, at most 10. */
  added?: string[];
  /** Outline lines that changed (`new (was: old)`), at most 10. */
  changed?: string[];
  message?: string;
}

export interface LogEntry {
  seq: number;
  at: number;
  tool: string;
  /** The page the call acted on (for browser_open_page: the page it opened). */
  page_id: string | null;
  /** The input without page_id/session_id; a secret field's text is a `${BROW_SECRET_n}` placeholder. */
  input: Record<string, unknown>;
  /** Refs of the input as locators, by field: ref, to_ref, value (a wait for a ref), fields.N.ref. */
  targets: Record<string, TargetInfo>;
  /** Placeholders this call used, with what they fill. */
  secrets?: { name: string; target: string }[];
  ok: boolean;
  error?: { code: string; message: string };
  effect?: LoggedEffect;
}

export interface ActionLog {
  entries: LogEntry[];
  seq: number;
  /** Entries dropped off the front (past MAX_LOG). */
  dropped: number;
  /** What a placeholder stands for (a locator) → its name, so one field keeps one placeholder. */
  secrets: Map<string, string>;
}

/** The most entries a session's log keeps (the oldest go first). */
export const MAX_LOG = 1000;

export const actionLog = slot('replay.action-log', (): ActionLog => ({
  entries: [],
  seq: 0,
  dropped: 0,
  secrets: new Map(),
}));

const bareRef = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim().replace(/^@/, '') : null;

/** Is the focused element (through shadow roots, in the top document) a secret field? */
const FOCUS_IS_SECRET = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el) return false;
  // focus inside a frame this document cannot look into: treated as a secret, to be safe
  if (el.localName === 'iframe' || el.localName === 'frame') return true;
  if (el.localName === 'input' && el.type === 'password') return true;
  return /\\b(current-password|new-password|one-time-code|cc-number|cc-csc|cc-exp)\\b/.test(el.getAttribute('autocomplete') || '');
})()`;

export interface PendingEntry {
  /** Record the outcome: the answer's data (ok) or the error's data. */
  end(ok: boolean, data: Record<string, unknown>): void;
}

function pageFor(core: BrowCore, owner: string | null, input: Record<string, unknown>): BrowPage | null {
  const pageId = typeof input.page_id === 'string' ? input.page_id : undefined;
  const sessionId = typeof input.session_id === 'string' ? input.session_id : undefined;
  try {
    // as the handler resolves it: a page the caller may not see is not logged against
    return core.resolvePage(pageId, sessionId, owner);
  } catch {
    return null;
  }
}

/**
 * Read what the log needs of a logged call; null when there is nothing to log against. With `onPage`
 * (the call's page, under its lock, before the call acts) its refs are read as locators; without
 * it (a call that never reached its page, or one that names no ref) nothing is read from the page.
 */
export async function beginEntry(
  core: BrowCore,
  owner: string | null,
  tool: string,
  rawInput: Record<string, unknown>,
  onPage?: BrowPage,
  /** The input field the tool types into its target (its capability's `replay.textInput`). */
  textField?: string,
): Promise<PendingEntry | null> {
  const page = tool === 'browser_open_page' ? null : (onPage ?? pageFor(core, owner, rawInput));
  if (tool !== 'browser_open_page' && !page) return null;
  const { page_id: _p, session_id: _s, ...input } = rawInput;
  const targets: Record<string, TargetInfo> = {};
  const refs: [string, string][] = [];
  for (const k of ['ref', 'to_ref'] as const) {
    const r = bareRef(input[k]);
    if (r) refs.push([k, r]);
  }
  if (tool === 'browser_wait' && input.condition === 'ref') {
    const r = bareRef(input.value);
    if (r) refs.push(['value', r]);
  }
  const fields = Array.isArray(input.fields) ? (input.fields as Record<string, unknown>[]) : [];
  fields.forEach((f, i) => {
    const r = bareRef(f.ref);
    if (r) refs.push([`fields.${i}.ref`, r]);
  });
  // never while a dialog blocks the page's script (the read would wait for it), and never for long
  const read = onPage !== undefined && !onPage.pendingDialog && !onPage.crashed && !onPage.closed;
  if (page && read) {
    for (const [k, r] of refs) {
      const t = await within(
        describeRef(page, r).catch(() => null),
        DESCRIBE_MS,
        null,
      );
      if (t) targets[k] = t;
    }
  }
  const secretsUsed: { name: string; target: string }[] = [];
  const session = page?.session;
  const log = session && !session.closed ? session.state.get(actionLog) : null;
  const placeholder = (key: string): string => {
    let name = log?.secrets.get(key);
    if (!name) {
      name = `BROW_SECRET_${(log?.secrets.size ?? 0) + 1}`;
      log?.secrets.set(key, name);
    }
    if (!secretsUsed.some((s) => s.name === name)) secretsUsed.push({ name, target: key });
    return `\${${name}}`;
  };
  // a secret's value never enters the log: a placeholder the replay fills from the environment
  if (textField && typeof input[textField] === 'string' && input[textField] !== '') {
    const t = targets.ref;
    // a ref that could not be read may be a secret field: its text is not logged either
    const secret = t
      ? t.is_sensitive
      : refs.some(([k]) => k === 'ref')
        ? true
        : page && read
          ? await within(
              evaluateIn(page.raw.mainFrame(), FOCUS_IS_SECRET).then(
                (v) => v === true,
                () => false,
              ),
              DESCRIBE_MS,
              true,
            )
          : true;
    if (secret) {
      const where = t
        ? describeLocator(t.locator)
        : refs.length
          ? `ref ${String(input.ref)}`
          : 'the focused field';
      input[textField] = placeholder(where);
    }
  }
  if (fields.length > 0) {
    input.fields = fields.map((f, i) => {
      const t = targets[`fields.${i}.ref`];
      return (!t || t.is_sensitive) && typeof f.value === 'string' && f.value !== ''
        ? { ...f, value: placeholder(t ? describeLocator(t.locator) : `ref ${String(f.ref)}`) }
        : f;
    });
  }
  const at = Date.now();
  return {
    end(ok, data) {
      try {
        record(ok, data);
      } catch {
        // the log must never fail the call it describes
      }
    },
  };

  function record(ok: boolean, data: Record<string, unknown>): void {
    const opened = typeof data.page_id === 'string' ? core.findPage(data.page_id) : null;
    const p = page ?? opened;
    const s = p?.session;
    if (!p || !s || s.closed) return;
    const bag = s.state.get(actionLog);
    bag.seq += 1;
    const entry: LogEntry = {
      seq: bag.seq,
      at,
      tool,
      page_id: tool === 'browser_open_page' ? (opened?.id ?? null) : p.id,
      input,
      targets,
      ...(secretsUsed.length > 0 ? { secrets: secretsUsed } : {}),
      ok,
      ...(ok
        ? { effect: effectOf(p, data) }
        : { error: { code: String(data.error_code), message: String(data.message) } }),
    };
    bag.entries.push(entry);
    if (bag.entries.length > MAX_LOG) {
      const over = bag.entries.length - MAX_LOG;
      bag.entries.splice(0, over);
      bag.dropped += over;
    }
  }
}

type Effectish = {
  outcome?: string;
  navigation?: { from: string; to: string } | null;
  opened_pages?: { page_id: string; url: string }[];
  dialogs?: { type: string; message: string }[];
  requests?: { method: string; url: string; status?: number; failed: boolean }[];
  changes?: { added?: string[]; changed?: string[] } | null;
  message?: string;
};

function effectOf(page: BrowPage, data: Record<string, unknown>): LoggedEffect {
  const url = page.closed ? undefined : page.url();
  const a = data.action as Effectish | undefined;
  if (!a) return { ...(url ? { url } : {}) };
  return {
    ...(a.outcome ? { outcome: a.outcome } : {}),
    ...(url ? { url } : {}),
    navigation: a.navigation ?? null,
    ...(a.opened_pages?.length
      ? { opened_pages: a.opened_pages.map((o) => ({ page_id: o.page_id, url: o.url })) }
      : {}),
    ...(a.dialogs?.length ? { dialogs: a.dialogs.map((d) => ({ type: d.type, message: d.message })) } : {}),
    ...(a.requests?.length
      ? {
          requests: a.requests
            .slice(0, 10)
            .map(
              (r) =>
                `${r.method} ${r.url}${r.status !== undefined ? ` ${r.status}` : r.failed ? ' (failed)' : ''}`,
            ),
        }
      : {}),
    ...(a.changes?.added?.length ? { added: a.changes.added.slice(0, 10) } : {}),
    ...(a.changes?.changed?.length ? { changed: a.changes.changed.slice(0, 10) } : {}),
    ...(a.message ? { message: a.message } : {}),
  };
}
