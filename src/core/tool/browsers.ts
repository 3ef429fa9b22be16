/**
 * Browser handles of the `browser` tool, one per kind and ref-counted by the tabs that hold
 * them: brow's own headless Chromium, an app spawned with remote debugging (`app.path`), or a
 * browser reached at a CDP URL (`app.cdp_url`). A handle whose browser went away is recreated.
 */
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { exited, findReusableCdp, killTree, spawnApp, waitForCdp } from './cdp.js';
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
  refs: number;
  /** The process brow spawned (spawned kind only). */
  child?: ChildProcess;
  /** A running app brow found listening for CDP and reused (spawned kind only; never killed by brow). */
  pid?: number;
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

const SPAWN_WAIT_MS = 30_000;
const CONNECT_WAIT_MS = 5_000;

export class BrowserRegistry {
  private readonly handles = new Map<string, Promise<BrowserHandle>>();
  /** Apps brow spawned and left running (closed without kill): reused by path, like the seed's process scan. */
  private readonly running = new Map<string, { child: ChildProcess; port: number }>();

  constructor(private readonly sharedBrowser: () => Promise<Browser>) {}

  /** The live handle of this kind, created when missing or dead. Not yet held: call hold(). */
  async acquire(kind: BrowserKind): Promise<BrowserHandle> {
    const key = kindKey(kind);
    const existing = this.handles.get(key);
    if (existing) {
      const h = await existing.catch(() => null);
      if (h && h.browser.connected && !(h.child && exited(h.child))) return h;
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

  /** Drop one hold; at zero the handle goes (disconnect; with kill, also end the process when brow spawned it). */
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
    if (h.kind.kind === 'headless') return; // brow's shared Chromium: the core owns it
    // brow ends only processes it started; an app it found running is just let go.
    if (kill && h.child) {
      await h.browser.close().catch(() => undefined);
      await killTree(h.child);
      if (h.kind.kind === 'spawned') this.running.delete(h.kind.path);
      return;
    }
    await h.browser.disconnect().catch(() => undefined);
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
    if (kind.kind === 'connected') {
      const ws = /^wss?:/i.test(kind.cdpUrl) ? kind.cdpUrl : await waitForCdp(kind.cdpUrl, CONNECT_WAIT_MS);
      const browser = await connect(ws, kind.cdpUrl);
      return { key, kind, browser, wsEndpoint: ws, refs: 0, describe: `connected ${kind.cdpUrl}` };
    }
    const mine = this.running.get(kind.path);
    if (mine && !exited(mine.child)) {
      const base = `http://127.0.0.1:${mine.port}`;
      const ws = await waitForCdp(base, 1000).catch(() => null);
      if (ws) {
        const browser = await connect(ws, base);
        const describe = `spawned ${kind.path} (pid ${mine.child.pid ?? '?'})`;
        return { key, kind, browser, wsEndpoint: ws, refs: 0, child: mine.child, describe };
      }
    }
    this.running.delete(kind.path);
    const running = await findReusableCdp(kind.path);
    if (running) {
      const ws = await waitForCdp(running.base, CONNECT_WAIT_MS);
      const browser = await connect(ws, running.base);
      const describe = `spawned ${kind.path} (pid ${running.pid}, reused)`;
      return { key, kind, browser, wsEndpoint: ws, refs: 0, pid: running.pid, describe };
    }
    const app = await spawnApp(kind.path, kind.args);
    try {
      const base = `http://127.0.0.1:${app.port}`;
      const ws = await waitForCdp(base, SPAWN_WAIT_MS, () =>
        exited(app.child)
          ? `Failed to attach to ${kind.path}: it exited (${app.child.exitCode ?? app.child.signalCode}) before CDP came up.${app.stderr() ? `\n${app.stderr()}` : ''}`
          : null,
      );
      const browser = await connect(ws, base);
      this.running.set(kind.path, { child: app.child, port: app.port });
      return {
        key,
        kind,
        browser,
        wsEndpoint: ws,
        refs: 0,
        child: app.child,
        describe: `spawned ${kind.path} (pid ${app.child.pid ?? '?'})`,
      };
    } catch (e) {
      await killTree(app.child);
      throw e;
    }
  }
}

async function connect(ws: string, shown: string): Promise<Browser> {
  try {
    return await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 60_000 });
  } catch (e) {
    throw new BrowserError(
      'connection_failed',
      `Connected to ${shown} but puppeteer.connect failed: ${(e as Error).message}`,
    );
  }
}
