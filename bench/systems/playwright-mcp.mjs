// Playwright MCP (`@playwright/mcp`), driven over MCP stdio.
//
// Flags (from `cli.js --help` of the pinned version):
//   --headless --isolated --executable-path /usr/bin/chromium   as the issue asks
//   --no-sandbox        we run as root; Chromium refuses to start sandboxed as root
//   --config FILE       only to pass the extra Chromium args (launchOptions.args); the
//                       CLI has no flag for arbitrary browser args
//   --output-dir DIR    a temp dir: this version writes the snapshot that follows
//                       browser_navigate into a .yml file there (the navigate answer
//                       links to it instead of inlining it), plus console logs
// Tools: browser_navigate {url}, browser_snapshot {}, browser_click {target, element}.
// After an action this version takes a snapshot after a fixed settle window
// (--timeout-settle, default 500 ms), writes it to a .yml file in the output dir and
// answers with a link; only an explicit browser_snapshot is inlined.

import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { McpProcess } from '../lib/mcp.mjs';
import { CHROME_ARGS, CHROMIUM, NODE_MODULES, findRefOnLine, pkgVersion, tempDir } from './common.mjs';

export class PlaywrightMcp {
  name = 'playwright-mcp';
  label = 'Playwright MCP';

  async start() {
    this.dir = tempDir('pw');
    const config = join(this.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: CHROME_ARGS } } }));
    this.args = [
      join(NODE_MODULES, '@playwright/mcp/cli.js'),
      '--headless',
      '--isolated',
      '--no-sandbox',
      '--executable-path',
      CHROMIUM,
      '--config',
      config,
      '--output-dir',
      join(this.dir, 'out'),
    ];
    this.mcp = new McpProcess({ name: this.name, command: process.execPath, args: this.args, cwd: this.dir });
    await this.mcp.start();
  }

  async #call(tool, args, timeoutMs) {
    const r = await this.mcp.call(tool, args, timeoutMs);
    if (r.isError) throw new Error(`${tool}: ${r.text.slice(0, 300)}`);
    return r;
  }

  navigate(url) {
    return this.#call('browser_navigate', { url }, 120_000);
  }

  snapshot() {
    return this.#call('browser_snapshot', {}, 180_000);
  }

  findRef(text, label) {
    return findRefOnLine(text, label, /\[ref=([^\]\s]+)\]/);
  }

  async click(ref) {
    const r = await this.#call('browser_click', { target: ref, element: 'probe button' }, 180_000);
    this.lastLink = /\[Snapshot\]\(([^)]+)\)/.exec(r.text)?.[1] ?? null;
    return r;
  }

  /**
   * This version answers an action with a link to the snapshot it wrote after the
   * settle window (`[Snapshot](out/page-….yml)`), not the snapshot itself. An agent
   * host with file access reads that file: so do we (cheapest route). Without a link,
   * browser_snapshot.
   */
  async followUp() {
    if (this.lastLink) {
      const file = isAbsolute(this.lastLink) ? this.lastLink : join(this.dir, this.lastLink);
      this.lastLink = null;
      return { text: await readFile(file, 'utf8') };
    }
    return this.snapshot();
  }

  rootPids() {
    return this.mcp?.pid ? [this.mcp.pid] : [];
  }

  describe() {
    return {
      version: pkgVersion('@playwright/mcp'),
      command: `node @playwright/mcp/cli.js ${this.args?.slice(1).join(' ') ?? ''}`.replace(
        /\/tmp\/brow-bench-pw-\w+/g,
        '$TMP',
      ),
      notes: [
        '--no-sandbox (root); extra Chromium args via --config launchOptions.args',
        'browser_navigate writes its post-navigation snapshot to a file in --output-dir and links it (navigate ms includes that snapshot)',
        'browser_click waits a fixed settle window (default 500 ms), then writes a snapshot to a file and answers with a link to it; the follow-up that shows the change is reading that file',
        'closed shadow roots are not walked (its snapshot is built by a script in the page)',
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
