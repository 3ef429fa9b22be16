/**
 * The tabs of a person's running Chrome that sessions adopt: one session per tab. The connection
 * to that browser is the hosts' (hosts.ts: one per CDP URL, shared with the `browser` tool);
 * nothing browser-wide is changed.
 */
import type { Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import type { BrowserHost } from './browser-pool.js';
import type { BrowserHosts } from './hosts.js';
import { parseCdpUrl } from './remote-debugging.js';

export interface TabInfo {
  target_id: string;
  url: string;
  title: string;
  adopted: boolean;
  adopted_by?: string;
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

export class AdoptedTabs {
  /** targetId → session id holding it. */
  private adopted = new Map<string, string>();

  constructor(private readonly hosts: BrowserHosts) {}

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
    const host = await this.hosts.attach(cdpUrl);
    try {
      const pages = host.browser.targets().filter((t) => t.type() === 'page');
      return pages.map((t) => this.tabInfo(targetIdOf(t), t.url(), ''));
    } finally {
      await this.hosts.release(host);
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
