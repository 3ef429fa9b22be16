/**
 * Saved browser state: the session's cookies plus localStorage and sessionStorage per origin.
 * Origins: those its open pages show (top level: a third-party frame's storage is partitioned under
 * the page's site, and restoring it as the origin's own would be wrong), those a loaded state brought, and those
 * its cookies belong to. sessionStorage belongs to a tab, so only open tabs give it. Origins no
 * open page shows are read, and localStorage is restored, through one hidden page that visits
 * each origin on a stub document brow serves itself (request interception: no network, none of
 * the site's scripts run). sessionStorage is restored straight into open pages on that origin and,
 * for the session's later documents, by a script that runs before the page's own and fills a
 * tab's empty sessionStorage for that origin. IndexedDB: see indexeddb.ts.
 */
import { within } from '../deadline.js';
import type { Frame, Page } from 'puppeteer-core';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';
import { getCookies, restoreCookies, type StoredCookie } from './cookies.js';
import { readIndexedDb, writeIndexedDb, type IdbDatabase } from './indexeddb.js';

export interface OriginStorage {
  origin: string;
  local_storage: [string, string][];
  session_storage: [string, string][];
  /** The origin's IndexedDB databases that could be saved as data (see indexeddb.ts). */
  indexed_db?: IdbDatabase[];
}

export interface SavedState {
  brow_state: 1;
  saved_at: string;
  cookies: StoredCookie[];
  origins: OriginStorage[];
}

/** Counts for answers: saved values never appear in them. */
export interface StateCounts {
  cookies: number;
  origins: number;
  local_storage_items: number;
  session_storage_items: number;
  indexed_db_databases: number;
}

export function countState(s: SavedState): StateCounts {
  return {
    cookies: s.cookies.length,
    origins: s.origins.length,
    local_storage_items: s.origins.reduce((n, o) => n + o.local_storage.length, 0),
    session_storage_items: s.origins.reduce((n, o) => n + o.session_storage.length, 0),
    indexed_db_databases: s.origins.reduce((n, o) => n + (o.indexed_db?.length ?? 0), 0),
  };
}

/** A frame that does not answer within this long (a busy page) is skipped. */
const FRAME_READ_MS = 2000;
/** IndexedDB reads get longer (a database of a few MB), still bounded. */
const IDB_READ_MS = 4000;

function bounded<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return within(
    p.catch(() => null),
    ms,
    null,
  );
}

const isWebOrigin = (url: string) => /^https?:\/\//.test(url);

/** An origin's storage as one frame shows it; IndexedDB databases left out are added to `skipped`. */
async function readOrigin(frame: Frame, skipped: string[]): Promise<OriginStorage | null> {
  const got = await readFrame(frame);
  if (!got || got.origin === 'null') return null;
  const idb = await bounded(readIndexedDb(frame), IDB_READ_MS);
  if (idb) {
    for (const name of idb.skipped) skipped.push(`${got.origin} ${name}`);
    if (idb.databases.length > 0) got.indexed_db = idb.databases;
  } else {
    skipped.push(`${got.origin} IndexedDB (not readable in ${IDB_READ_MS} ms)`);
  }
  return got;
}

function readFrame(frame: Frame): Promise<OriginStorage | null> {
  return bounded(
    frame.evaluate(() => {
      const pairs = (s: Storage) => {
        const out: [string, string][] = [];
        for (let i = 0; i < s.length; i++) {
          const k = s.key(i);
          if (k !== null) out.push([k, s.getItem(k) ?? '']);
        }
        return out;
      };
      return {
        origin: location.origin,
        local_storage: pairs(localStorage),
        session_storage: pairs(sessionStorage),
      };
    }),
    FRAME_READ_MS,
  );
}

/** Collect the session's cookies and the storage of the origins its pages show. */
export async function collectState(session: Session): Promise<{ state: SavedState; skipped: string[] }> {
  const cookies = await getCookies(session);
  const skipped: string[] = [];
  const byOrigin = new Map<string, OriginStorage>();
  // the active page first: its sessionStorage wins when two tabs show one origin
  const pages = [...session.pages.values()].filter((p) => !p.closed);
  pages.sort((a, b) => Number(b.id === session.activePageId) - Number(a.id === session.activePageId));
  for (const page of pages) {
    const frame = page.raw.mainFrame();
    if (!isWebOrigin(frame.url()) || byOrigin.has(new URL(frame.url()).origin)) continue;
    const got = await readOrigin(frame, skipped);
    if (got && !byOrigin.has(got.origin)) byOrigin.set(got.origin, got);
  }
  // origins no page shows now: brought by a loaded state, or where the cookies come from
  const known = session.state.peek(knownOrigins) ?? new Set<string>();
  const hidden = [...new Set([...known, ...cookies.map(cookieOrigin)])].filter(
    (o): o is string => !!o && isWebOrigin(o) && !byOrigin.has(o),
  );
  const more = await readHidden(session, hidden, skipped);
  return {
    state: {
      brow_state: 1,
      saved_at: new Date().toISOString(),
      cookies,
      origins: [...byOrigin.values(), ...more],
    },
    skipped,
  };
}

/** Origins a loaded state brought: a later save reads them even when no page shows them. */
const knownOrigins = slot('storage.known-origins', () => new Set<string>());

/** sessionStorage to seed in the session's tabs, by origin (the latest load wins). */
const sessionSeed = slot('storage.session-seed', () => ({
  byOrigin: new Map<string, [string, string][]>(),
  installed: false,
}));

/** Runs in every new document before the page's scripts: fills an empty sessionStorage of a known origin. */
function seedScript(seed: Record<string, [string, string][]>): void {
  try {
    const items = Object.prototype.hasOwnProperty.call(seed, location.origin) ? seed[location.origin] : null;
    if (!items || sessionStorage.length > 0) return;
    for (const [k, v] of items) sessionStorage.setItem(k, v);
  } catch {
    // storage refused (sandboxed frame, opaque origin)
  }
}

async function installSeed(page: BrowPage, byOrigin: Map<string, [string, string][]>): Promise<void> {
  if (byOrigin.size === 0) return;
  await page.raw.evaluateOnNewDocument(seedScript, Object.fromEntries(byOrigin));
}

/** How many origins no page shows a save reads through the hidden page (each is a stub load). */
const MAX_HIDDEN_ORIGINS = 50;

/**
 * Run fn with a hidden page of the session's context whose every request is answered with an empty
 * document by brow: `visit(origin)` puts it on that origin without the network or the site's scripts.
 */
async function withStubPage<T>(
  session: Session,
  fn: (visit: (origin: string) => Promise<Page>) => Promise<T>,
): Promise<T> {
  const page = await session.context.newPage();
  try {
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      void r
        .respond({ status: 200, contentType: 'text/html', body: '<!doctype html><title>brow</title>' })
        .catch(() => undefined);
    });
    return await fn(async (origin) => {
      await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded', timeout: 10_000 });
      return page;
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * Put localStorage and IndexedDB of each origin in place through the hidden page. Returns the
 * origins that refused it, and the databases left alone (present already, or refused).
 */
async function restoreOrigins(
  session: Session,
  origins: OriginStorage[],
): Promise<{ failed: string[]; skipped: string[] }> {
  const todo = origins.filter(
    (o) => (o.local_storage.length > 0 || (o.indexed_db?.length ?? 0) > 0) && isWebOrigin(o.origin),
  );
  if (todo.length === 0) return { failed: [], skipped: [] };
  return withStubPage(session, async (visit) => {
    const failed: string[] = [];
    const skipped: string[] = [];
    for (const o of todo) {
      try {
        const page = await visit(o.origin);
        await page.evaluate((items: [string, string][]) => {
          for (const [k, v] of items) localStorage.setItem(k, v);
        }, o.local_storage);
        if (o.indexed_db?.length) {
          for (const name of await writeIndexedDb(page.mainFrame(), o.indexed_db))
            skipped.push(`${o.origin} ${name}`);
        }
      } catch {
        // one origin that will not load (or whose storage is full) leaves the others restored
        failed.push(o.origin);
      }
    }
    return { failed, skipped };
  });
}

/** The origin a cookie was set from ("http://127.0.0.1:8080"), when it names one host. */
function cookieOrigin(c: StoredCookie): string | null {
  const host = c.domain.replace(/^\./, '');
  if (!host) return null;
  const https = c.secure || c.sourceScheme === 'Secure';
  const port =
    c.sourcePort && c.sourcePort > 0 && c.sourcePort !== (https ? 443 : 80) ? `:${c.sourcePort}` : '';
  try {
    return new URL(`${https ? 'https' : 'http'}://${host}${port}`).origin;
  } catch {
    return null;
  }
}

/** localStorage of origins no open page shows, read through the hidden page; empty ones are left out. */
async function readHidden(session: Session, origins: string[], skipped: string[]): Promise<OriginStorage[]> {
  if (origins.length === 0) return [];
  return withStubPage(session, async (visit) => {
    const out: OriginStorage[] = [];
    for (const origin of origins.slice(0, MAX_HIDDEN_ORIGINS)) {
      const page = await visit(origin).catch(() => null);
      if (!page) continue;
      const got = await readOrigin(page.mainFrame(), skipped);
      if (got && (got.local_storage.length > 0 || got.indexed_db)) out.push({ ...got, session_storage: [] });
    }
    return out;
  });
}

/** Restore saved state into a session: cookies, localStorage, and sessionStorage for its tabs. */
export async function applyState(
  session: Session,
  state: SavedState,
): Promise<{ failed_origins: string[]; skipped: string[] }> {
  await restoreCookies(session, state.cookies);
  const { failed, skipped } = await restoreOrigins(session, state.origins);
  const known = session.state.get(knownOrigins);
  for (const o of state.origins) known.add(o.origin);
  const seed = session.state.get(sessionSeed);
  for (const o of state.origins)
    if (o.session_storage.length > 0) seed.byOrigin.set(o.origin, o.session_storage);
  if (seed.byOrigin.size === 0) return { failed_origins: failed, skipped };
  const fresh = new Map(
    state.origins.filter((o) => o.session_storage.length > 0).map((o) => [o.origin, o.session_storage]),
  );
  for (const page of session.pages.values()) {
    if (page.closed) continue;
    await installSeed(page, fresh).catch(() => undefined);
    // a tab already on one of the origins gets its items now (the page's own values kept)
    const frame = page.raw.mainFrame();
    const items = isWebOrigin(frame.url()) ? fresh.get(new URL(frame.url()).origin) : undefined;
    if (!items) continue;
    await bounded(
      frame.evaluate((its: [string, string][]) => {
        for (const [k, v] of its) if (sessionStorage.getItem(k) === null) sessionStorage.setItem(k, v);
      }, items),
      FRAME_READ_MS,
    );
  }
  if (!seed.installed) {
    seed.installed = true;
    session.pageSetups.add((page) => installSeed(page, seed.byOrigin));
  }
  return { failed_origins: failed, skipped };
}
