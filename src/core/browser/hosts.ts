/**
 * Every Chromium brow holds, in one place: the browsers it launched (the pool), the browsers it
 * reached at a CDP URL, and the apps it spawned with remote debugging (the `browser` tool's
 * `app.path`). A reached browser has one connection per URL, held by count: core sessions attached
 * to it and the tool's tabs connected to it share it. close() lets go of all of them. brow ends
 * only processes it started: a browser it merely reached is disconnected, never closed.
 */
import type { ChildProcess } from 'node:child_process';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { BrowserPool, identify, type BrowserHost, type PoolSettings } from './browser-pool.js';
import { exited, findReusableCdp, killTree, parseCdpUrl, spawnApp, waitForCdp } from './remote-debugging.js';

/** A browser brow reached over CDP: attached at a URL, or an app it spawned or found running. */
export interface RemoteHost extends BrowserHost {
  /** What a second client (a tool tab's worker thread) connects to. */
  wsEndpoint: string;
  /** The app process brow spawned: the only kind it may end. */
  child?: ChildProcess;
  /** The app's pid: brow's child, or a process found running (never ended by brow). */
  pid?: number;
  /** How an answer names it. */
  describe: string;
}

/** One connection and how many hold it. */
interface Held {
  key: string;
  host: RemoteHost;
  refs: number;
  /** The app's path (spawned kind): what a later app() of it reuses. */
  path?: string;
}

/** A reached browser's holds, by key (`attached:<url>`, `app:<path>`), for tests and doctor. */
export interface HoldInfo {
  key: string;
  refs: number;
  describe: string;
  pid?: number;
}

const SPAWN_WAIT_MS = 30_000;
/** How long a running browser's endpoint is waited for (the tool's app.cdp_url, a reused app). */
export const CONNECT_WAIT_MS = 5_000;

export class BrowserHosts {
  /** The browsers brow launched: shared, dedicated to a session, or running a profile. */
  readonly pool: BrowserPool;
  /** Reached browsers by key; a dead one is replaced on the next hold. */
  private readonly remote = new Map<string, Promise<Held>>();
  /** Apps brow spawned, by path, held or let go without ending them: the next app() of the path reuses one. */
  private readonly running = new Map<string, { child: ChildProcess; port: number }>();

  constructor(settings: () => PoolSettings) {
    this.pool = new BrowserPool(settings);
  }

  /**
   * A hold on the connection to the browser at `cdpUrl` (one per URL, whoever asks). With
   * `waitMs`, an http URL is polled that long for the endpoint to come up (the tool's
   * app.cdp_url); without, it is reached once (a session's attach).
   */
  attach(cdpUrl: string, waitMs?: number): Promise<RemoteHost> {
    const url = cdpUrl.trim().replace(/\/+$/, '');
    return this.hold(`attached:${url}`, () => this.reach(url, waitMs));
  }

  /**
   * A hold on the app at `path` with remote debugging: one brow spawned and left running, else a
   * running process of it already listening for CDP, else a new one spawned with `args`.
   */
  app(path: string, args: string[]): Promise<RemoteHost> {
    return this.hold(`app:${path}`, () => this.spawned(path, args), path);
  }

  /** Is this reached browser still usable (connected, and its process, when brow's, running)? */
  live(host: RemoteHost): boolean {
    return !host.dead && host.browser.connected && !(host.child && exited(host.child));
  }

  /**
   * Let go of one hold; the last one disconnects. With `kill`, the last one also ends an app brow
   * spawned (Browser.close, then its process group); anything else is only disconnected.
   */
  async release(host: BrowserHost, kill = false): Promise<void> {
    for (const [key, p] of this.remote) {
      const held = await p.catch(() => null);
      if (held?.host !== host) continue;
      held.refs -= 1;
      if (held.refs > 0) return;
      this.remote.delete(key);
      await this.letGo(held, kill);
      return;
    }
  }

  /** The reached browsers and their holds. */
  async holds(): Promise<HoldInfo[]> {
    const all = await Promise.all([...this.remote.values()].map((p) => p.catch(() => null)));
    return all
      .filter((h): h is Held => h !== null)
      .map((h) => ({
        key: h.key,
        refs: h.refs,
        describe: h.host.describe,
        ...(h.host.pid ? { pid: h.host.pid } : {}),
      }));
  }

  /**
   * brow is closing: close every browser it launched, and disconnect from every browser it
   * reached. Apps it spawned stay running (the `browser` tool ends one only when asked: close
   * with kill).
   */
  async close(): Promise<void> {
    const remote = await Promise.all([...this.remote.values()].map((p) => p.catch(() => null)));
    this.remote.clear();
    this.running.clear();
    await Promise.all([this.pool.close(), ...remote.map((h) => (h ? this.letGo(h, false) : undefined))]);
  }

  private async hold(key: string, create: () => Promise<RemoteHost>, path?: string): Promise<RemoteHost> {
    const existing = this.remote.get(key);
    if (existing) {
      const held = await existing.catch(() => null);
      if (held && this.live(held.host)) {
        held.refs += 1;
        return held.host;
      }
      if (this.remote.get(key) === existing) this.remote.delete(key);
      // a dead connection's holders release a host no longer listed: a no-op
      if (held) await held.host.browser.disconnect().catch(() => undefined);
    }
    const next = create().then((host): Held => ({ key, host, refs: 0, ...(path ? { path } : {}) }));
    this.remote.set(key, next);
    try {
      const held = await next;
      held.refs += 1;
      return held.host;
    } catch (e) {
      if (this.remote.get(key) === next) this.remote.delete(key);
      throw e;
    }
  }

  private async letGo(held: Held, kill: boolean): Promise<void> {
    const { host } = held;
    if (kill && host.child) {
      await host.browser.close().catch(() => undefined);
      await killTree(host.child);
      if (held.path && this.running.get(held.path)?.child === host.child) this.running.delete(held.path);
      return;
    }
    if (!host.dead) await host.browser.disconnect().catch(() => undefined);
  }

  private async reach(url: string, waitMs: number | undefined): Promise<RemoteHost> {
    const { http, ws } = parseCdpUrl(url);
    if (waitMs !== undefined) {
      const endpoint = ws ?? (await waitForCdp(http!, waitMs));
      return remoteHost(await connect(endpoint, url), endpoint, `connected ${url}`);
    }
    const browser = await connectTo(http ? { browserURL: http } : { browserWSEndpoint: ws! }, (e) => {
      return new BrowserError(
        'connection_failed',
        `Could not reach a browser at ${url}: ${String(e).split('\n')[0]}`,
        {
          hint: 'Start Chrome with --remote-debugging-port=9222 --user-data-dir=<a separate profile dir>, then attach to http://127.0.0.1:9222.',
          cause: e,
        },
      );
    });
    return remoteHost(browser, browser.wsEndpoint(), `connected ${url}`);
  }

  private async spawned(path: string, args: string[]): Promise<RemoteHost> {
    const mine = this.running.get(path);
    if (mine && !exited(mine.child)) {
      const base = `http://127.0.0.1:${mine.port}`;
      const ws = await waitForCdp(base, 1000).catch(() => null);
      if (ws) {
        const { child } = mine;
        return remoteHost(await connect(ws, base), ws, `spawned ${path} (pid ${child.pid ?? '?'})`, {
          child,
          ...(child.pid ? { pid: child.pid } : {}),
        });
      }
    }
    this.running.delete(path);
    const found = await findReusableCdp(path);
    if (found) {
      const ws = await waitForCdp(found.base, CONNECT_WAIT_MS);
      const describe = `spawned ${path} (pid ${found.pid}, reused)`;
      return remoteHost(await connect(ws, found.base), ws, describe, { pid: found.pid });
    }
    const app = await spawnApp(path, args);
    try {
      const base = `http://127.0.0.1:${app.port}`;
      const ws = await waitForCdp(base, SPAWN_WAIT_MS, () =>
        exited(app.child)
          ? `Failed to attach to ${path}: it exited (${app.child.exitCode ?? app.child.signalCode}) before CDP came up.${app.stderr() ? `\n${app.stderr()}` : ''}`
          : null,
      );
      const browser = await connect(ws, base);
      this.running.set(path, { child: app.child, port: app.port });
      const { child } = app;
      return remoteHost(browser, ws, `spawned ${path} (pid ${child.pid ?? '?'})`, {
        child,
        ...(child.pid ? { pid: child.pid } : {}),
      });
    } catch (e) {
      await killTree(app.child);
      throw e;
    }
  }
}

/** puppeteer.connect with brow's options; a failure is answered as `fail` says. */
async function connectTo(
  target: { browserURL: string } | { browserWSEndpoint: string },
  fail: (e: unknown) => BrowserError,
): Promise<Browser> {
  try {
    return await puppeteer.connect({ ...target, defaultViewport: null, protocolTimeout: 60_000 });
  } catch (e) {
    throw fail(e);
  }
}

/** Connect to a browser's ws endpoint found at `shown` (the tool's kinds). */
function connect(ws: string, shown: string): Promise<Browser> {
  return connectTo(
    { browserWSEndpoint: ws },
    (e) =>
      new BrowserError(
        'connection_failed',
        `Connected to ${shown} but puppeteer.connect failed: ${(e as Error).message}`,
      ),
  );
}

async function remoteHost(
  browser: Browser,
  wsEndpoint: string,
  describe: string,
  proc: { child?: ChildProcess; pid?: number } = {},
): Promise<RemoteHost> {
  const host: RemoteHost = {
    browser,
    identity: await identify(browser),
    dead: false,
    disconnected: new Promise<void>((resolve) =>
      browser.once('disconnected', () => {
        host.dead = true;
        resolve();
      }),
    ),
    wsEndpoint,
    describe,
    ...proc,
  };
  return host;
}
