/**
 * The `browser` tool's tabs, by name: create, reuse, run, release. Each tab is a worker thread
 * holding one browser handle; opens and closes of one name are serialised.
 */
import { targetIdOf as internalTargetId } from '../browser/internals.js';
import { BrowserError } from '../errors.js';
import { type BrowserHandle, type BrowserRegistry } from './browsers.js';
import type {
  DialogPolicy,
  LogLevel,
  RunPayload,
  TabInfo,
  Viewport,
  WaitUntil,
  WorkerSettings,
} from './protocol.js';
import { TabWorker } from './tab-host.js';
import { pickTarget } from './pick-target.js';

export interface Tab {
  name: string;
  handle: BrowserHandle;
  worker: TabWorker;
  dialogs: DialogPolicy | undefined;
  waitUntil: WaitUntil;
  info: TabInfo;
  /** The last console lines of the tab's runs (never part of the output). */
  logs: string[];
}

export interface OpenOptions {
  url?: string | undefined;
  viewport?: Viewport | undefined;
  waitUntil: WaitUntil;
  dialogs?: DialogPolicy | undefined;
  target?: string | undefined;
  timeoutMs: number;
}

const MAX_LOGS = 200;
/** Each tab is a worker thread with its own connection: a cap keeps a runaway caller from exhausting memory. */
export const MAX_TABS = 20;

export class TabSupervisor {
  private readonly tabs = new Map<string, Tab>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** A worker thread started ahead, its modules loaded: the next tab starts without that wait. */
  private spare: TabWorker | null = null;
  private shutDown = false;

  constructor(
    private readonly browsers: BrowserRegistry,
    private readonly settings: () => WorkerSettings,
  ) {}

  get(name: string): Tab | undefined {
    return this.tabs.get(name);
  }

  names(): string[] {
    return [...this.tabs.keys()];
  }

  /** Run fn with this name to itself. */
  private locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(name) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.locks.set(name, tail);
    void tail.then(() => {
      if (this.locks.get(name) === tail) this.locks.delete(name);
    });
    return next;
  }

  /**
   * Reuse the live tab of this name on the same browser with the same dialog policy (navigating
   * when a url is given); otherwise release it and start a new one. Takes one hold on handle.
   */
  acquire(name: string, handle: BrowserHandle, opts: OpenOptions): Promise<{ tab: Tab; created: boolean }> {
    return this.locked(name, async () => {
      const existing = this.tabs.get(name);
      if (
        existing &&
        existing.handle === handle &&
        existing.worker.alive &&
        existing.dialogs === opts.dialogs
      ) {
        if (existing.worker.busy) throw busy(name);
        if (opts.url || opts.viewport) await this.navigate(existing, opts);
        return { tab: existing, created: false };
      }
      if (existing) await this.drop(existing, false);
      if (this.tabs.size >= MAX_TABS) {
        throw new BrowserError('resource_limit', `The browser tool has ${MAX_TABS} tabs open, its limit.`, {
          hint: 'Close a tab you no longer need with {"action": "close", "name": …}, or reuse one by name.',
        });
      }
      return { tab: await this.create(name, handle, opts), created: true };
    });
  }

  private async navigate(tab: Tab, opts: OpenOptions): Promise<void> {
    const lines: string[] = [];
    if (opts.viewport) {
      const v = { ...opts.viewport, deviceScaleFactor: opts.viewport.deviceScaleFactor ?? 1 };
      lines.push(`await page.setViewport(${JSON.stringify(v)});`);
    }
    if (opts.url)
      lines.push(
        `await tab.goto(${JSON.stringify(opts.url)}, { waitUntil: ${JSON.stringify(opts.waitUntil)} });`,
      );
    const res = await tab.worker.run(lines.join('\n'), opts.timeoutMs);
    tab.info = res.info;
  }

  private async create(name: string, handle: BrowserHandle, opts: OpenOptions): Promise<Tab> {
    const logs: string[] = [];
    let worker: TabWorker | null = null;
    let blank = '';
    this.browsers.hold(handle);
    try {
      const base = {
        ...this.settings(),
        name,
        browserWSEndpoint: handle.wsEndpoint,
        waitUntil: opts.waitUntil,
        timeoutMs: opts.timeoutMs,
        ...(opts.dialogs ? { dialogs: opts.dialogs } : {}),
        ...(opts.url ? { url: opts.url } : {}),
        ...(opts.viewport ? { viewport: opts.viewport } : {}),
      };
      const payload =
        handle.kind.kind === 'headless'
          ? {
              ...base,
              mode: 'headless' as const,
              stealth: true,
              targetId: (blank = await this.blankTarget(handle)),
            }
          : {
              ...base,
              mode: 'attach' as const,
              targetId: targetIdOf(await pickTarget(handle.browser, opts.target)),
            };
      worker = this.takeWorker((level, msg) => pushLog(logs, level, msg));
      const info = await worker.init(payload);
      // Start the next tab's thread now, not during this one's start (they would share the CPU).
      if (!this.shutDown && !this.spare?.alive) this.spare = new TabWorker(() => undefined);
      const tab: Tab = { name, handle, worker, dialogs: opts.dialogs, waitUntil: opts.waitUntil, info, logs };
      this.tabs.set(name, tab);
      return tab;
    } catch (e) {
      await worker?.kill();
      if (blank) await this.closeTarget(handle, blank);
      // An app this open just spawned for nothing goes too (the seed's rollback).
      await this.browsers.release(handle, handle.refs === 1 && handle.host?.child !== undefined);
      throw e;
    }
  }

  private takeWorker(onLog: (level: LogLevel, msg: string) => void): TabWorker {
    let w = this.spare;
    this.spare = null;
    if (w && w.alive) w.setLog(onLog);
    else w = new TabWorker(onLog);
    return w;
  }

  /** Run code in a tab: not alive → error; busy → error; a hung run kills the tab (headless page closed). */
  async run(name: string, code: string, timeoutMs: number, signal?: AbortSignal): Promise<RunPayload> {
    const tab = this.tabs.get(name);
    if (!tab || !tab.worker.alive) {
      throw new BrowserError('page_closed', `Tab "${name}" is not alive. Reopen it.`, {
        hint: `Call the browser tool with {"action": "open", "name": ${JSON.stringify(name)}} first.`,
      });
    }
    if (tab.worker.busy) throw busy(name);
    try {
      const res = await tab.worker.run(code, timeoutMs, signal);
      tab.info = res.info;
      return res;
    } finally {
      if (!tab.worker.alive) await this.closeOrphan(tab);
    }
  }

  /** Release one tab; false when there is none of that name. */
  release(name: string, kill: boolean): Promise<boolean> {
    return this.locked(name, async () => {
      const tab = this.tabs.get(name);
      if (!tab) return false;
      await this.drop(tab, kill);
      return true;
    });
  }

  /** Release every tab; returns how many there were. With shutdown, the spare worker goes too. */
  async releaseAll(kill: boolean, shutdown = false): Promise<number> {
    if (shutdown) {
      this.shutDown = true;
      await this.spare?.kill();
      this.spare = null;
    }
    const names = [...this.tabs.keys()];
    const done = await Promise.all(names.map((n) => this.release(n, kill)));
    return done.filter(Boolean).length;
  }

  private async drop(tab: Tab, kill: boolean): Promise<void> {
    if (this.tabs.get(tab.name) === tab) this.tabs.delete(tab.name);
    const wasAlive = tab.worker.alive;
    await tab.worker.close();
    if (!wasAlive) await this.closeOrphan(tab);
    await this.browsers.release(tab.handle, kill);
  }

  /** A new blank page in brow's Chromium, made here so the worker knows its target before it connects. */
  private async blankTarget(handle: BrowserHandle): Promise<string> {
    const cdp = await handle.browser.target().createCDPSession();
    try {
      const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
      return targetId;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  /** A killed headless tab leaves its page behind: close it by target id (best effort). */
  private async closeOrphan(tab: Tab): Promise<void> {
    if (tab.handle.kind.kind === 'headless' && tab.info.targetId)
      await this.closeTarget(tab.handle, tab.info.targetId);
  }

  private async closeTarget(handle: BrowserHandle, targetId: string): Promise<void> {
    if (!handle.browser.targets().some((t) => targetIdOf(t) === targetId)) return;
    const cdp = await handle.browser
      .target()
      .createCDPSession()
      .catch(() => null);
    if (!cdp) return;
    await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }
}

function busy(name: string): BrowserError {
  return new BrowserError('resource_limit', `Tab "${name}" is busy`, {
    hint: 'Another run is still going in this tab; wait for it, or use another tab name.',
  });
}

function targetIdOf(x: { target(): unknown } | object): string {
  const t = 'target' in x && typeof x.target === 'function' ? (x.target as () => unknown)() : x;
  return internalTargetId(t as object);
}

function pushLog(logs: string[], level: LogLevel, msg: string): void {
  logs.push(`[${level}] ${msg}`);
  if (logs.length > MAX_LOGS) logs.splice(0, logs.length - MAX_LOGS);
  if (process.env.BROW_DEBUG) process.stderr.write(`[browser-tool ${level}] ${msg}\n`);
}
