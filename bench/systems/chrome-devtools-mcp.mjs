// Chrome DevTools MCP (`chrome-devtools-mcp`), driven over MCP stdio.
//
// Flags (from `chrome-devtools-mcp --help` of the pinned version):
//   --headless --isolated --executablePath /usr/bin/chromium   as the issue asks
//   --chromeArg=--no-sandbox …       root needs no sandbox; plus the closed-network args
//   --no-usage-statistics --no-performance-crux   nothing may phone home (closed network);
//                                    CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1 as well
// Tools: list_pages, navigate_page {pageId, type:'url', url}, take_snapshot {pageId},
// click {pageId, uid}, evaluate_script {pageId, function}. Page-scoped tools need the
// pageId (page-id routing is on by default); the first page is found with list_pages.
// click answers "Successfully clicked" without a snapshot (includeSnapshot defaults to
// false), so the follow-up to see the changed text is take_snapshot.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { McpProcess } from '../lib/mcp.mjs';
import { CHROME_ARGS, CHROMIUM, NODE_MODULES, findRefOnLine, pkgVersion, tempDir } from './common.mjs';

export class ChromeDevtoolsMcp {
  name = 'chrome-devtools-mcp';
  label = 'Chrome DevTools MCP';

  async start() {
    this.dir = tempDir('cdt');
    this.args = [
      join(NODE_MODULES, 'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
      '--headless',
      '--isolated',
      '--executablePath',
      CHROMIUM,
      ...CHROME_ARGS.map((a) => `--chromeArg=${a}`),
      '--no-usage-statistics',
      '--no-performance-crux',
    ];
    this.mcp = new McpProcess({
      name: this.name,
      command: process.execPath,
      args: this.args,
      cwd: this.dir,
      env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    });
    await this.mcp.start();
    this.pageId = null;
  }

  async #call(tool, args, timeoutMs) {
    const r = await this.mcp.call(tool, args, timeoutMs);
    if (r.isError) throw new Error(`${tool}: ${r.text.slice(0, 300)}`);
    return r;
  }

  async #page() {
    if (this.pageId == null) {
      const r = await this.#call('list_pages', {}, 60_000);
      const m = /^(\d+):.*\[selected\]/m.exec(r.text) ?? /^(\d+):/m.exec(r.text);
      if (!m) throw new Error(`list_pages: no page id in ${JSON.stringify(r.text.slice(0, 200))}`);
      this.pageId = Number(m[1]);
    }
    return this.pageId;
  }

  async navigate(url) {
    const pageId = await this.#page();
    return this.#call('navigate_page', { pageId, type: 'url', url }, 120_000);
  }

  async snapshot() {
    return this.#call('take_snapshot', { pageId: await this.#page() }, 180_000);
  }

  findRef(text, label) {
    return findRefOnLine(text, label, /uid=(\S+)/);
  }

  async click(uid) {
    return this.#call('click', { pageId: await this.#page(), uid }, 120_000);
  }

  followUp() {
    return this.snapshot();
  }

  /**
   * The floor: a plain in-page DOM walk (elements + text, open shadow roots and
   * same-origin frames) that writes one line per node, timed inside the page.
   */
  async floor() {
    const fn = `() => {
      const t0 = performance.now();
      let nodes = 0; const out = [];
      const walk = (n, depth) => {
        for (let c = n.firstChild; c; c = c.nextSibling) {
          if (c.nodeType === 1) {
            nodes++;
            const tag = c.localName;
            if (tag === 'script' || tag === 'style') continue;
            out.push(' '.repeat(depth) + tag + (c.id ? '#' + c.id : ''));
            if (c.shadowRoot) walk(c.shadowRoot, depth + 1);
            if (tag === 'iframe') { try { if (c.contentDocument) walk(c.contentDocument, depth + 1); } catch {} }
            walk(c, depth + 1);
          } else if (c.nodeType === 3) {
            const s = c.data.trim();
            if (s) { nodes++; out.push(' '.repeat(depth) + s.slice(0, 80)); }
          }
        }
      };
      walk(document, 0);
      const text = out.join('\\n');
      return { ms: performance.now() - t0, nodes, chars: text.length };
    }`;
    const r = await this.#call('evaluate_script', { pageId: await this.#page(), function: fn }, 60_000);
    const m = /```json\s*([\s\S]*?)```/.exec(r.text);
    return JSON.parse(m ? m[1] : r.text.slice(r.text.indexOf('{')));
  }

  rootPids() {
    return this.mcp?.pid ? [this.mcp.pid] : [];
  }

  describe() {
    return {
      version: pkgVersion('chrome-devtools-mcp'),
      command: `node chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js ${this.args?.slice(1).join(' ') ?? ''}`,
      notes: [
        'Chromium args via --chromeArg (root: --no-sandbox); usage statistics and CrUX off (closed network)',
        'page-scoped tools need pageId; the first page id comes from list_pages',
        'click answers without a snapshot; seeing the changed text takes a take_snapshot',
      ],
    };
  }

  async stop() {
    try {
      await this.mcp?.stop();
    } finally {
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
