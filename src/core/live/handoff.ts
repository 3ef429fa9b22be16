/**
 * Handoff: a person takes the page for a step only a human can do (CAPTCHA, 2FA, payment).
 * The call shows a banner in the page and waits for Continue, a confirm call or the timeout.
 * It holds the page lock only to look at the page before and after, never while it waits, so
 * the person's input, the console and confirm calls go through; the agent's actions on the page
 * answer handoff_pending meanwhile (page.handoffId).
 */
import type { BrowCore } from '../core.js';
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { diffOutlines, type OutlineDiff } from '../snapshot/diff.js';
import { takeSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import { slot } from '../state-bag.js';
import { liveOf } from './page-live.js';

/** How a handoff ended; `cancelled`: the caller went away or cancelled the call (nobody reads the answer). */
export type HandoffVia = 'in_page' | 'confirm_call' | 'timeout' | 'cancelled';

export interface HandoffResult {
  confirmed: boolean;
  handoff_id: string;
  via: HandoffVia;
  url: string;
  title: string;
  page_id: string;
  session_id: string;
  waited_ms: number;
  url_before: string;
  /** A new document was loaded meanwhile (refs from before are stale). */
  navigated: boolean;
  /** The outline's changes between before and after. */
  changes: OutlineDiff | null;
  /** Cookies set meanwhile, by name and domain; never values. */
  cookies_added: { name: string; domain: string }[];
  /** Cookies whose value changed meanwhile, by name and domain. */
  cookies_changed: { name: string; domain: string }[];
}

export interface PendingHandoff {
  handoff_id: string;
  page_id: string;
  session_id: string;
  instructions: string;
  url: string;
  started_at: number;
  timeout_at: number;
}

interface Pending {
  info: PendingHandoff;
  page: BrowPage;
  settle(via: HandoffVia | 'closed'): void;
}

/**
 * A session's handoffs, owned by the session (see state-bag.ts): those pending, and those
 * recently resolved (the newest 200), so a late confirm is answered, not refused. A session that
 * stops settles its pending ones.
 */
const handoffsSlot = slot(
  'live.handoffs',
  () => ({ pending: new Map<string, Pending>(), resolved: new Map<string, HandoffVia>() }),
  (h) => {
    for (const p of h.pending.values()) p.settle('closed');
  },
);
const MAX_RESOLVED = 200;
const MAX_CHANGES = 25;

type CookieKey = string;
async function cookieValues(page: BrowPage): Promise<Map<CookieKey, string>> {
  const cookies = await page.session.context.cookies().catch(() => []);
  return new Map(cookies.map((c) => [`${c.name}\u0000${c.domain}\u0000${c.path}`, c.value]));
}

function cookieChanges(before: Map<CookieKey, string>, after: Map<CookieKey, string>) {
  const added: { name: string; domain: string }[] = [];
  const changed: { name: string; domain: string }[] = [];
  for (const [key, value] of after) {
    const [name = '', domain = ''] = key.split('\u0000');
    const old = before.get(key);
    if (old === undefined) added.push({ name, domain });
    else if (old !== value) changed.push({ name, domain });
  }
  return { added, changed };
}

interface Look {
  snap: Snapshot | null;
  cookies: Map<CookieKey, string>;
  url: string;
  generation: number;
}

async function look(page: BrowPage): Promise<Look> {
  const [snap, cookies] = await Promise.all([takeSnapshot(page).catch(() => null), cookieValues(page)]);
  return { snap, cookies, url: page.url(), generation: page.documentGeneration };
}

/** Hand the page to a person until Continue, a confirm call, or the timeout. */
export async function handoff(
  page: BrowPage,
  opts: {
    instructions: string;
    timeoutMs: number;
    signal?: AbortSignal;
    /** Called once the handoff is pending (banner shown, confirmable). */
    onPending?: (info: PendingHandoff) => void;
  },
): Promise<HandoffResult> {
  const id = newId('h');
  const session = page.session;
  const before = await page.exclusive(async () => {
    if (session.readOnly) {
      throw new BrowserError(
        'read_only',
        `Session ${session.id} is read-only; a handoff would let it change.`,
      );
    }
    page.assertNoDialog();
    page.assertNoHandoff();
    page.handoffId = id;
    try {
      return await look(page);
    } catch (e) {
      page.handoffId = null;
      throw e;
    }
  });

  const started = Date.now();
  let settle!: (via: HandoffVia | 'closed') => void;
  const outcome = new Promise<HandoffVia | 'closed'>((resolve) => (settle = resolve));
  const info: PendingHandoff = {
    handoff_id: id,
    page_id: page.id,
    session_id: session.id,
    instructions: opts.instructions,
    url: before.url,
    started_at: started,
    timeout_at: started + opts.timeoutMs,
  };
  const { pending } = session.state.get(handoffsSlot);
  pending.set(id, { info, page, settle });
  const live = liveOf(page);
  const offSignal = live.onSignal((s) => {
    if (s.type === 'continue' && s.id === id) settle('in_page');
  });
  const offGone = session.events.subscribe({ session_id: session.id }, (e) => {
    if (e.type === 'session-stopped' || (e.type === 'page-closed' && e.page_id === page.id)) settle('closed');
  });
  const timer = setTimeout(() => settle('timeout'), opts.timeoutMs);
  const onAbort = () => settle('cancelled');
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort);
  session.touch(opts.timeoutMs);

  let via: HandoffVia | 'closed';
  try {
    live.banner = { id, instructions: opts.instructions };
    await live.render();
    session.events.emit('handoff-requested', session.id, {
      page_id: page.id,
      handoff_id: id,
      instructions: opts.instructions,
      url: before.url,
      timeout_ms: opts.timeoutMs,
    });
    if (page.closed || session.closed) settle('closed');
    else opts.onPending?.(info);
    via = await outcome;
  } finally {
    clearTimeout(timer);
    offSignal();
    offGone();
    opts.signal?.removeEventListener('abort', onAbort);
    pending.delete(id);
    if (live.banner?.id === id) live.banner = null;
    void live.render();
  }

  const final: HandoffVia = via === 'closed' ? 'timeout' : via;
  let url = before.url;
  remember(session, id, final);
  try {
    if (via === 'closed') page.assertOpen();
    // nobody waits for this answer: give the page back at once, without looking at it again
    if (via === 'cancelled') return cancelledResult(page, id, before.url, started);
    // look again under the lock, so no queued agent action slips in before the comparison
    const after = await page.exclusive(() => look(page));
    url = after.url;
    const cookies = cookieChanges(before.cookies, after.cookies);
    return {
      confirmed: final !== 'timeout' && final !== 'cancelled',
      handoff_id: id,
      via: final,
      url: after.url,
      title: after.snap?.title ?? (await page.raw.title().catch(() => '')),
      page_id: page.id,
      session_id: session.id,
      waited_ms: Date.now() - started,
      url_before: before.url,
      navigated: after.generation !== before.generation,
      changes:
        before.snap && after.snap ? diffOutlines(before.snap.nodes, after.snap.nodes, MAX_CHANGES) : null,
      cookies_added: cookies.added,
      cookies_changed: cookies.changed,
    };
  } finally {
    if (page.handoffId === id) page.handoffId = null;
    session.touch();
    session.events.emit('handoff-resolved', session.id, {
      page_id: page.id,
      handoff_id: id,
      via: final,
      confirmed: final !== 'timeout' && final !== 'cancelled' && via !== 'closed',
      url,
      ...(via === 'closed' ? { page_closed: true } : {}),
    });
  }
}

function cancelledResult(page: BrowPage, id: string, url: string, started: number): HandoffResult {
  return {
    confirmed: false,
    handoff_id: id,
    via: 'cancelled',
    url: page.url(),
    title: '',
    page_id: page.id,
    session_id: page.session.id,
    waited_ms: Date.now() - started,
    url_before: url,
    navigated: false,
    changes: null,
    cookies_added: [],
    cookies_changed: [],
  };
}

function remember(session: Session, id: string, via: HandoffVia): void {
  const { resolved } = session.state.get(handoffsSlot);
  resolved.set(id, via);
  if (resolved.size > MAX_RESOLVED) resolved.delete(resolved.keys().next().value as string);
}

/** The pending handoffs of these sessions whose page is still the core's. */
function pendingIn(core: BrowCore, sessions: Iterable<Session>): Pending[] {
  const out: Pending[] = [];
  for (const s of sessions)
    for (const p of s.state.peek(handoffsSlot)?.pending.values() ?? [])
      if (core.findPage(p.page.id) === p.page) out.push(p);
  return out;
}

/** Pending handoffs of a core's sessions, oldest first. */
export function pendingHandoffs(core: BrowCore): PendingHandoff[] {
  return pendingIn(core, core.sessions.values())
    .map((p) => p.info)
    .sort((a, b) => a.started_at - b.started_at);
}

/**
 * Resolve a pending handoff from outside the page: by id, or the one pending in a session.
 * A handoff that already ended answers `{resolved: false, via}` instead of an error.
 */
export function confirmHandoff(
  core: BrowCore,
  by: { handoff_id?: string | undefined; session_id?: string | undefined },
  owner: string | null = null,
): { handoff_id: string; resolved: boolean; via?: HandoffVia } {
  if (by.handoff_id) {
    const visible = core.sessionsVisibleTo(owner);
    const p = pendingIn(core, visible).find((x) => x.info.handoff_id === by.handoff_id);
    if (p) {
      p.settle('confirm_call');
      return { handoff_id: by.handoff_id, resolved: true };
    }
    for (const s of visible) {
      const via = s.state.peek(handoffsSlot)?.resolved.get(by.handoff_id);
      if (via) return { handoff_id: by.handoff_id, resolved: false, via };
    }
    throw new BrowserError('invalid_request', `No handoff ${by.handoff_id} is pending.`, {
      hint: 'Use the handoff_id a browser_handoff call reported, or pass session_id.',
    });
  }
  if (!by.session_id) {
    throw new BrowserError('invalid_request', 'Pass handoff_id or session_id.', {
      hint: 'handoff_id comes from browser_handoff (or its handoff-requested event).',
    });
  }
  const session = core.session(by.session_id, owner);
  const mine = [...(session.state.peek(handoffsSlot)?.pending.values() ?? [])];
  if (mine.length !== 1) {
    throw new BrowserError(
      'invalid_request',
      mine.length === 0
        ? `Session ${session.id} has no pending handoff.`
        : `Session ${session.id} has ${mine.length} pending handoffs: ${mine.map((p) => p.info.handoff_id).join(', ')}.`,
      { hint: mine.length === 0 ? 'Nothing to confirm.' : 'Pass the handoff_id to confirm.' },
    );
  }
  const p = mine[0]!;
  p.settle('confirm_call');
  return { handoff_id: p.info.handoff_id, resolved: true };
}
