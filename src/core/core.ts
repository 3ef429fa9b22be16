/** BrowCore: sessions over a shared Chromium, the event stream, and page lookup. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession } from 'puppeteer-core';
import { namedProfileDir } from './browser/profiles.js';
import type { BrowserHost } from './browser/browser-pool.js';
import { BrowserHosts } from './browser/hosts.js';
import { AdoptedTabs, targetIdOf, type TabInfo } from './browser/attach.js';
import { trackDownloads, type DownloadOwner } from './observe/downloads.js';
import { frameIdOf } from './snapshot/snapshot.js';
import { resolveConfig, type BrowConfig, type BrowConfigInput } from './config.js';
import { BrowserError } from './errors.js';
import { StateBag } from './state-bag.js';
import { EventBus } from './observe/events.js';
import type { BrowPage } from './session/page.js';
import { Session, type PageGoneReason, type SessionOptions, type StopReason } from './session/session.js';

export interface StartSessionInput {
  headless?: boolean;
  read_only?: boolean;
  incognito?: boolean;
  viewport?: { width: number; height: number };
  ttl_ms?: number;
  dialog_policy?: 'accept' | 'dismiss' | 'report';
  owner?: string | null;
  /** Hide the usual automation tells in every page (headless only; default: config `stealth`). */
  stealth?: boolean;
  /** A named persistent Chromium profile (default: config `user_data_dir`, a directory). */
  user_data_dir?: string;
}

/**
 * Sessions started by a caller (an HTTP MCP client…) are that caller's: other callers with an
 * identity cannot see them. Callers without one (CLI, library, tool API) see every session.
 */
export function visibleTo(s: Session, owner: string | null): boolean {
  return owner === null || s.options.owner === null || s.options.owner === owner;
}

/** What brow remembers of a page that went away. */
interface PageGone {
  why: PageGoneReason;
  session_id: string;
  /** How long its session had been idle when the page went. */
  idle_ms: number;
  /** Headful or attached: a person could have closed it. */
  person: boolean;
}

export class BrowCore {
  readonly config: BrowConfig;
  readonly events = new EventBus();
  readonly sessions = new Map<string, Session>();
  private readonly ended = new Map<string, StopReason>();
  /** Pages that went away, and why: so their ids answer page_closed / browser_crashed, not page_not_found. */
  private readonly endedPages = new Map<string, PageGone>();
  /** Every Chromium brow holds: launched, attached at a CDP URL, or an app the `browser` tool spawned. */
  readonly hosts: BrowserHosts;
  private readonly closeHooks = new Set<() => Promise<void>>();
  /** Tabs of attached browsers that sessions adopted. */
  private readonly adopted: AdoptedTabs;
  /** Feature state that lives as long as brow (the tool's browsers, the vision queue, the console's address); disposed by close(). */
  readonly state = new StateBag();
  private readonly browserCdp = new WeakMap<BrowserHost, Promise<CDPSession>>();
  private readonly watchedHosts = new WeakSet<BrowserHost>();
  /** Where sessions keep downloads: data_dir, else a temp dir brow removes on close. */
  readonly dataDir: string;
  private readonly ownsDataDir: boolean;
  private starting = 0;
  private closing = false;
  /** The page used when a call names none: the last one touched (by any caller). */
  lastPageId: string | null = null;
  /** Each caller's last page. */
  private readonly lastPages = new Map<string | null, string>();

  constructor(config: BrowConfigInput = {}) {
    this.config = resolveConfig(config);
    // the pool reads the live config: updateConfig reaches the next launch
    this.hosts = new BrowserHosts(() => this.config);
    this.adopted = new AdoptedTabs(this.hosts);
    this.ownsDataDir = !this.config.data_dir;
    this.dataDir = this.config.data_dir || mkdtempSync(join(tmpdir(), 'brow-'));
  }

  /** Start a session: a fresh BrowserContext in the shared Chromium (or its own process). */
  async startSession(input: StartSessionInput = {}): Promise<Session> {
    if (this.closing) throw new BrowserError('session_closed', 'brow is shutting down.');
    if (this.sessions.size + this.starting >= this.config.max_sessions) {
      throw new BrowserError('resource_limit', `The session cap (${this.config.max_sessions}) is reached.`, {
        hint: 'Stop a session you no longer need with browser_stop_session, or raise max_sessions.',
        details: { max_sessions: this.config.max_sessions },
      });
    }
    this.starting += 1;
    try {
      const headless = input.headless ?? this.config.headless;
      const profileDir =
        input.user_data_dir !== undefined
          ? namedProfileDir(this.config, input.user_data_dir)
          : this.config.user_data_dir || null;
      const host = profileDir
        ? await this.hosts.pool.acquireProfile(profileDir, headless)
        : await this.hosts.pool.acquire(headless);
      const options: SessionOptions = {
        headless,
        readOnly: input.read_only ?? false,
        incognito: profileDir ? false : (input.incognito ?? true),
        ...(profileDir ? { profileDir } : {}),
        viewport: input.viewport ?? this.config.viewport,
        ttlMs: input.ttl_ms ?? null,
        dialogPolicy: input.dialog_policy ?? this.config.dialog_policy,
        owner: input.owner ?? null,
      };
      const context = profileDir
        ? host.browser.defaultBrowserContext()
        : await host.browser.createBrowserContext();
      const session = new Session(host, context, options, this.config, this.events, this.dataDir);
      const browserCdp = await this.browserSession(host);
      await browserCdp
        .send('Browser.setDownloadBehavior', {
          behavior: 'allowAndName',
          ...(context.id ? { browserContextId: context.id } : {}),
          downloadPath: session.downloadsDir,
          eventsEnabled: true,
        })
        .catch(() => undefined);
      session.onPageGone = (pageId, why) => this.notePageGone(session, pageId, why);
      if (headless && (input.stealth ?? this.config.stealth)) {
        const { applyStealth, defaultStealthOptions } = await import('./browser/stealth/index.js');
        // one set of values per session, so its pages agree with each other
        const options = defaultStealthOptions();
        session.stealth = true;
        session.pageSetups.add(async (page) => {
          if (!page.adopted) await applyStealth(page.raw, options);
        });
      }
      this.sessions.set(session.id, session);
      session.start((s, reason) => this.onSessionStopped(s, reason));
      this.watchHost(host);
      this.events.emit('session-started', session.id, {
        url: 'about:blank',
        headless,
        read_only: options.readOnly,
      });
      return session;
    } finally {
      this.starting -= 1;
    }
  }

  /**
   * Stop every session of a browser when it goes away. One watcher per browser that looks its
   * sessions up when it fires: a watcher per session would keep each stopped session reachable
   * for as long as the browser lives.
   */
  private watchHost(host: BrowserHost): void {
    if (this.watchedHosts.has(host)) return;
    this.watchedHosts.add(host);
    void host.disconnected.then(() => {
      for (const s of [...this.sessions.values()]) if (s.host === host) void s.stop('crashed');
    });
  }

  /** One browser-level CDP session per browser, listening for downloads of every session in it. */
  private browserSession(host: BrowserHost): Promise<CDPSession> {
    let cdp = this.browserCdp.get(host);
    if (!cdp) {
      cdp = host.browser
        .target()
        .createCDPSession()
        .then((c) => {
          trackDownloads(c, (frameId) => this.downloadOwner(frameId), this.config.max_download_bytes);
          return c;
        });
      this.browserCdp.set(host, cdp);
    }
    return cdp;
  }

  private downloadOwner(frameId: string): DownloadOwner | null {
    for (const s of this.sessions.values()) {
      for (const p of s.pages.values()) {
        if (!p.raw.frames().some((f) => frameIdOf(f) === frameId)) continue;
        return {
          pageId: p.id,
          sessionId: s.id,
          dir: s.downloadsDir,
          contextId: s.options.attached ? undefined : s.context.id,
          record: (d) => {
            s.downloads.push(d);
            if (s.downloads.length > 200) s.downloads.shift();
          },
          updated: (d) => this.events.emit('download', s.id, { page_id: p.id, download: d }),
        };
      }
    }
    return null;
  }

  /**
   * Attach a session to a running browser over CDP: a fresh tab it owns, or an adopted tab found
   * by URL substring (one session per tab). Off unless allow_attach.
   */
  async attachSession(input: {
    cdp_url: string;
    adopt_url_substring?: string;
    read_only?: boolean;
    owner?: string | null;
  }): Promise<{ session: Session; adopted: boolean }> {
    this.assertAttachAllowed();
    if (this.sessions.size + this.starting >= this.config.max_sessions) {
      throw new BrowserError('resource_limit', `The session cap (${this.config.max_sessions}) is reached.`);
    }
    this.starting += 1;
    try {
      const host = await this.hosts.attach(input.cdp_url);
      let session: Session | null = null;
      try {
        const options: SessionOptions = {
          headless: false,
          readOnly: input.read_only ?? false,
          incognito: false,
          viewport: this.config.viewport,
          ttlMs: null,
          dialogPolicy: this.config.dialog_policy,
          owner: input.owner ?? null,
          attached: {
            cdpUrl: input.cdp_url,
            release: (h) => this.hosts.release(h),
            unclaim: (id) => this.adopted.unclaim(id),
          },
        };
        session = new Session(
          host,
          host.browser.defaultBrowserContext(),
          options,
          this.config,
          this.events,
          this.dataDir,
        );
        const s = session;
        s.onPageGone = (pageId, why) => this.notePageGone(s, pageId, why);
        this.sessions.set(s.id, s);
        s.start((x, reason) => this.onSessionStopped(x, reason));
        this.watchHost(host);
        let adopted = false;
        if (input.adopt_url_substring) {
          const tab = await this.adopted.findTab(host, input.adopt_url_substring);
          this.adopted.claim(targetIdOf(tab.target()), s.id);
          await s.openPage(null, tab, true);
          adopted = true;
        } else {
          await s.openPage();
        }
        this.events.emit('session-started', s.id, {
          url: s.pages.values().next().value?.url() ?? '',
          headless: false,
          read_only: options.readOnly,
          attached: true,
        });
        return { session: s, adopted };
      } catch (e) {
        if (session) await session.stop('stopped');
        else await this.hosts.release(host);
        throw e;
      }
    } finally {
      this.starting -= 1;
    }
  }

  /** Tabs of a running browser, with which are adopted. */
  listTabs(cdpUrl: string): Promise<TabInfo[]> {
    this.assertAttachAllowed();
    return this.adopted.listTabs(cdpUrl);
  }

  private assertAttachAllowed(): void {
    if (!this.config.allow_attach) {
      throw new BrowserError('attach_disabled', 'Attaching to a running browser is disabled.', {
        hint: 'Set allow_attach: true in brow.config.json (or BROW_ALLOW_ATTACH=1) to let brow reach your browser.',
      });
    }
  }

  private onSessionStopped(s: Session, reason: StopReason): void {
    this.sessions.delete(s.id);
    this.ended.set(s.id, reason);
    if (this.ended.size > 1000) this.ended.delete(this.ended.keys().next().value as string);
    this.events.emit('session-stopped', s.id, { reason });
    if (s.options.attached) return;
    // a browser no longer shared (its own process, or one launched with settings since changed)
    // goes with its last session
    if ([...this.sessions.values()].some((o) => o.host === s.host)) return;
    if (s.options.profileDir) {
      void this.hosts.pool.closeProfile(s.host).catch(() => undefined);
      return;
    }
    void this.hosts.pool
      .isShared(s.host)
      .then((shared) => (shared ? undefined : this.hosts.pool.retire(s.host)))
      .catch(() => undefined);
  }

  /** The sessions a caller may see (see visibleTo). */
  sessionsVisibleTo(owner: string | null): Session[] {
    return [...this.sessions.values()].filter((s) => visibleTo(s, owner));
  }

  /** A live session; session_not_found or session_closed otherwise. */
  session(id: string, owner: string | null = null): Session {
    const s = this.sessions.get(id);
    if (s && !visibleTo(s, owner)) throw new BrowserError('session_not_found', `No session ${id}.`);
    if (s && !s.closed) return s;
    const reason = this.ended.get(id) ?? s?.stopReason;
    if (reason) throw new BrowserError('session_closed', `Session ${id} has ended (${reason}).`);
    throw new BrowserError('session_not_found', `No session ${id}.`);
  }

  /** Stop a session; idempotent. Returns whether it was running. */
  async stopSession(id: string, owner: string | null = null): Promise<boolean> {
    const s = this.sessions.get(id);
    if (!s || !visibleTo(s, owner)) {
      if (!s && this.ended.has(id)) return false;
      throw new BrowserError('session_not_found', `No session ${id}.`);
    }
    return s.stop('stopped');
  }

  /** The session a call without session_id means: the one of the last used page, else the newest. */
  defaultSession(owner: string | null = null): Session | null {
    const lastId = this.lastPages.get(owner) ?? (owner === null ? this.lastPageId : null);
    const last = lastId ? this.findPage(lastId) : null;
    if (last && visibleTo(last.session, owner)) return last.session;
    return [...this.sessions.values()].filter((s) => !s.closed && visibleTo(s, owner)).pop() ?? null;
  }

  /**
   * A call names a session (`session_id`) or a page (`page_id`): that session is in use from now
   * until the returned function is called (the call's end). Both count as activity, and the session
   * does not stop for idleness in between. A call naming neither holds the caller's default session
   * (the one it falls back to) without counting as activity unless it uses it. Unknown, ended or
   * invisible ids hold nothing (the call itself says what is wrong with them).
   */
  beginCall(input: unknown, owner: string | null = null): () => void {
    const { session_id: sid, page_id: pid } = (typeof input === 'object' && input !== null ? input : {}) as {
      session_id?: unknown;
      page_id?: unknown;
    };
    const named = (typeof sid === 'string' && sid !== '') || (typeof pid === 'string' && pid !== '');
    if (!named) {
      const fallback = this.defaultSession(owner);
      return fallback ? fallback.beginCall({ touch: false }) : () => undefined;
    }
    const held = new Set<Session>();
    const s = typeof sid === 'string' && sid ? this.sessions.get(sid) : undefined;
    if (s && visibleTo(s, owner)) held.add(s);
    const p = typeof pid === 'string' && pid ? this.findPage(pid) : null;
    if (p && visibleTo(p.session, owner)) held.add(p.session);
    const ends = [...held].map((x) => x.beginCall());
    return () => {
      for (const end of ends) end();
    };
  }

  /** Find a live page anywhere; null when unknown. */
  findPage(pageId: string): BrowPage | null {
    for (const s of this.sessions.values()) {
      const p = s.pages.get(pageId);
      if (p) return p;
    }
    return null;
  }

  /**
   * The page a call means: by id, else the session's active page, else the last used page.
   * Errors say which of page_not_found / page_closed / session_closed applies.
   */
  resolvePage(
    pageId?: string,
    sessionId?: string,
    owner: string | null = null,
    opts: { crashed?: 'allow' } = {},
  ): BrowPage {
    if (pageId) {
      const p = this.findPage(pageId);
      if (!p || !visibleTo(p.session, owner)) throw this.missingPage(pageId);
      if (!(opts.crashed === 'allow' && p.crashed)) p.assertOpen();
      if (sessionId && p.session.id !== sessionId) {
        throw new BrowserError('page_not_found', `Page ${pageId} is not in session ${sessionId}.`);
      }
      return this.touchPage(p, owner);
    }
    const s = sessionId ? this.session(sessionId, owner) : this.defaultSession(owner);
    const p = s?.activePageId ? s.pages.get(s.activePageId) : undefined;
    if (!p) {
      // the page the caller used last went away: say how, not only that none is open
      const lastId = this.lastPages.get(owner) ?? (owner === null ? this.lastPageId : null);
      const gone = !sessionId && lastId ? this.endedPages.get(lastId) : undefined;
      if (lastId && gone) throw this.missingPage(lastId, 'No page is open: the last page used, ');
      throw new BrowserError('page_not_found', 'No page is open.', {
        hint: 'Open one with browser_open_page, then pass its page_id.',
      });
    }
    return this.touchPage(p, owner);
  }

  /** Remember why a page went away (the last 5000), for the errors of calls that still name it. */
  private notePageGone(s: Session, pageId: string, why: PageGoneReason): void {
    this.endedPages.set(pageId, {
      why,
      session_id: s.id,
      idle_ms: Date.now() - s.lastUsed,
      person: !s.options.headless || !!s.options.attached,
    });
    if (this.endedPages.size > 5000) this.endedPages.delete(this.endedPages.keys().next().value as string);
  }

  /**
   * The error for a page id that is not open: why it went away when brow knows (closed by a call, by
   * the page or a person, idle stop, crash, ttl, session stop). `lead` starts the message instead of "Page".
   */
  private missingPage(pageId: string, lead = ''): BrowserError {
    const g = this.endedPages.get(pageId);
    const page = lead ? `${lead}page ${pageId},` : `Page ${pageId}`;
    const details = g ? { page_id: pageId, session_id: g.session_id, closed_reason: g.why } : {};
    const err = (
      code: 'page_closed' | 'page_expired' | 'session_closed' | 'browser_crashed',
      text: string,
      hint?: string,
    ) => new BrowserError(code, `${page} ${text}`, { details, ...(hint ? { hint } : {}) });
    const reopen = 'Open it again with browser_open_page (browser_list_pages lists the open ones).';
    switch (g?.why) {
      case undefined:
        return new BrowserError('page_not_found', `No open page ${pageId}.`);
      case 'crashed':
        return err('browser_crashed', 'is gone: its browser crashed or was killed.');
      case 'closed':
        return err('page_closed', 'was closed by a browser_close_page call.', reopen);
      case 'closed_by_page':
        return err(
          'page_closed',
          g.person
            ? 'was closed by the page itself (window.close) or by a person closing its window.'
            : 'was closed by the page itself (window.close).',
          reopen,
        );
      case 'idle':
        return err(
          'page_expired',
          `was closed after ${Math.round(g.idle_ms / 1000)} s idle: its session ${g.session_id} stopped (idle_stop_ms).`,
          `${reopen} browser_keep_alive keeps a session through a long pause; idle_stop_ms sets the idle time.`,
        );
      case 'ttl':
        return err('page_expired', `was closed when its session ${g.session_id} reached its ttl_ms.`, reopen);
      case 'stopped':
        return err('session_closed', `was closed when its session ${g.session_id} was stopped.`, reopen);
      case 'shutdown':
        return err('session_closed', `was closed when brow shut down.`, reopen);
    }
  }

  /** Remember a caller's last page: calls that name no page mean it. */
  notePage(p: BrowPage, owner: string | null = null): void {
    this.lastPageId = p.id;
    this.lastPages.set(owner, p.id);
    if (this.lastPages.size > 1000)
      this.lastPages.delete(this.lastPages.keys().next().value as string | null);
  }

  private touchPage(p: BrowPage, owner: string | null = null): BrowPage {
    this.notePage(p, owner);
    p.session.touch();
    return p;
  }

  /** The shared launched Chromium (started on first use); the seed-000 `browser` tool opens its headless tabs in it. */
  async sharedBrowser(): Promise<Browser> {
    if (this.closing) throw new BrowserError('session_closed', 'brow is shutting down.');
    return (await this.hosts.pool.acquire(this.config.headless, false)).browser;
  }

  /**
   * Start launching the shared Chromium now, for a door whose client will surely need it (`brow
   * mcp`); a launch failure is left for the first call that needs the browser to report.
   */
  prelaunch(): void {
    if (this.closing || this.config.process_per_session) return;
    void this.hosts.pool.acquire(this.config.headless, false).catch(() => undefined);
  }

  /** Run fn first when the core closes (tool tabs, workers); returns the unregister function. */
  onClose(fn: () => Promise<void>): () => void {
    this.closeHooks.add(fn);
    return () => void this.closeHooks.delete(fn);
  }

  /**
   * Change configuration live (bus `configuration:updated`): validated as a whole, applied in place so
   * sessions see it. Launch settings (executable, headless, data_dir, process_per_session) apply to
   * browsers launched later; buffer sizes to sessions started later.
   */
  updateConfig(partial: Partial<BrowConfigInput>): BrowConfig {
    const next = resolveConfig({ ...this.config, ...partial });
    Object.assign(this.config, next);
    return this.config;
  }

  /** Stop every session, then let go of every browser (hosts.close); removes brow's temp data. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([
      ...[...this.closeHooks].map((fn) => fn().catch(() => undefined)),
      this.state.dispose(),
    ]);
    await Promise.all([...this.sessions.values()].map((s) => s.stop('shutdown')));
    await this.hosts.close();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
