/**
 * The `browser` tool's view of the browsers its tabs use, one handle per kind, counted by the
 * tabs that hold it: brow's own headless Chromium, an app spawned with remote debugging
 * (`app.path`), or a browser reached at a CDP URL (`app.cdp_url`). The kernel's hosts
 * (core/browser/hosts.ts) own the processes and connections: a spawned or connected handle holds
 * its host once while it lives, so a core session attached to the same URL shares the connection.
 * A handle whose browser went away is recreated.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { CONNECT_WAIT_MS, type BrowserHosts, type RemoteHost } from '../browser/hosts.js';
import { browserEndpoint } from '../browser/launch.js';

export type BrowserKind =
  | { kind: 'headless' }
  | { kind: 'spawned'; path: string; args: string[] }
  | { kind: 'connected'; cdpUrl: string };

export interface BrowserHandle {
  key: string;
  kind: BrowserKind;
  /** The host's own connection (target picking, orphan cleanup). */
  browser: Browser;
  /** What a tab worker connects to. */
  wsEndpoint: string;
  /** Tabs holding it. */
  refs: number;
  /** The kernel's host (spawned, connected kinds): held once by this handle. */
  host?: RemoteHost;
  describe: string;
}

/** The identity of a kind: tabs bound to one key cannot move to another. */
export function kindKey(k: BrowserKind): string {
  if (k.kind === 'headless') return 'headless';
  if (k.kind === 'spawned') return `spawned:${k.path}`;
  return `connected:${k.cdpUrl}`;
}

/** Resolve and check an app.path: an absolute executable file (relative paths against the workspace root). */
export function resolveAppPath(path: string, workspaceRoot: string): string {
  const abs = isAbsolute(path) ? path : resolve(workspaceRoot, path);
  let ok = false;
  try {
    ok = statSync(abs).isFile();
    accessSync(abs, constants.X_OK);
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new BrowserError('invalid_request', `app.path "${path}" is not an executable file.`, {
      hint: 'Pass the absolute path of the executable itself (for a macOS .app, the binary in Contents/MacOS), e.g. /usr/bin/chromium.',
      details: { path: abs },
    });
  }
  return abs;
}

export class BrowserRegistry {
  private readonly handles = new Map<string, Promise<BrowserHandle>>();

  constructor(
    private readonly hosts: BrowserHosts,
    private readonly sharedBrowser: () => Promise<Browser>,
  ) {}

  /** The live handle of this kind, created when missing or dead. Not yet held: call hold(). */
  async acquire(kind: BrowserKind): Promise<BrowserHandle> {
    const key = kindKey(kind);
    const existing = this.handles.get(key);
    if (existing) {
      const h = await existing.catch(() => null);
      if (h && h.browser.connected && !(h.host && !this.hosts.live(h.host))) return h;
      if (h) await this.dispose(h, false);
      if (this.handles.get(key) === existing) this.handles.delete(key);
    }
    const created = this.create(key, kind);
    this.handles.set(key, created);
    created.catch(() => {
      if (this.handles.get(key) === created) this.handles.delete(key);
    });
    return created;
  }

  hold(h: BrowserHandle): void {
    h.refs += 1;
  }

  /** Drop one hold; at zero the handle lets go of its host (with kill, the host ends an app brow spawned). */
  async release(h: BrowserHandle, kill: boolean): Promise<void> {
    h.refs = Math.max(0, h.refs - 1);
    if (h.refs > 0) return;
    if ((await this.handles.get(h.key)?.catch(() => null)) === h) this.handles.delete(h.key);
    await this.dispose(h, kill);
  }

  /** Let go of every handle (brow is closing). */
  async closeAll(kill: boolean): Promise<void> {
    const all = await Promise.all([...this.handles.values()].map((p) => p.catch(() => null)));
    this.handles.clear();
    await Promise.all(all.map((h) => (h ? this.dispose(h, kill) : undefined)));
  }

  private async dispose(h: BrowserHandle, kill: boolean): Promise<void> {
    // headless: brow's shared Chromium, which the pool owns
    if (h.host) await this.hosts.release(h.host, kill);
  }

  private async create(key: string, kind: BrowserKind): Promise<BrowserHandle> {
    if (kind.kind === 'headless') {
      const browser = await this.sharedBrowser();
      return {
        key,
        kind,
        browser,
        wsEndpoint: await browserEndpoint(browser),
        refs: 0,
        describe: 'headless Chromium (brow)',
      };
    }
    const host =
      kind.kind === 'connected'
        ? await this.hosts.attach(kind.cdpUrl, CONNECT_WAIT_MS)
        : await this.hosts.app(kind.path, kind.args);
    const describe = kind.kind === 'connected' ? `connected ${kind.cdpUrl}` : host.describe;
    return { key, kind, browser: host.browser, wsEndpoint: host.wsEndpoint, refs: 0, host, describe };
  }
}
