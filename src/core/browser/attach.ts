/**
 * Attach to a person's running Chrome over CDP. One connection per endpoint, shared and
 * ref-counted; a tab is adopted by one session at most; nothing browser-wide is changed.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { identify, type BrowserHost } from './browser-pool.js';

export interface TabInfo {
  target_id: string;
  url: string;
  title: string;
  adopted: boolean;
  adopted_by?: string;
}

interface Connection {
  host: BrowserHost;
  refs: number;
}

/** Normalise http://host:port[/], ws://…; returns the http base for /json endpoints when there is one. */
export function parseCdpUrl(cdpUrl: string): { http: string | null; ws: string | null } {
  let u: URL;
  try {
    u = new URL(cdpUrl);
  } catch {
    throw new BrowserError('invalid_request', `"${cdpUrl}" is not a CDP URL.`, {
      hint: 'Use http://127.0.0.1:9222 (Chrome started with --remote-debugging-port=9222) or a ws:// endpoint.',
    });
  }
  if (u.protocol === 'http:' || u.protocol === 'https:')
    return { http: cdpUrl.replace(/\/+$/, ''), ws: null };
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return { http: null, ws: cdpUrl };
  throw new BrowserError('invalid_request', `"${cdpUrl}" is not an http(s):// or ws(s):// URL.`);
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const ctrl = new AbortController();
  const t = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, { signal: ctrl.signal });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.json();
  } finally {
    clearTimeout(t);
  }
}

export class AttachRegistry {
  private connections = new Map<string, Promise<Connection>>();
  /** targetId → session id holding it. */
  private adopted = new Map<string, string>();

  /** Connect (or reuse the connection) to a CDP endpoint. */
  async acquire(cdpUrl: string): Promise<BrowserHost> {
    const key = cdpUrl.replace(/\/+$/, '');
    let conn = this.connections.get(key);
    if (conn) {
      const c = await conn.catch(() => null);
      if (c && !c.host.dead) {
        c.refs += 1;
        return c.host;
      }
      this.connections.delete(key);
    }
    conn = this.connect(key);
    this.connections.set(key, conn);
    try {
      const c = await conn;
      c.refs += 1;
      return c.host;
    } catch (e) {
      this.connections.delete(key);
      throw e;
    }
  }

  private async connect(cdpUrl: string): Promise<Connection> {
    const { http, ws } = parseCdpUrl(cdpUrl);
    let browser: Browser;
    try {
      browser = await puppeteer.connect({
        ...(http ? { browserURL: http } : { browserWSEndpoint: ws! }),
        defaultViewport: null,
        protocolTimeout: 60_000,
      });
    } catch (e) {
      throw new BrowserError(
        'connection_failed',
        `Could not reach a browser at ${cdpUrl}: ${String(e).split('\n')[0]}`,
        {
          hint: 'Start Chrome with --remote-debugging-port=9222 --user-data-dir=<a separate profile dir>, then attach to http://127.0.0.1:9222.',
          cause: e,
        },
      );
    }
    const host: BrowserHost = {
      browser,
      identity: await identify(browser),
      dead: false,
      disconnected: new Promise<void>((resolve) =>
        browser.once('disconnected', () => {
          host.dead = true;
          resolve();
        }),
      ),
    };
    return { host, refs: 0 };
  }

  /** Drop one reference; the last one disconnects (never closes the person's browser). */
  async release(host: BrowserHost): Promise<void> {
    for (const [key, p] of this.connections) {
      const c = await p.catch(() => null);
      if (c?.host !== host) continue;
      c.refs -= 1;
      if (c.refs <= 0) {
        this.connections.delete(key);
        if (!host.dead) await host.browser.disconnect().catch(() => undefined);
      }
      return;
    }
  }

  /** Claim a tab for a session; a second claim fails. */
  claim(targetId: string, sessionId: string): void {
    const holder = this.adopted.get(targetId);
    if (holder && holder !== sessionId) {
      throw new BrowserError('resource_limit', `That tab is already adopted by session ${holder}.`, {
        hint: 'Stop that session first, or adopt another tab; one session per tab so two never fight over it.',
        details: { adopted_by: holder },
      });
    }
    this.adopted.set(targetId, sessionId);
  }

  unclaim(targetId: string): void {
    this.adopted.delete(targetId);
  }

  /** The page tabs of a running browser, with which are adopted. Uses /json/list when reachable. */
  async listTabs(cdpUrl: string): Promise<TabInfo[]> {
    const { http } = parseCdpUrl(cdpUrl);
    if (http) {
      let list: unknown;
      try {
        list = await fetchJson(`${http}/json/list`, 5000);
      } catch (e) {
        throw new BrowserError('connection_failed', `Could not list tabs at ${cdpUrl}: ${String(e)}`, {
          hint: 'Is Chrome running with --remote-debugging-port? Try opening that URL + /json/version.',
        });
      }
      return (list as { id: string; type: string; url: string; title: string }[])
        .filter((t) => t.type === 'page')
        .map((t) => this.tabInfo(t.id, t.url, t.title));
    }
    const host = await this.acquire(cdpUrl);
    try {
      const pages = host.browser.targets().filter((t) => t.type() === 'page');
      return pages.map((t) => this.tabInfo(targetIdOf(t), t.url(), ''));
    } finally {
      await this.release(host);
    }
  }

  private tabInfo(id: string, url: string, title: string): TabInfo {
    const by = this.adopted.get(id);
    return { target_id: id, url, title, adopted: !!by, ...(by ? { adopted_by: by } : {}) };
  }

  /** The first page whose URL contains the substring (case-insensitive), not already adopted. */
  async findTab(host: BrowserHost, substring: string): Promise<Page> {
    const needle = substring.toLowerCase();
    const targets = host.browser
      .targets()
      .filter((t) => t.type() === 'page' && t.url().toLowerCase().includes(needle));
    if (targets.length === 0) {
      const urls = host.browser
        .targets()
        .filter((t) => t.type() === 'page')
        .map((t) => t.url());
      throw new BrowserError('page_not_found', `No open tab's URL contains "${substring}".`, {
        hint: `Open tabs: ${urls.slice(0, 10).join(', ') || 'none'}. Use browser_list_tabs.`,
      });
    }
    const free = targets.find((t) => !this.adopted.has(targetIdOf(t))) ?? targets[0]!;
    const page = await free.page();
    if (!page)
      throw new BrowserError('page_not_found', `The tab ${free.url()} could not be opened for control.`);
    return page;
  }
}

import { targetIdOf } from './internals.js';
export { targetIdOf };
