/** A page (tab) of a session: its puppeteer Page, lock, refs, records and dialog state. */
import type { CDPSession, Dialog, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { newId } from '../ids.js';
import { observePage } from '../observe/page-observers.js';
import type { DialogRecord } from '../observe/records.js';
import { RefRegistry } from '../snapshot/ref-registry.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Pagination } from '../snapshot/list-elements.js';
import { pageScriptSource } from '../snapshot/page-script.js';
import { keepRequest } from '../read/request-bodies.js';
import { StateBag } from '../state-bag.js';
import type { Session } from './session.js';

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
  /** The last snapshot listed to a caller: `scope=changes` compares against it. */
  lastListed: Snapshot | null = null;
  /** The latest whole-page walk by anyone (list, find, action effect): a cheap baseline when unchanged. */
  lastWalk: Snapshot | null = null;
  /** The latest listed snapshot's lines, for cursors. */
  pagination: Pagination | null = null;
  /** Set while a person holds the page (handoff). */
  handoffId: string | null = null;
  cdp!: CDPSession;
  /** Feature state owned by the page; disposed when it closes. */
  readonly state = new StateBag();
  private queue: Promise<unknown> = Promise.resolve();
  private detach: () => void = () => undefined;
  private dialogWaiters = new Set<(d: DialogRecord) => void>();

  private scriptId: string | null = null;

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
    this.cdp.on('Page.frameNavigated', (e) => {
      if (!e.frame.parentId) {
        this.documentGeneration += 1;
        this.pendingDialog = null;
        s.events.emit('navigated', s.id, { page_id: this.id, url: e.frame.url });
      }
    });
    this.raw.on('close', () => this.markClosed());
    this.scriptId = (await this.raw.evaluateOnNewDocument(pageScriptSource())).identifier;
    if (viewport) await this.raw.setViewport({ ...viewport, deviceScaleFactor: 1 });
  }

  /** Run fn with this page to itself: calls on one page are serialised. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      this.assertOpen();
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  assertOpen(): void {
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
    this.lastListed = null;
    this.lastWalk = null;
    this.pagination = null;
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
