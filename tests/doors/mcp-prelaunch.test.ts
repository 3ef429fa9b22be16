/**
 * `brow mcp` starts the shared Chromium while its client connects (config `prelaunch`, on by
 * default), so the first page call does not wait for a launch; off, nothing launches before a call
 * needs it. Either way no Chromium outlives the server.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, SETUP_MS, buildOnce, configFile } from './helpers.js';
import { scaled } from '../scale.js';

/** Pids of the processes below `root` (from /proc: parent pid is field 4 of stat). */
function descendants(root: number): { pid: number; cmd: string }[] {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(d), readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')[0] ?? '');
    } catch {
      // gone meanwhile
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const seen = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!seen.has(pid) && seen.has(ppid)) {
        seen.add(pid);
        out.push({ pid, cmd: cmd.get(pid) ?? '' });
        grew = true;
      }
    }
  }
  return out;
}

const chromiumUnder = (pid: number) => descendants(pid).filter((p) => /chrom/i.test(p.cmd));

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + scaled(ms);
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

async function start(config: Record<string, unknown>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--config', configFile(config)],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'brow-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

describe('brow mcp prelaunch', () => {
  it(
    'launches Chromium while the client connects, before any call, and stops it with the server',
    async () => {
      buildOnce();
      const { client, pid } = await start({});
      await client.listTools();
      expect(await until(() => chromiumUnder(pid).length > 0, 20_000)).toBe(true);
      const open = await client.callTool({ name: 'browser_open_page', arguments: { url: 'about:blank' } });
      expect(open.isError).toBeFalsy();
      // its processes by pid: once the server exits, an orphan would no longer be below it
      const launched = chromiumUnder(pid).map((p) => p.pid);
      await client.close();
      const alive = () => launched.filter((p) => existsSync(`/proc/${p}/stat`));
      expect(await until(() => alive().length === 0, 10_000)).toBe(true);
    },
    SETUP_MS,
  );

  it(
    'with prelaunch off, nothing launches until a call needs the browser',
    async () => {
      buildOnce();
      const { client, pid } = await start({ prelaunch: false });
      await client.listTools();
      await new Promise((r) => setTimeout(r, scaled(1500)));
      expect(chromiumUnder(pid)).toEqual([]);
      const open = await client.callTool({ name: 'browser_open_page', arguments: { url: 'about:blank' } });
      expect(open.isError).toBeFalsy();
      expect(chromiumUnder(pid).length).toBeGreaterThan(0);
      await client.close();
    },
    SETUP_MS,
  );
});
