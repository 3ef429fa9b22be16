#!/usr/bin/env node
// A STUB of brow's MCP door, for testing the bench harness only while the real door
// does not exist. It speaks the tool names and shapes bench/systems/brow.mjs expects,
// on top of playwright-core (already in bench/node_modules). Its numbers mean nothing
// about brow. Use: BENCH_BROW_BIN=bench/dev/stub-brow-mcp.mjs node bench/run.mjs --quick
// (the report then labels the system as the stub).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
let maxSessions = 4;
const ci = args.indexOf('--config');
if (ci >= 0) {
  const { readFileSync } = await import('node:fs');
  maxSessions = JSON.parse(readFileSync(args[ci + 1], 'utf8')).max_sessions ?? 4;
}

let browser = null;
const sessions = new Map(); // id → context
const pages = new Map(); // id → { page, last }
let nextId = 1;

async function getBrowser() {
  browser ??= await chromium.launch({
    executablePath: process.env.BROW_CHROME ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  return browser;
}

const WALK = `() => {
  let n = 0; const lines = [];
  const roleOf = (el) => el.getAttribute('role') || ({ button: 'button', a: 'link', input: 'textbox', select: 'combobox', h1: 'heading', h2: 'heading', h3: 'heading' })[el.localName] || '';
  const walk = (root, depth) => {
    for (const el of root.children) {
      const role = roleOf(el);
      if (role) {
        const ref = el.__ref ??= 'e' + (++window.__refs || (window.__refs = 1));
        el.setAttribute('data-ref', ref);
        lines.push(' '.repeat(depth) + '[' + role + ' ref=' + ref + ' actions=click] ' + (el.getAttribute('aria-label') || el.textContent.trim().slice(0, 60)));
      } else if (el.childElementCount === 0 && el.textContent.trim()) lines.push(' '.repeat(depth) + el.textContent.trim().slice(0, 80));
      if (el.shadowRoot) walk(el.shadowRoot, depth + 1);
      walk(el, depth + 1);
    }
  };
  walk(document.body, 0);
  return lines.join('\\n');
}`;

const text = (t, data) => ({ content: [{ type: 'text', text: t }], structuredContent: data });
const fail = (t) => ({ content: [{ type: 'text', text: t }], isError: true });

async function openPage(url, sessionId) {
  let ctx;
  if (sessionId) ctx = sessions.get(sessionId);
  else {
    if (!sessions.has('default')) sessions.set('default', await (await getBrowser()).newContext());
    ctx = sessions.get('default');
  }
  if (!ctx) return fail('session_not_found');
  const page = await ctx.newPage();
  if (url && url !== 'about:blank') await page.goto(url);
  const id = `p${nextId++}`;
  pages.set(id, { page, last: '' });
  return text(`page_id: ${id}`, { page_id: id });
}

const handlers = {
  async browser_start_session() {
    if (sessions.size >= maxSessions + (sessions.has('default') ? 1 : 0))
      return fail('resource_limit: max_sessions');
    const id = `s${nextId++}`;
    sessions.set(id, await (await getBrowser()).newContext());
    return text(`session_id: ${id}`, { session_id: id });
  },
  async browser_stop_session({ session_id }) {
    await sessions.get(session_id)?.close();
    sessions.delete(session_id);
    return text('stopped', { ok: true });
  },
  browser_open_page: ({ url, session_id }) => openPage(url, session_id),
  async browser_navigate({ page_id, url }) {
    const p = pages.get(page_id);
    await p.page.goto(url);
    return text(`navigated to ${url}`, { url });
  },
  async browser_list_elements({ page_id, scope, max_chars = 24_000, cursor }) {
    const p = pages.get(page_id);
    const all = await p.page.evaluate(`(${WALK})()`);
    if (scope === 'changes') {
      const before = new Set(p.last.split('\n'));
      const added = all.split('\n').filter((l) => !before.has(l));
      p.last = all;
      return text(added.length ? added.map((l) => `+ ${l}`).join('\n') : 'Changes: none observed', {});
    }
    p.last = all;
    const body =
      scope === 'interactive'
        ? all
            .split('\n')
            .filter((l) => l.includes('ref='))
            .join('\n')
        : all;
    const start = cursor ? Number(cursor) : 0;
    const chunk = body.slice(start, start + max_chars);
    const truncated = start + max_chars < body.length;
    return text(`page ${page_id} scope ${scope}\n${chunk}`, {
      truncated,
      cursor: truncated ? String(start + max_chars) : null,
    });
  },
  async browser_click({ page_id, ref }) {
    const p = pages.get(page_id);
    await p.page.click(`[data-ref="${ref}"]`);
    await new Promise((r) => setTimeout(r, 60));
    const all = await p.page.evaluate(`(${WALK})()`);
    const before = new Set(p.last.split('\n'));
    const added = all.split('\n').filter((l) => !before.has(l));
    p.last = all;
    return text(`outcome: completed\nchanges:\n${added.map((l) => `+ ${l}`).join('\n')}`, {
      outcome: 'completed',
    });
  },
  async browser_read_page({ page_id }) {
    const p = pages.get(page_id);
    return text(await p.page.evaluate(() => document.body.innerText), {});
  },
};

const server = new Server({ name: 'brow-stub', version: '0.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.keys(handlers).map((name) => ({ name, inputSchema: { type: 'object' } })),
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const h = handlers[req.params.name];
  if (!h) return fail(`unknown tool ${req.params.name}`);
  try {
    return await h(req.params.arguments ?? {});
  } catch (e) {
    return fail(String(e.message));
  }
});
process.stdin.on('close', async () => {
  await browser?.close().catch(() => {});
  process.exit(0);
});
await server.connect(new StdioServerTransport());
