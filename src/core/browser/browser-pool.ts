/** The launched Chromium shared by sessions: launched on first use, relaunched after a crash. */
import type { Browser } from 'puppeteer-core';
import { launchChromium, type LaunchOptions } from './launch.js';

export interface BrowserHost {
  browser: Browser;
  /** Resolves when the browser disconnects (crash, kill or close). */
  disconnected: Promise<void>;
  /** True once disconnected. */
  dead: boolean;
}

export class BrowserPool {
  private shared: Promise<BrowserHost> | null = null;

  constructor(private readonly base: LaunchOptions) {}

  /** The shared browser for sessions with these display settings (headless or headful). */
  async acquire(headless: boolean, dedicated = false): Promise<BrowserHost> {
    if (dedicated || headless !== (this.base.headless ?? true)) return this.launch(headless);
    const current = this.shared;
    if (current) {
      const host = await current.catch(() => null);
      if (host && !host.dead) return host;
    }
    const next = this.launch(headless);
    this.shared = next;
    next.catch(() => {
      if (this.shared === next) this.shared = null;
    });
    return next;
  }

  /** Is this host the shared one (not to be closed when one session ends)? */
  async isShared(host: BrowserHost): Promise<boolean> {
    return this.shared !== null && (await this.shared.catch(() => null)) === host;
  }

  private async launch(headless: boolean): Promise<BrowserHost> {
    const browser = await launchChromium({ ...this.base, headless });
    const host: BrowserHost = {
      browser,
      dead: false,
      disconnected: new Promise<void>((resolve) => {
        browser.once('disconnected', () => {
          host.dead = true;
          resolve();
        });
      }),
    };
    return host;
  }

  /** Close the shared browser, if launched. */
  async close(): Promise<void> {
    const current = this.shared;
    this.shared = null;
    const host = await current?.catch(() => null);
    if (host && !host.dead) await host.browser.close().catch(() => undefined);
  }
}
