/**
 * Saved browser state: the session's cookies plus localStorage and sessionStorage of the origins
 * its open pages (and their frames) show. Restoring: cookies over CDP; localStorage through one
 * hidden page that visits each origin on a stub document brow serves itself (request
 * interception: no network, none of the site's scripts run); sessionStorage, which belongs to a
 * tab, straight into open pages on that origin and, for the session's later documents, by a
 * script that runs before the page's own and fills a tab's empty sessionStorage for that origin.
 * IndexedDB is not saved.
 */
import type { Frame } from 'puppeteer-core';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';
import { getCookies, restoreCookies, type StoredCookie } from './cookies.js';

export interface OriginStorage {
  origin: string;
  local_storage: [string, string][];
  session_storage: [string, string][];
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
}

export function countState(s: SavedState): StateCounts {
  return {
    cookies: s.cookies.length,
    origins: s.origins.length,
    local_storage_items: s.origins.reduce((n, o) => n + o.local_storage.length, 0),
    session_storage_items: s.origins.reduce((n, o) => n + o.session_storage.length, 0),
  };
}

/** A frame that does not answer within this long (a busy page) is skipped. */
const FRAME_READ_MS = 2000;

function bounded<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<null>((r) => {
    timer = setTimeout(() => r(null), ms);
  });
  return Promise.race([p.catch(() => null), limit]).finally(() => clearTimeout(timer));
}

const isWebOrigin = (url: string) => /^https?:\/\//.test(url);

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
export async function collectState(session: Session): Promise<SavedState> {
  const cookies = await getCookies(session);
  const byOrigin = new Map<string, OriginStorage>();
  // the active page first: its sessionStorage wins when two tabs show one origin
  const pages = [...session.pages.values()].filter((p) => !p.closed);
  pages.sort((a, b) => Number(b.id === session.activePageId) - Number(a.id === session.activePageId));
  for (const page of pages) {
    for (const frame of page.raw.frames()) {
      if (!isWebOrigin(frame.url())) continue;
      const got = await readFrame(frame);
      if (!got || got.origin === 'null' || byOrigin.has(got.origin)) continue;
      byOrigin.set(got.origin, got);
    }
  }
  return {
    brow_state: 1,
    saved_at: new Date().toISOString(),
    cookies,
    origins: [...byOrigin.values()],
  };
}

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

/** Put localStorage of each origin in place through one hidden page showing a stub document per origin. */
async function restoreLocalStorage(session: Session, origins: OriginStorage[]): Promise<void> {
  const todo = origins.filter((o) => o.local_storage.length > 0 && isWebOrigin(o.origin));
  if (todo.length === 0) return;
  const page = await session.context.newPage();
  try {
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      void r
        .respond({ status: 200, contentType: 'text/html', body: '<!doctype html><title>brow</title>' })
        .catch(() => undefined);
    });
    for (const o of todo) {
      await page.goto(`${o.origin}/`, { waitUntil: 'domcontentloaded', timeout: 10_000 });
      await page.evaluate((items: [string, string][]) => {
        for (const [k, v] of items) localStorage.setItem(k, v);
      }, o.local_storage);
    }
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Restore saved state into a session: cookies, localStorage, and sessionStorage for its tabs. */
export async function applyState(session: Session, state: SavedState): Promise<void> {
  await restoreCookies(session, state.cookies);
  await restoreLocalStorage(session, state.origins);
  const seed = session.state.get(sessionSeed);
  for (const o of state.origins)
    if (o.session_storage.length > 0) seed.byOrigin.set(o.origin, o.session_storage);
  if (seed.byOrigin.size === 0) return;
  const fresh = new Map(
    state.origins.filter((o) => o.session_storage.length > 0).map((o) => [o.origin, o.session_storage]),
  );
  for (const page of session.pages.values()) {
    if (page.closed) continue;
    await installSeed(page, fresh).catch(() => undefined);
    // a tab already on one of the origins gets its items now (the page's own values kept)
    for (const frame of page.raw.frames()) {
      if (!isWebOrigin(frame.url())) continue;
      const origin = new URL(frame.url()).origin;
      const items = fresh.get(origin);
      if (!items) continue;
      await bounded(
        frame.evaluate((its: [string, string][]) => {
          for (const [k, v] of its) if (sessionStorage.getItem(k) === null) sessionStorage.setItem(k, v);
        }, items),
        FRAME_READ_MS,
      );
    }
  }
  if (!seed.installed) {
    seed.installed = true;
    session.pageSetups.add((page) => installSeed(page, seed.byOrigin));
  }
}
