/**
 * The launched Chromium sessions share: one, in the config's display mode with its executable,
 * launched on first use and again after a crash. A session in the other mode (a headful session
 * when the config says headless) gets a browser of its own that ends with it: a person's window
 * closes with the session. Settings are read from the live config at each acquire, so a config
 * change reaches the next session; a shared browser launched with settings since changed is
 * retired: it serves its sessions until the last one ends.
 */
import { mkdirSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import { settledWithin, within } from '../deadline.js';
import { launchChromium } from './launch.js';

/**
 * A browser asked to close that has not exited this long after is killed: puppeteer's close waits
 * for the process with no bound, and a Chromium that hangs on its way out (a stalled disk, a
 * starved machine) would hold a session's stop, or brow's, for ever.
 */
const CLOSE_BOUND_MS = 20_000;

/** Close a browser; past `boundMs` kill its process, and wait (bounded) for it to be gone. */
export async function closeWithin(browser: Browser, boundMs: number): Promise<void> {
  const closed = browser.close().catch(() => undefined);
  if (
    await within(
      closed.then(() => true),
      boundMs,
      false,
    )
  )
    return;
  const proc = browser.process();
  // (a process without a pid never started: -0 would name brow's own process group)
  if (proc?.pid && proc.exitCode === null && proc.signalCode === null) {
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // the group puppeteer started it in (its helpers with it), else the process alone
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
    await settledWithin(gone, 5000);
  }
  // puppeteer's close ends with the process (its pipe closes): let what follows it run
  await settledWithin(closed, 2000);
}

/** What browser a host runs (seed 001's browser_identity), read once when it starts or is reached. */
export interface BrowserIdentity {
  product: string;
  version: string;
  user_agent: string;
}

/** The identity of a browser; null when it does not answer. */
export async function identify(browser: Browser): Promise<BrowserIdentity | null> {
  try {
    const [version, ua] = await Promise.all([browser.version(), browser.userAgent()]);
    const [product = 'Chromium', number = ''] = version.split('/');
    return { product: product.replace('HeadlessChrome', 'Chrome'), version: number, user_agent: ua };
  } catch {
    return null;
  }
}

export interface BrowserHost {
  browser: Browser;
  identity?: BrowserIdentity | null;
  /** Resolves when the browser disconnects (crash, kill or close). */
  disconnected: Promise<void>;
  /** True once disconnected. */
  dead: boolean;
}

/** What the pool reads from the config at each acquire. */
export interface PoolSettings {
  executable: string;
  headless: boolean;
  process_per_session: boolean;
}

export class BrowserPool {
  /** Shared browsers by launch key (executable and display mode). */
  private readonly shared = new Map<string, Promise<BrowserHost>>();

  constructor(
    private readonly settings: () => PoolSettings,
    /** How long a closing browser may take before it is killed (CLOSE_BOUND_MS; tests lower it). */
    private readonly closeBoundMs = CLOSE_BOUND_MS,
  ) {}

  /** A browser for a session with this display mode: the shared one, or its own when dedicated. */
  async acquire(headless: boolean, dedicated = this.settings().process_per_session): Promise<BrowserHost> {
    const settings = this.settings();
    const { executable } = settings;
    if (dedicated || headless !== settings.headless) return this.launch(executable, headless);
    const key = `${executable}|${headless ? 'headless' : 'headful'}`;
    // retire a shared browser launched with settings the config no longer names
    for (const k of this.shared.keys()) if (k !== key) this.shared.delete(k);
    const current = this.shared.get(key);
    if (current) {
      const host = await current.catch(() => null);
      if (host && !host.dead) return host;
    }
    const next = this.launch(executable, headless);
    this.shared.set(key, next);
    next.catch(() => {
      if (this.shared.get(key) === next) this.shared.delete(key);
    });
    return next;
  }

  /** Browsers running a persistent profile, by directory: one Chromium per profile (its lock allows no more). */
  private readonly profiles = new Map<string, Promise<BrowserHost>>();

  /**
   * The browser running the profile in `dir`, launched on first use with it as its user data
   * directory. Sessions of one profile share it (and its context, as windows of one Chrome profile
   * do); it closes with the last of them (it is not shared).
   */
  async acquireProfile(dir: string, headless: boolean): Promise<BrowserHost> {
    // a profile's last browser must be gone first: Chromium allows one process per profile
    await this.closingProfiles.get(dir);
    const current = this.profiles.get(dir);
    if (current) {
      const host = await current.catch(() => null);
      if (host && !host.dead) return host;
    }
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const next = this.launch(this.settings().executable, headless, dir);
    this.profiles.set(dir, next);
    const forget = () => {
      if (this.profiles.get(dir) === next) this.profiles.delete(dir);
    };
    next.then((h) => h.disconnected.then(forget), forget).catch(() => undefined);
    return next;
  }

  /** Profile browsers being closed, by directory. */
  private readonly closingProfiles = new Map<string, Promise<void>>();

  /**
   * Close a host if it runs a profile (its last session ended); true when it did. The next
   * session of that profile waits for this close before it launches again.
   */
  async closeProfile(host: BrowserHost): Promise<boolean> {
    for (const [dir, p] of this.profiles) {
      if ((await p.catch(() => null)) !== host) continue;
      this.profiles.delete(dir);
      const closing = this.closeHost(host);
      this.closingProfiles.set(dir, closing);
      void closing.then(() => {
        if (this.closingProfiles.get(dir) === closing) this.closingProfiles.delete(dir);
      });
      await closing;
      return true;
    }
    return false;
  }

  /** Is this host a shared one still handed out (not to be closed when one session ends)? */
  async isShared(host: BrowserHost): Promise<boolean> {
    for (const p of this.shared.values()) if ((await p.catch(() => null)) === host) return true;
    return false;
  }

  /** How many shared browsers are live (for tests and doctor). */
  get sharedCount(): number {
    return this.shared.size;
  }

  /** Every browser launched and not yet gone, whoever holds it: close() ends them all. */
  private readonly launched = new Set<BrowserHost>();

  private async launch(executable: string, headless: boolean, userDataDir?: string): Promise<BrowserHost> {
    const browser = await launchChromium({ executable, headless, ...(userDataDir ? { userDataDir } : {}) });
    const host: BrowserHost = {
      browser,
      identity: await identify(browser),
      dead: false,
      disconnected: new Promise<void>((resolve) => {
        browser.once('disconnected', () => {
          host.dead = true;
          resolve();
        });
      }),
    };
    this.launched.add(host);
    void host.disconnected.then(() => this.launched.delete(host));
    return host;
  }

  /**
   * Close a launched browser no session uses any more (a session's own, one retired by a config
   * change). close() waits for it too.
   */
  retire(host: BrowserHost): Promise<void> {
    if (!this.launched.has(host)) return Promise.resolve();
    return this.closeHost(host);
  }

  /** Closes under way: close() waits for each (the process has ended when one resolves). */
  private readonly closings = new Set<Promise<void>>();

  private closeHost(host: BrowserHost): Promise<void> {
    const closing = closeWithin(host.browser, this.closeBoundMs);
    this.closings.add(closing);
    void closing.then(() => this.closings.delete(closing));
    return closing;
  }

  /** Close every browser brow launched, and wait for those already closing. */
  async close(): Promise<void> {
    // launches under way, and every live browser: shared, a session's own, one retired, a profile's
    const launching = [...this.shared.values(), ...this.profiles.values()];
    const live = [...this.launched];
    this.shared.clear();
    this.profiles.clear();
    // a profile browser closing flushes its cookies to disk: the next run reads them
    await Promise.all([...this.closings, ...this.closingProfiles.values()]);
    const hosts = new Set([...live, ...(await Promise.all(launching.map((p) => p.catch(() => null))))]);
    await Promise.all([...hosts].map((host) => (host && !host.dead ? this.closeHost(host) : undefined)));
  }
}
