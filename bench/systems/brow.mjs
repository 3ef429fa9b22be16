// brow, driven through its MCP door over stdio: `node bin/brow.js mcp` (repo root).
//
// What this adapter expects from the door (SPEC §3–§5); the harness reports
// "brow: not available (reason)" and goes on when any of it is missing:
//   tools listed: browser_open_page, browser_navigate, browser_list_elements,
//                 browser_click, browser_read_page, browser_start_session,
//                 browser_stop_session
//   browser_open_page {url, session_id?}  → structuredContent.page_id (also accepted:
//                 structuredContent.page.page_id, or "page_id: X" in the text)
//   browser_navigate {page_id, url}
//   browser_list_elements {page_id, scope: interactive|full|changes, max_chars?, cursor?}
//                 → text lines like `  [button ref=e12 actions=click,hover,scroll] Submit`;
//                 when cut by the budget: structuredContent.truncated = true and
//                 structuredContent.cursor (also accepted: next_cursor, or "cursor: X" in text)
//   browser_click {page_id, ref}  → the effect as text (its `changes` should show the
//                 new text of the page)
//   browser_read_page {page_id}   → Markdown text
//   browser_start_session {} → structuredContent.session_id; browser_stop_session {session_id}
//   errors as isError results.
// Chromium: BROW_CHROME=/usr/bin/chromium is set; brow must add --no-sandbox itself when
// running as root (it is the only way Chromium starts here).
// 16 sessions (memory and concurrency phases) need max_sessions ≥ 16: that phase starts
// `brow mcp --config FILE` with {"max_sessions": 16, "executable": CHROMIUM} and falls
// back to plain `brow mcp` (recording the limit it meets) when that does not start.

import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { McpProcess } from '../lib/mcp.mjs';
import { CHROMIUM, REPO_DIR, tempDir } from './common.mjs';

/** BENCH_BROW_BIN points the adapter at another door (bench/dev/stub-brow-mcp.mjs tests the harness). */
export const BROW_BIN = process.env.BENCH_BROW_BIN
  ? resolve(process.env.BENCH_BROW_BIN)
  : join(REPO_DIR, 'bin/brow.js');
export const IS_STUB = !!process.env.BENCH_BROW_BIN;
const REQUIRED_TOOLS = ['browser_open_page', 'browser_navigate', 'browser_list_elements', 'browser_click'];
/** Measured when offered; their absence is reported, not fatal. */
const OPTIONAL_TOOLS = ['browser_read_page', 'browser_start_session', 'browser_stop_session'];
/** The unbounded snapshot asks for this much (the config schema caps snapshot budgets at 2,000,000). */
const FULL_MAX_CHARS = 2_000_000;

function pick(structured, text, key) {
  if (structured && typeof structured === 'object') {
    if (structured[key] != null) return structured[key];
    for (const v of Object.values(structured)) {
      if (v && typeof v === 'object' && !Array.isArray(v) && v[key] != null) return v[key];
    }
  }
  const m = new RegExp(`${key}["']?\\s*[:=]\\s*["']?([\\w.:-]+)`).exec(text ?? '');
  return m ? m[1] : null;
}

export class Brow {
  name = 'brow';
  label = 'brow';

  /** @param {{sessions?: number}} [opts] sessions > 4 asks brow for a larger max_sessions */
  constructor(opts = {}) {
    this.opts = opts;
  }

  async start() {
    if (!existsSync(BROW_BIN)) throw new Error('bin/brow.js not found (the MCP door is not built yet)');
    if (!IS_STUB && !existsSync(join(REPO_DIR, 'dist')))
      throw new Error('dist/ missing: run `node scripts/build.mjs` (npm run bench does)');
    this.dir = tempDir('brow');
    const env = { BROW_CHROME: CHROMIUM };
    const attempts = [];
    // `brow mcp` lists the core tools by default; the scale run adds sessions one by one
    const caps = this.opts.sessions ? ['--caps=core,sessions'] : [];
    if (this.opts.sessions && this.opts.sessions > 4) {
      const cfg = join(this.dir, 'brow.json');
      writeFileSync(
        cfg,
        JSON.stringify({ executable: CHROMIUM, max_sessions: Math.max(16, this.opts.sessions) }),
      );
      attempts.push(['mcp', ...caps, '--config', cfg]);
    }
    attempts.push(['mcp', ...caps]);
    let lastErr;
    for (const args of attempts) {
      this.args = args;
      this.mcp = new McpProcess({
        name: this.name,
        command: process.execPath,
        args: [BROW_BIN, ...args],
        cwd: this.dir,
        env,
      });
      try {
        await this.mcp.start(30_000);
        const tools = new Set((await this.mcp.listTools()).map((t) => t.name));
        this.tools = tools;
        this.missingOptional = OPTIONAL_TOOLS.filter((t) => !tools.has(t));
        const missing = REQUIRED_TOOLS.filter((t) => !tools.has(t));
        if (missing.length) throw new Error(`MCP door lacks tools: ${missing.join(', ')}`);
        lastErr = null;
        break;
      } catch (e) {
        const err = this.mcp.stderr.trim();
        const unknown = /Unknown command "?mcp"?/i.test(err);
        lastErr = new Error(
          unknown
            ? `\`${relative(REPO_DIR, BROW_BIN)} mcp\` is not a command yet (${err.split('\n')[0]}): the MCP door is not wired into the CLI`
            : `${e.message}${err ? ` — stderr: ${err.slice(-400)}` : ''}`,
        );
        await this.mcp.stop();
      }
    }
    if (lastErr) throw lastErr;
    this.pageId = null;
  }

  async call(tool, args, timeoutMs = 120_000) {
    const r = await this.mcp.call(tool, args, timeoutMs);
    if (r.isError) throw new Error(`${tool}: ${r.text.slice(0, 300)}`);
    return r;
  }

  async openPage(url = 'about:blank', sessionId) {
    const r = await this.call('browser_open_page', sessionId ? { url, session_id: sessionId } : { url });
    const pageId = pick(r.structured, r.text, 'page_id');
    if (pageId == null)
      throw new Error(
        `browser_open_page: no page_id in ${JSON.stringify(r.structured ?? r.text).slice(0, 200)}`,
      );
    return { ...r, pageId };
  }

  async #page() {
    if (this.pageId == null) this.pageId = (await this.openPage()).pageId;
    return this.pageId;
  }

  async navigate(url) {
    return this.call('browser_navigate', { page_id: await this.#page(), url });
  }

  /** list_elements, following the cursor until the whole outline is read. */
  async listAll(pageId, scope, maxChars) {
    const parts = [];
    let structuredChars = 0;
    let cursor = null;
    let calls = 0;
    for (;;) {
      const args = { page_id: pageId, scope };
      if (maxChars) args.max_chars = maxChars;
      if (cursor) args.cursor = cursor;
      let r;
      try {
        r = await this.call('browser_list_elements', args, 180_000);
      } catch (e) {
        // A door that caps max_chars below what we ask: ask for less and follow the cursor.
        if (!/max_chars|invalid_request/i.test(e.message) || !maxChars || maxChars <= 100_000) throw e;
        maxChars = 100_000;
        continue;
      }
      parts.push(r.text);
      structuredChars += r.structured ? JSON.stringify(r.structured).length : 0;
      calls++;
      const truncated = pick(r.structured, '', 'truncated');
      const next =
        pick(r.structured, '', 'cursor') ??
        pick(r.structured, '', 'next_cursor') ??
        (truncated ? pick(null, r.text, 'cursor') : null);
      if (!next || truncated === false || next === cursor || calls >= 200) break;
      cursor = next;
    }
    return { text: parts.join('\n'), calls, structured_chars: structuredChars };
  }

  /** The whole outline (scope full, large budget, cursor followed): what compares with a full a11y snapshot. */
  async snapshot() {
    return this.listAll(await this.#page(), 'full', FULL_MAX_CHARS);
  }

  /** One call with the default budget: what a model gets when it asks plainly. */
  async defaultAnswer(scope) {
    const r = await this.call('browser_list_elements', { page_id: await this.#page(), scope }, 180_000);
    const truncated = pick(r.structured, r.text, 'truncated');
    return { ...r, truncated: truncated === true || truncated === 'true' };
  }

  async changes() {
    return this.call('browser_list_elements', { page_id: await this.#page(), scope: 'changes' });
  }

  /** browser_find over many elements: every name with an "e", up to 100 matches. */
  async find() {
    return this.call('browser_find', { page_id: await this.#page(), name: 'e', limit: 100 });
  }

  async readPage() {
    if (this.tools && !this.tools.has('browser_read_page'))
      throw new Error('browser_read_page is not offered by the door');
    return this.call('browser_read_page', { page_id: await this.#page() });
  }

  findRef(text, label) {
    for (const line of text.split('\n')) {
      const m = /\[[^\]]*?\bref=(e\d+)[^\]]*\]\s*"?(.*?)"?\s*$/.exec(line);
      if (m && m[2].includes(label)) return m[1];
    }
    return null;
  }

  async click(ref, pageId) {
    return this.call('browser_click', { page_id: pageId ?? (await this.#page()), ref });
  }

  followUp() {
    return this.changes();
  }

  async startSession() {
    if (this.tools && !this.tools.has('browser_start_session'))
      throw new Error('browser_start_session is not offered by the door');
    const r = await this.call('browser_start_session', {});
    const id = pick(r.structured, r.text, 'session_id');
    if (id == null)
      throw new Error(
        `browser_start_session: no session_id in ${JSON.stringify(r.structured ?? r.text).slice(0, 200)}`,
      );
    return id;
  }

  async stopSession(id) {
    return this.call('browser_stop_session', { session_id: id }, 60_000);
  }

  rootPids() {
    return this.mcp?.pid ? [this.mcp.pid] : [];
  }

  describe() {
    return {
      version: IS_STUB ? 'STUB — numbers mean nothing' : 'working tree',
      command: `node ${relative(REPO_DIR, BROW_BIN)} ${(this.args ?? ['mcp']).join(' ').replace(/\/tmp\/brow-bench-brow-\w+/g, '$TMP')}`,
      notes: [
        ...(this.missingOptional?.length
          ? [`the door does not offer ${this.missingOptional.join(', ')} (not measured)`]
          : []),
        'snapshot = browser_list_elements scope=full, max_chars=2,000,000, cursor followed to the end',
        'default answer = browser_list_elements with no max_chars (the default budget)',
        'after a click, if the effect text does not show the new text, follow-up = scope=changes',
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
