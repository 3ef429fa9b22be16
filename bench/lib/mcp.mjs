// A thin MCP stdio client used by every MCP system adapter: the real
// @modelcontextprotocol/sdk Client over StdioClientTransport, exactly what an agent
// host does. Every call has a timeout; the server's process tree is tracked and
// killed by pid on stop.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { killTree, processTree, sleep, track, untrack, withTimeout } from './proc.mjs';

export class McpProcess {
  /** @param {{name:string, command:string, args:string[], env?:Record<string,string>, cwd?:string}} opts */
  constructor(opts) {
    this.opts = opts;
    this.stderr = '';
    this.client = null;
    this.transport = null;
    this.pid = null;
  }

  async start(timeoutMs = 30_000) {
    const { command, args, env, cwd } = this.opts;
    this.transport = new StdioClientTransport({
      command,
      args,
      cwd,
      env: { ...process.env, ...env },
      stderr: 'pipe',
    });
    this.client = new Client({ name: 'brow-bench', version: '0.0.0' });
    const started = this.client.connect(this.transport, { timeout: timeoutMs });
    // stderr is available once spawned; keep the tail for error reports.
    const grab = () => {
      const s = this.transport.stderr;
      if (s && !s._benchHooked) {
        s._benchHooked = true;
        s.on('data', (d) => {
          this.stderr = (this.stderr + d.toString()).slice(-4000);
        });
      }
    };
    grab();
    try {
      await withTimeout(started, timeoutMs + 1000, `${this.opts.name}: MCP initialize`);
    } finally {
      grab();
      this.pid = this.transport.pid ?? null;
      track(this.pid);
    }
    return this;
  }

  /**
   * Call a tool. Returns { text, structured, isError, raw }.
   * Throws on transport errors and timeouts.
   */
  async call(name, args = {}, timeoutMs = 60_000) {
    const res = await withTimeout(
      this.client.callTool({ name, arguments: args }, undefined, {
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
      }),
      timeoutMs + 2000,
      `${this.opts.name}: ${name}`,
    );
    const text = (res.content ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('\n');
    return { text, structured: res.structuredContent ?? null, isError: !!res.isError, raw: res };
  }

  async listTools() {
    const { tools } = await withTimeout(this.client.listTools(), 20_000, `${this.opts.name}: listTools`);
    return tools;
  }

  /** Close stdin (servers exit on it), then kill what is left of the tree by pid. */
  async stop() {
    const pid = this.pid;
    const tree = pid ? processTree(pid) : [];
    try {
      await withTimeout(this.client?.close() ?? Promise.resolve(), 5000, `${this.opts.name}: close`);
    } catch {
      /* fall through to kill */
    }
    // Give the server a moment to close its browser gracefully.
    for (let i = 0; i < 20 && tree.some((p) => processTree(p).length); i++) await sleep(100);
    for (const p of tree) killTree(p);
    untrack(pid);
  }
}
