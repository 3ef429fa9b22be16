/** A page (tab) of a session: its puppeteer Page, lock, refs, records and dialog state. */
import { cpus, loadavg } from 'node:os';
import type { CDPSession, Dialog, Page } from 'puppeteer-core';
import { frameIdOf, pageClient, pageTargetId, targetInfo } from '../browser/internals.js';
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import { keepRequest } from '../observe/kept-requests.js';
import { observePage } from '../observe/page-observers.js';
import type { DialogRecord } from '../observe/records.js';
import { RefRegistry } from '../snapshot/ref-registry.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { pageScriptSource } from '../snapshot/page-script.js';
import { readWhatArrived, settledWithin, sleep, within } from '../deadline.js';
import { StateBag } from '../state-bag.js';
import type { Session } from './session.js';

/** Why brow stopped a page's script (Runtime.terminateExecution). */
export type ScriptStopReason =
  /** It did not yield for script_watchdog_ms and showed no progress. */
  | 'not_yielding'
  /** It kept showing progress (console output, errors, requests) without yielding past the hard cap. */
  | 'busy_too_long'
  /** It did not yield while brow was leaving the page (navigate, history): it would have held the page there. */
  | 'blocked_navigation';

/** brow stopped a page's script: what a call answers as `script_stopped`. */
export interface ScriptStop {
  /** How long the page had not answered when brow stopped its script (ms). */
  after_ms: number;
  reason: ScriptStopReason;
  /** When (epoch ms). */
  at: number;
  /** The document whose script it was (the page's document_generation then) and its URL. */
  document_generation: number;
  url: string;
}

/** The sentence every answer of a call that stopped a page's script carries. */
export function scriptStopText(stop: ScriptStop): string {
  const s =
    stop.after_ms < 10_000 ? (stop.after_ms / 1000).toFixed(1) : String(Math.round(stop.after_ms / 1000));
  const why =
    stop.reason === 'busy_too_long'
      ? 'it did not yield (it kept logging or loading, past the hard cap)'
      : stop.reason === 'blocked_navigation'
        ? 'it did not yield, which held the page where it was'
        : 'it did not yield';
  return `brow stopped this page's script after ${s} s: ${why}; page state may be half-updated.`;
}

/** The page events that show a busy renderer is still making progress (its script emits them as it runs). */
const PROGRESS_EVENTS = [
  'Runtime.consoleAPICalled',
  'Runtime.exceptionThrown',
  'Log.entryAdded',
  'Network.requestWillBeSent',
  'Page.lifecycleEvent',
] as const;

export interface PendingDialog {
  record: DialogRecord;
  dialog: Dialog;
}

export class BrowPage {
  readonly id = newId('p');
  readonly createdAt = Date.now();
  readonly refs = new RefRegistry();
  /** Bumped by every cross-document navigation of the main frame. */
  documentGeneration = 0;
  closed = false;
  /** brow closed (or released) it: a close nobody asked brow for came from the page or a person. */
  closedByCall = false;
  /** A dialog waiting for browser_handle_dialog (policy `report`). */
  pendingDialog: PendingDialog | null = null;
  /** Dialogs seen since the last action collected them. */
  dialogLog: DialogRecord[] = [];
  /**
   * The latest whole-page walk by anyone (list, find, action effect): a cheap baseline when
   * unchanged. Kernel state, on purpose a field: the snapshot pipeline writes it and the kernel's
   * actions read it (effect, replay locator). What the listing remembers between calls (the last
   * listed snapshot, cursors) is its own, in `listingSlot` (snapshot/list-elements.ts).
   */
  lastWalk: Snapshot | null = null;
  /**
   * A walk ahead that finished while a call waited for the page: that call, the next to start,
   * takes it without asking every frame for its stamp again (see takeSnapshot).
   */
  walkHandOff: { snap: Snapshot; call: number } | null = null;
  /** Calls asked of exclusive() and not yet settled, the running one included. */
  pendingCalls = 0;
  /** Calls exclusive() has started so far. */
  callsStarted = 0;
  /** Set while a person holds the page (handoff). */
  handoffId: string | null = null;
  /** Set when the page's renderer crashed: every call on it answers browser_crashed at once. */
  crashed = false;
  /** The main document's load state, as document.readyState names it (seed 001's `readiness`). */
  readiness: 'loading' | 'interactive' | 'complete' = 'complete';
  /** The URLs the last main-frame navigation was redirected from, first to last (seed 001's `redirect_chain`). */
  redirectChain: string[] = [];
  /** Told when the renderer crashes: calls in flight fail at once instead of waiting on it. */
  private readonly crashWaiters = new Set<(e: BrowserError) => void>();
  cdp!: CDPSession;
  /** Feature state owned by the page; disposed when it closes. */
  readonly state = new StateBag();
  private queue: Promise<unknown> = Promise.resolve();
  private detach: () => void = () => undefined;
  private dialogWaiters = new Set<(d: DialogRecord) => void>();

  private scriptId: string | null = null;
  /** The scripts brow stopped on this page, oldest first (the last few). */
  readonly scriptStops: ScriptStop[] = [];

  constructor(
    readonly session: Session,
    readonly raw: Page,
    readonly openerPageId: string | null = null,
    /** A person's tab adopted over CDP: released untouched, never closed by brow. */
    readonly adopted = false,
  ) {}

  /** Wire observers and the in-page script; called once before the page is used. */
  async init(viewport: { width: number; height: number } | null): Promise<void> {
    const s = this.session;
    this.detach = observePage(this.raw, {
      pageId: this.id,
      sessionId: s.id,
      console: s.console,
      network: s.network,
      events: s.events,
      dialogPolicy: () => s.dialogPolicy,
      onRequest: (req, entry) => keepRequest(s, req, entry.seq),
      onDialog: (record, dialog) => {
        this.dialogLog.push(record);
        if (this.dialogLog.length > 20) this.dialogLog.shift();
        if (record.handled === 'pending') this.pendingDialog = { record, dialog };
        for (const w of this.dialogWaiters) w(record);
      },
    });
    this.cdp = await this.raw.createCDPSession();
    await this.cdp.send('Page.enable');
    this.cdp.on('Inspector.targetCrashed', () => this.markCrashed());
    await this.cdp.send('Inspector.enable').catch(() => undefined);
    this.cdp.on('Page.frameStartedLoading', (e) => {
      if (e.frameId === frameIdOf(this.raw.mainFrame())) this.readiness = 'loading';
    });
    this.cdp.on('Page.domContentEventFired', () => {
      if (this.readiness === 'loading') this.readiness = 'interactive';
    });
    this.cdp.on('Page.loadEventFired', () => (this.readiness = 'complete'));
    this.raw.on('response', (res) => {
      const req = res.request();
      if (!req.isNavigationRequest() || req.frame() !== this.raw.mainFrame()) return;
      this.redirectChain = req.redirectChain().map((r) => r.url());
    });
    this.cdp.on('Page.frameNavigated', (e) => {
      if (!e.frame.parentId) {
        this.documentGeneration += 1;
        // a new document is loading until its own load event, whatever the last one reached
        this.readiness = 'loading';
        this.pendingDialog = null;
        s.events.emit('navigated', s.id, { page_id: this.id, url: e.frame.url });
      }
    });
    this.raw.on('close', () => this.markClosed());
    // puppeteer turns Inspector.targetCrashed into an 'error' event ("Page crashed!")
    this.raw.on('error', (e: Error) => {
      if (/crash/i.test(String(e?.message ?? e))) this.markCrashed();
    });
    this.scriptId = (await this.raw.evaluateOnNewDocument(pageScriptSource())).identifier;
    if (viewport) await this.raw.setViewport({ ...viewport, deviceScaleFactor: 1 });
  }

  /**
   * Run fn with this page to itself: calls on one page are serialised. The call is watched (see
   * guard): a crash fails it at once, a renderer that stops answering is stopped and fails it
   * with `timeout`. `watch: 'off'` for calls with a bound of their own on the page's script
   * (evaluate terminates its script at its timeout); `'free'` to stop a hung script and let the
   * call go on (a navigation away from a hung page).
   */
  exclusive<T>(fn: () => Promise<T>, opts: { watch?: Watch } = {}): Promise<T> {
    let work: Promise<T> | null = null;
    this.pendingCalls++;
    const run = this.queue.then(() => {
      this.callsStarted++;
      this.assertOpen();
      work = fn();
      return guard(this, work, opts.watch ?? 'fail');
    });
    // the next call waits for this one's work too, but never long for work a crash or hang stranded
    this.queue = run.catch(() => undefined).then(() => (work ? settledWithin(work, 2000) : undefined));
    const settled = () => {
      this.pendingCalls--;
    };
    run.then(settled, settled);
    return run;
  }

  /** The tab's CDP target id. */
  get targetId(): string | null {
    try {
      return pageTargetId(this.raw);
    } catch {
      return null;
    }
  }

  /** The last title read from the document, with the URL it was read at. */
  private knownTitle: { url: string; title: string } | null = null;

  /** Note a title read from the page's document (by a navigation, a listing). */
  noteTitle(title: string): void {
    this.knownTitle = { url: this.url(), title };
  }

  /**
   * The title without a round trip to the renderer (a hung or crashed page answers too): the
   * browser's, unless it has not heard one yet (it then reports the URL), when the last one read
   * from the document at this URL stands in.
   */
  title(): string {
    let reported = '';
    try {
      reported = targetInfo(this.raw.target()).title;
    } catch {
      // puppeteer's internals are checked by their own test
    }
    const url = this.url();
    if (this.isPlaceholder(reported, url) && this.knownTitle?.url === url) return this.knownTitle.title;
    return reported;
  }

  /** A title that is only the browser's stand-in for one: empty, or the URL (with or without its scheme). */
  private isPlaceholder(title: string, url: string): boolean {
    return !title || url.endsWith(title) || title === url.replace(/^\w+:\/\//, '');
  }

  /**
   * The title as the browser holds it now, asked of the browser, not the renderer (Target domain),
   * so a page whose script never yields answers too. puppeteer's copy (title()) can lag: it kept
   * the URL while the browser already had the <title> parsed before a script that hung. Noted
   * for title() when it is a real one; '' when the browser does not answer within `ms`.
   */
  async browserTitle(ms = 500): Promise<string> {
    if (this.closed) return this.title();
    const asked = this.cdp
      .send('Target.getTargetInfo')
      .then((r) => r.targetInfo.title)
      .catch(() => '');
    const title = await within(asked, ms, '');
    if (title && !this.isPlaceholder(title, this.url())) this.noteTitle(title);
    return title;
  }

  /** Race work (that takes no lock, like a wait) against the renderer crashing. */
  async whileAlive<T>(work: Promise<T>): Promise<T> {
    const crash = this.crashedPromise();
    try {
      return await Promise.race([work, crash.promise]);
    } finally {
      crash.dispose();
    }
  }

  /** Wait for a crash of the renderer: a promise that rejects with browser_crashed, for racing. */
  crashedPromise(): { promise: Promise<never>; dispose(): void } {
    let waiter: ((e: BrowserError) => void) | undefined;
    const promise = new Promise<never>((_, reject) => {
      if (this.crashed) return reject(this.crashError());
      waiter = (e) => reject(e);
      this.crashWaiters.add(waiter);
    });
    promise.catch(() => undefined);
    return { promise, dispose: () => waiter && this.crashWaiters.delete(waiter) };
  }

  markCrashed(): void {
    if (this.crashed || this.closed) return;
    this.crashed = true;
    this.pendingDialog = null;
    const err = this.crashError();
    for (const w of this.crashWaiters) w(err);
    this.crashWaiters.clear();
    this.session.events.emit('page-crashed', this.session.id, { page_id: this.id, url: this.url() });
  }

  crashError(): BrowserError {
    return new BrowserError('browser_crashed', `The renderer of page ${this.id} crashed (${this.url()}).`, {
      hint: 'Close it with browser_close_page and open the URL again in a new page; the session and its other pages are fine.',
      details: { page_id: this.id, session_id: this.session.id, url: this.url(), reason: 'renderer_crashed' },
    });
  }

  /**
   * Is the page's script answering? One trivial evaluation on the page's own CDP session,
   * bounded: a renderer whose script never yields answers nothing. An answer that reached this
   * process by the bound counts, even when brow was too starved to read it in time.
   */
  async responsive(withinMs: number): Promise<boolean> {
    if (this.closed || this.crashed) return false;
    let answered = false;
    const probe = this.cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(
      () => void (answered = true),
      () => void (answered = true), // an error is an answer: the renderer is there
    );
    // within reads what arrived by the bound before it gives up (readWhatArrived)
    await within(probe, withinMs, undefined);
    return answered;
  }

  /**
   * Has the page's script yielded? Sends one trivial evaluation and waits until it answers, or
   * until the page has not answered for `limitMs` since `since` (the last time it did). While the
   * page shows progress (`lastProgress`, from watchProgress: a long but finite task that logs or loads, whose answer
   * may also queue behind its own events) the wait goes on, until it is quiet for a second or
   * `hardCapMs(limitMs)` has passed. An abort of `signal` ends it as answered (nothing to stop).
   */
  async probe(
    since: number,
    limitMs: number,
    lastProgress: () => number,
    signal?: AbortSignal,
    quietMs: number = Math.min(PROGRESS_QUIET_MS, limitMs),
  ): Promise<{ answered: true } | { answered: false; silent_ms: number; reason: ScriptStopReason }> {
    if (this.closed || this.crashed) return { answered: true };
    let answered = false;
    const reply = this.cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(
      () => void (answered = true),
      () => void (answered = true), // an error is an answer: the renderer is there
    );
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = () => resolve();
      if (signal?.aborted) resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const cap = hardCapMs(limitMs);
    const quiet = quietMs;
    // a verdict is only given once what already reached this process has been read: a timer that
    // fires after this process was starved runs before the pipe data that waited meanwhile (the
    // page's answer, its progress events), so the data is read first (readWhatArrived)
    let read = false;
    try {
      for (;;) {
        if (answered || signal?.aborted || this.closed || this.crashed) return { answered: true };
        const now = Date.now();
        const silent = now - since;
        let wait: number;
        if (silent < limitMs) wait = since + limitMs - now;
        else if (!read) {
          read = true;
          await readWhatArrived();
          continue;
        } else if (silent >= cap) return { answered: false, silent_ms: silent, reason: 'busy_too_long' };
        else if (now - lastProgress() < quiet)
          wait = Math.min(lastProgress() + quiet - now, since + cap - now);
        else return { answered: false, silent_ms: silent, reason: 'not_yielding' };
        read = false;
        await within(Promise.race([reply, aborted]), Math.max(wait, 10), undefined);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Note when the page last showed progress (PROGRESS_EVENTS on its main CDP session) until
   * disposed: a guarded call listens for its whole length, so a task that began logging before
   * the watchdog's first probe counts as busy, not hung.
   */
  watchProgress(): { last(): number; dispose(): void } {
    let last = 0;
    const seen = () => void (last = Date.now());
    let client: CDPSession | null = null;
    try {
      client = pageClient(this.raw);
    } catch {
      // puppeteer's internals are checked by their own test; without them, wall time alone decides
    }
    for (const e of PROGRESS_EVENTS) client?.on(e, seen);
    return {
      last: () => last,
      dispose: () => {
        for (const e of PROGRESS_EVENTS) client?.off(e, seen);
      },
    };
  }

  /** Stop whatever script the page runs now (a loop that never yields); the page answers again. */
  async terminateScript(): Promise<void> {
    await this.cdp.send('Runtime.terminateExecution').catch(() => undefined);
  }

  /**
   * Stop the page's script and keep a record of it (`scriptStops`, the `page-unresponsive` event):
   * every answer of the call that did so says it.
   */
  async stopScript(afterMs: number, reason: ScriptStopReason, action: string): Promise<ScriptStop> {
    const stop: ScriptStop = {
      after_ms: Math.round(afterMs),
      reason,
      at: Date.now(),
      document_generation: this.documentGeneration,
      url: this.url(),
    };
    this.scriptStops.push(stop);
    if (this.scriptStops.length > 5) this.scriptStops.shift();
    await this.terminateScript();
    this.session.events.emit('page-unresponsive', this.session.id, {
      page_id: this.id,
      url: stop.url,
      action,
      after_ms: stop.after_ms,
      reason,
    });
    return stop;
  }

  /** The last script brow stopped on this page at or after `since` (epoch ms), if any. */
  scriptStoppedSince(since: number): ScriptStop | undefined {
    const last = this.scriptStops.at(-1);
    return last && last.at >= since ? last : undefined;
  }

  /** The last script brow stopped in the page's current document, if any. */
  scriptStoppedInDocument(): ScriptStop | undefined {
    const last = this.scriptStops.at(-1);
    return last && last.document_generation === this.documentGeneration ? last : undefined;
  }

  assertOpen(): void {
    if (this.crashed && !this.closed) throw this.crashError();
    if (this.closed) {
      throw new BrowserError('page_closed', `Page ${this.id} is closed.`);
    }
    if (this.session.closed) {
      throw new BrowserError(
        'session_closed',
        `Session ${this.session.id} has ended (${this.session.stopReason}).`,
      );
    }
  }

  /** Fail with dialog_blocking while a reported dialog is open: the page's script is frozen by it. */
  assertNoDialog(): void {
    const d = this.pendingDialog;
    if (d) {
      throw new BrowserError('dialog_blocking', `A ${d.record.type} dialog is open: "${d.record.message}".`, {
        details: { dialog: d.record },
      });
    }
  }

  assertNoHandoff(): void {
    if (this.handoffId) {
      throw new BrowserError(
        'handoff_pending',
        `A person has control of page ${this.id} (handoff ${this.handoffId}).`,
      );
    }
  }

  /**
   * Race work that touches the page's script against a dialog opening: a dialog freezes the page,
   * so script calls would hang. Resolves with `{dialog}` when one opened first.
   */
  async raceDialog<T>(work: Promise<T>): Promise<{ value: T } | { dialog: DialogRecord }> {
    let waiter: ((d: DialogRecord) => void) | undefined;
    const dialogOpened = new Promise<{ dialog: DialogRecord }>((resolve) => {
      waiter = (d) => {
        if (d.handled === 'pending') resolve({ dialog: d });
      };
      this.dialogWaiters.add(waiter);
    });
    try {
      return await Promise.race([work.then((value) => ({ value })), dialogOpened]);
    } finally {
      if (waiter) this.dialogWaiters.delete(waiter);
      work.catch(() => undefined);
    }
  }

  url(): string {
    return this.raw.url();
  }

  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.forgetPage(this);
    this.dispose();
  }

  /** Free what the page holds (observers, walks, refs, feature state): it is closed for good. */
  dispose(): void {
    this.closed = true;
    this.detach();
    this.detach = () => undefined;
    this.lastWalk = null;
    this.walkHandOff = null;
    this.pendingDialog = null;
    this.dialogWaiters.clear();
    this.refs.clear();
    void this.state.dispose();
  }

  /** Let go of an adopted tab: listeners, our init script and CDP session go; the tab stays as it is. */
  async release(): Promise<void> {
    if (this.closed) return;
    this.closedByCall = true;
    this.markClosed();
    if (this.scriptId)
      await this.raw.removeScriptToEvaluateOnNewDocument(this.scriptId).catch(() => undefined);
    await this.cdp?.detach().catch(() => undefined);
  }

  /** Close the tab; beforeunload handlers never hold it open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closedByCall = true;
    this.markClosed();
    await this.raw.close({ runBeforeUnload: false }).catch(() => undefined);
  }
}

/** How a call on a page is watched: fail it when the renderer hangs, free the renderer and go on, or not at all. */
export type Watch = 'fail' | 'free' | 'off';

/** At most this long between asks whether the renderer still answers (less under a low script_watchdog_ms). */
const WATCH_EVERY_MS = 2000;
/** A busy page that showed no progress for this long (or script_watchdog_ms, if lower) is not making any. */
const PROGRESS_QUIET_MS = 1000;

/** The most a busy machine stretches script_watchdog_ms (watchdogLimitMs). */
const LOAD_STRETCH_MAX = 5;

/**
 * The watchdog's limit now: config script_watchdog_ms, stretched by how oversubscribed the machine's
 * CPUs are (1-minute load average per CPU, from 1 up to LOAD_STRETCH_MAX). On a machine running 15
 * runnable tasks per core a renderer doing finite work gets a fifteenth of a core, so a page that is
 * only starved looks, by wall time alone, like a script that never yields; it must not be stopped
 * for the machine's load (a 16-session load run on a busy 2-core machine was, at 6 s).
 */
export function watchdogLimitMs(
  configured: number,
  load: number = loadavg()[0] ?? 0,
  cpuCount: number = cpus().length,
  maxStretch: number = LOAD_STRETCH_MAX,
): number {
  const perCpu = load / Math.max(1, cpuCount);
  const stretch = Math.min(maxStretch, Math.max(1, Number.isFinite(perCpu) ? perCpu : 1));
  return Math.round(configured * stretch);
}

/** However much progress it shows, a script that does not yield is stopped after this long. */
export function hardCapMs(limitMs: number): number {
  return Math.max(5 * limitMs, 15_000);
}

/**
 * Race a call's work against the renderer crashing, and (unless `off`) against it hanging: while
 * the work runs, brow asks every few seconds whether the page's script answers (BrowPage.probe); a
 * page that has not answered for script_watchdog_ms and shows no progress (and has no dialog open,
 * which also holds its script) gets its script stopped. `fail` then fails the call with a typed
 * timeout (reason page_unresponsive); `free` lets it go on, and its answer says it (scriptStops).
 */
async function guard<T>(page: BrowPage, work: Promise<T>, watch: Watch): Promise<T> {
  const crash = page.crashedPromise();
  let done = false;
  const stopWatching = new AbortController();
  const progress = watch === 'off' ? null : page.watchProgress();
  const watcher = async (): Promise<never> => {
    // read once per call: the limit a call's stop reports is the one it was held to
    const cfg = page.session.config;
    const limit = watchdogLimitMs(
      cfg.script_watchdog_ms,
      undefined,
      undefined,
      cfg.script_watchdog_max_stretch,
    );
    // a starved renderer also shows its progress less often: the quiet that counts as none is
    // stretched by the same factor as the limit
    const quiet = Math.min(
      Math.round(PROGRESS_QUIET_MS * (limit / Math.max(1, cfg.script_watchdog_ms))),
      limit,
    );
    const every = Math.min(WATCH_EVERY_MS, Math.round(limit / 3));
    // the last time the page was known to answer (or not to be held by its own script)
    let lastAnswer = Date.now();
    for (;;) {
      await sleep(every, stopWatching.signal);
      if (done) return new Promise<never>(() => undefined);
      if (page.pendingDialog || page.handoffId) {
        lastAnswer = Date.now();
        continue;
      }
      const verdict = await page.probe(
        lastAnswer,
        limit,
        progress?.last ?? (() => 0),
        stopWatching.signal,
        quiet,
      );
      if (verdict.answered || done || page.pendingDialog || page.closed || page.crashed) {
        lastAnswer = Date.now();
        continue;
      }
      const stop = await page.stopScript(
        verdict.silent_ms,
        verdict.reason,
        watch === 'free' ? 'script_stopped' : 'call_failed',
      );
      lastAnswer = Date.now();
      if (watch === 'free') continue;
      throw new BrowserError(
        'timeout',
        `Page ${page.id} stopped answering: its script ran without yielding (a loop that never ends?). ${scriptStopText(stop)}`,
        {
          hint: 'List its elements again, or reload it (browser_history reload) or navigate away. A task that is slow but finite may need a higher script_watchdog_ms.',
          details: { page_id: page.id, url: page.url(), reason: 'page_unresponsive', script_stopped: stop },
        },
      );
    }
  };
  try {
    const racers: Promise<T>[] = [work, crash.promise];
    if (watch !== 'off') racers.push(watcher());
    return await Promise.race(racers);
  } finally {
    done = true;
    stopWatching.abort();
    progress?.dispose();
    crash.dispose();
  }
}
