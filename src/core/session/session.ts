/** A session: an isolated browsing context with its pages, records, policies and idle timer. */
import type { BrowserContext, Page } from 'puppeteer-core';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserHost } from '../browser/browser-pool.js';
import type { BrowConfig } from '../config.js';
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import type { EventBus } from '../observe/events.js';
import type { ConsoleEntry, DownloadRecord, NetworkEntry } from '../observe/records.js';
import { RingBuffer } from '../observe/ring-buffer.js';
import { settledWithin } from '../deadline.js';
import { StateBag } from '../state-bag.js';
import { BrowPage } from './page.js';
import { walkAhead } from '../snapshot/walk-ahead.js';

export type StopReason = 'stopped' | 'idle' | 'crashed' | 'ttl' | 'shutdown';

/** Why a page went away: closed by a brow call, by the page itself or a person (`closed_by_page`), or with its session. */
export type PageGoneReason = 'closed' | 'closed_by_page' | StopReason;

export interface SessionOptions {
  headless: boolean;
  readOnly: boolean;
  incognito: boolean;
  viewport: { width: number; height: number };
  ttlMs: number | null;
  dialogPolicy: 'accept' | 'dismiss' | 'report';
  /** Who owns it (an HTTP MCP client, a CLI profile…); null = shared. */
  owner: string | null;
  /** A persistent Chromium profile (user_data_dir) the session runs in: stop closes its pages, not the profile's context. */
  profileDir?: string;
  /** Attached to a person's browser over CDP: stop releases instead of closing. */
  attached?: { cdpUrl: string; release(host: BrowserHost): Promise<void>; unclaim(targetId: string): void };
}

export class Session {
  readonly id = newId('s');
  readonly createdAt = Date.now();
  lastUsed = Date.now();
  readonly pages = new Map<string, BrowPage>();
  /** Tabs being wired up (not listed yet), so a popup is adopted once. */
  private readonly opening = new Set<Page>();
  activePageId: string | null = null;
  readonly console: RingBuffer<ConsoleEntry>;
  readonly network: RingBuffer<NetworkEntry>;
  readonly downloads: DownloadRecord[] = [];
  readonly downloadsDir: string;
  /** The JSON `state` persisted across browser_execute calls. */
  executeState: Record<string, unknown> = {};
  closed = false;
  stopReason: StopReason | null = null;
  dialogPolicy: 'accept' | 'dismiss' | 'report';
  private idleTimer: NodeJS.Timeout | null = null;
  /** The session stops for idleness at this time (epoch ms) unless a call is in flight then. */
  private idleUntil = 0;
  /** Calls naming this session or one of its pages that have not ended (beginCall). */
  private inFlight = 0;
  /** Of those, the calls that name it (activity); a call only falling back to it may leave it idle. */
  private namedInFlight = 0;
  private ttlTimer: NodeJS.Timeout | null = null;
  /** When the ttl stops the session (epoch ms), if it has one. */
  private ttlEndsAt = 0;
  private onStop: (s: Session, reason: StopReason) => void = () => undefined;
  /** Told when a page goes away (closed by a caller, by the page, or with the session). */
  onPageGone: (pageId: string, why: PageGoneReason) => void = () => undefined;
  /** Pages hide the usual automation tells (stealth patches applied to each). */
  stealth = false;
  /** Feature state owned by the session (routes, emulation, saved-state profile…); disposed on stop. */
  readonly state = new StateBag();
  /**
   * Run for every page the session opens, after its observers are wired and before it is used
   * (routes, emulation, headers…). A setup that throws fails the open.
   */
  readonly pageSetups = new Set<(page: BrowPage) => Promise<void>>();
  /** Run when the session stops, before its pages and context close (save state back…); errors are swallowed. */
  readonly stopHooks = new Set<(reason: StopReason) => Promise<void>>();

  constructor(
    readonly host: BrowserHost,
    readonly context: BrowserContext,
    readonly options: SessionOptions,
    readonly config: BrowConfig,
    readonly events: EventBus,
    dataDir: string,
  ) {
    this.console = new RingBuffer(config.console_buffer);
    this.network = new RingBuffer(config.network_buffer);
    this.dialogPolicy = options.dialogPolicy;
    this.downloadsDir = join(dataDir, this.id, 'downloads');
    mkdirSync(this.downloadsDir, { recursive: true });
  }

  get readOnly(): boolean {
    return this.options.readOnly;
  }

  /** Start timers and listen for pages the session's tabs open (popups, target=_blank). */
  start(onStop: (s: Session, reason: StopReason) => void): void {
    this.onStop = onStop;
    this.touch();
    if (this.options.ttlMs) {
      this.ttlEndsAt = Date.now() + this.options.ttlMs;
      this.ttlTimer = setTimeout(() => void this.stop('ttl'), this.options.ttlMs);
      this.ttlTimer.unref();
    }
  }

  /**
   * Note activity: the session stays at least idle_stop_ms (+ extraMs, a keep-alive's lease) from
   * now. A lease already further out is kept: a plain call does not cut a keep-alive short.
   */
  touch(extraMs = 0): void {
    const now = Date.now();
    this.lastUsed = now;
    this.idleUntil = Math.max(this.idleUntil, now + this.config.idle_stop_ms + extraMs);
    this.armIdle();
  }

  /**
   * A call on this session began: the session does not stop for idleness until the returned function
   * is called (the call's end). A call that names the session or one of its pages is activity at its
   * start and at its end; one that only falls back to it (`touch: false`, a call naming no session)
   * counts as activity at its end only if it used the session meanwhile (resolving a page touches it).
   * Idempotent.
   */
  beginCall(opts: { touch?: boolean } = {}): () => void {
    if (this.closed) return () => undefined;
    const touch = opts.touch ?? true;
    const usedBefore = this.lastUsed;
    this.inFlight += 1;
    if (touch) {
      this.namedInFlight += 1;
      this.touch();
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (touch) this.namedInFlight -= 1;
      if (this.closed) return;
      if (touch || this.lastUsed !== usedBefore) this.touch();
      else if (this.inFlight === 0) this.idleCheck(); // the idle check it held back, now (a timer could lose to the next call)
    };
  }

  /**
   * When the session ends if no call comes (epoch ms): its idle lease (a keep-alive's included), held
   * at least idle_stop_ms past now while a call naming it is in flight (its end is activity), and never
   * later than its ttl. A listing that only falls back to it does not lengthen it.
   */
  get expiresAt(): number {
    const idle =
      this.namedInFlight > 0
        ? Math.max(this.idleUntil, Date.now() + this.config.idle_stop_ms)
        : this.idleUntil;
    return this.ttlEndsAt ? Math.min(idle, this.ttlEndsAt) : idle;
  }

  /** Calls on this session now running (see beginCall). */
  get callsInFlight(): number {
    return this.inFlight;
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.closed) return;
    this.idleTimer = setTimeout(() => this.idleCheck(), Math.max(0, this.idleUntil - Date.now()));
    this.idleTimer.unref();
  }

  /** The idle timer fired: stop only when no call is in flight and the lease has run out. */
  private idleCheck(): void {
    this.idleTimer = null;
    if (this.closed || this.inFlight > 0) return; // the last call's end touches and re-arms
    if (Date.now() < this.idleUntil) return this.armIdle();
    void this.stop('idle');
  }

  /** Open a new tab in this session. */
  async openPage(opener: BrowPage | null = null, existing?: Page, adopted = false): Promise<BrowPage> {
    if (this.pages.size >= this.config.max_pages_per_session) {
      throw new BrowserError('resource_limit', `Session ${this.id} already has ${this.pages.size} pages.`, {
        hint: 'Close pages you no longer need with browser_close_page.',
      });
    }
    let page: BrowPage;
    let raw: Page | undefined = existing;
    if (existing) this.opening.add(existing);
    // a tab brow opens is a call's work: the session does not stop for idleness while it opens
    const endCall = existing ? null : this.beginCall();
    try {
      // A page of brow's own browser gets a window of its own: a background tab paints no frames,
      // so screenshots and animation-frame waits there would stall. A person's browser gets a tab.
      raw ??= await this.context.newPage(this.options.attached ? undefined : { type: 'window' });
      page = new BrowPage(this, raw, opener?.id ?? null, adopted);
      raw.on('popup', (popup) => {
        if (popup && !this.closed) void this.adoptPopup(page, popup);
      });
      await page.init(existing ? null : this.options.viewport);
      for (const setup of this.pageSetups) await setup(page);
      walkAhead(page);
      // listed (and so reachable by calls) only once its setups ran: no call sees it unrouted
      if (page.closed) throw new BrowserError('page_closed', `Page ${page.id} closed while it was opening.`);
      this.pages.set(page.id, page);
    } catch (e) {
      // a tab brow opened and could not wire up is not left behind
      if (raw && !existing) await raw.close({ runBeforeUnload: false }).catch(() => undefined);
      // the session ended (ttl, idle, crash) while the page was opening
      if (this.closed) {
        throw new BrowserError(
          'session_closed',
          `Session ${this.id} ended (${this.stopReason}) while a page was opening.`,
        );
      }
      throw e;
    } finally {
      if (existing) this.opening.delete(existing);
      endCall?.();
    }
    this.activePageId = page.id;
    this.events.emit('page-opened', this.id, { page_id: page.id, opener_page_id: page.openerPageId });
    return page;
  }

  private async adoptPopup(opener: BrowPage, popup: Page): Promise<void> {
    if (this.opening.has(popup) || [...this.pages.values()].some((p) => p.raw === popup)) return;
    try {
      await this.openPage(opener, popup);
    } catch {
      // the popup closed before it could be wired up
    }
  }

  /** Find a page of this session by id. */
  page(pageId: string): BrowPage {
    const p = this.pages.get(pageId);
    if (!p) throw new BrowserError('page_not_found', `No page ${pageId} in session ${this.id}.`);
    return p;
  }

  forgetPage(page: BrowPage): void {
    if (!this.pages.delete(page.id)) return;
    const crashed = this.host.dead || !this.host.browser.connected;
    this.onPageGone(
      page.id,
      this.stopReason ?? (crashed ? 'crashed' : page.closedByCall ? 'closed' : 'closed_by_page'),
    );
    if (this.activePageId === page.id) this.activePageId = [...this.pages.keys()].pop() ?? null;
    this.events.emit('page-closed', this.id, { page_id: page.id });
  }

  /** Stop the session: closes its context (and every page in it). Idempotent. */
  async stop(reason: StopReason = 'stopped'): Promise<boolean> {
    if (this.closed) return false;
    this.closed = true;
    this.stopReason = reason;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.ttlTimer) clearTimeout(this.ttlTimer);
    if (reason !== 'crashed') {
      for (const hook of this.stopHooks) await boundedHook(hook(reason));
    }
    this.stopHooks.clear();
    this.pageSetups.clear();

    for (const p of this.pages.values()) {
      p.closed = true;
      this.onPageGone(p.id, reason);
    }
    this.onStop(this, reason);
    const attached = this.options.attached;
    if (attached) {
      // a person's browser: close only tabs brow opened, release adopted ones untouched
      const pages = [...this.pages.values()];
      this.pages.clear();
      await Promise.all(
        pages.map(async (p) => {
          if (p.adopted) {
            if (p.targetId) attached.unclaim(p.targetId);
            p.closed = false;
            await p.release();
          } else if (reason !== 'crashed') {
            await p.raw.close({ runBeforeUnload: false }).catch(() => undefined);
          }
        }),
      );
      await attached.release(this.host);
      await this.state.dispose();
      return true;
    }
    const pages = [...this.pages.values()];
    this.pages.clear();
    this.activePageId = null;
    for (const p of pages) p.dispose();
    if (reason !== 'crashed') {
      // a profile's context is the browser's own (it lives on disk): only this session's tabs go
      if (this.options.profileDir) {
        await Promise.all(pages.map((p) => p.raw.close({ runBeforeUnload: false }).catch(() => undefined)));
      } else await this.context.close().catch(() => undefined);
    }
    this.dropPartialDownloads();
    await this.state.dispose();
    return true;
  }

  /** A download cut off by the stop (or a browser crash) leaves its partial file: it goes too. */
  private dropPartialDownloads(): void {
    for (const d of this.downloads) {
      if (d.state !== 'in_progress') continue;
      d.state = 'canceled';
      rmSync(d.path, { force: true });
    }
  }
}

/** A stop hook gets 5 s: a stop must end even when a hung page keeps a hook waiting. */
function boundedHook(work: Promise<void>): Promise<void> {
  return settledWithin(work, 5000);
}
