/** Start a separate Chromium with remote debugging, as a person would, for attach tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DebugChromium {
  cdpUrl: string;
  port: number;
  userDataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export async function startDebugChromium(urls: string[] = ['about:blank']): Promise<DebugChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'brow-person-'));
  const args = [
    '--headless=new',
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-gpu',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...urls,
  ];
  // its own process group, so stop() reaches the helper processes too
  const proc = spawn('/usr/bin/chromium', args, { stdio: 'ignore', detached: true });
  const portFile = join(userDataDir, 'DevToolsActivePort');
  const t0 = Date.now();
  while (!existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2) {
    if (Date.now() - t0 > 20_000) throw new Error('Chromium did not open its debugging port');
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
  return {
    cdpUrl: `http://127.0.0.1:${port}`,
    port,
    userDataDir,
    proc,
    stop: async () => {
      const group = (signal: NodeJS.Signals | 0): boolean => {
        try {
          process.kill(-proc.pid!, signal);
          return true;
        } catch {
          return false; // the group is gone
        }
      };
      group('SIGTERM');
      for (let i = 0; i < 60 && group(0); i++) await new Promise((r) => setTimeout(r, 50));
      group('SIGKILL');
      for (let i = 0; i < 40 && group(0); i++) await new Promise((r) => setTimeout(r, 50));
      try {
        rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch (e) {
        // a temp profile left behind is not the behaviour under test; say so and go on
        console.warn(`could not remove ${userDataDir}: ${String(e)}`);
      }
    },
  };
}

/** The page targets of a debug Chromium, from /json/list. */
export async function listTargets(
  cdpUrl: string,
): Promise<{ id: string; url: string; type: string; title: string }[]> {
  const res = await fetch(`${cdpUrl}/json/list`);
  return ((await res.json()) as { id: string; url: string; type: string; title: string }[]).filter(
    (t) => t.type === 'page',
  );
}

/** Pids of `root`'s descendants (walked through /proc parent links) whose command is Chromium. */
export function chromiumUnder(root: number): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'
      const close = stat.lastIndexOf(')');
      comm.set(pid, stat.slice(stat.indexOf('(') + 1, close));
      parent.set(pid, Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid), i = 0; p !== undefined && p > 1 && i < 64; p = parent.get(p), i++) {
      if (p === root) return true;
    }
    return false;
  };
  return [...comm].filter(([pid, c]) => /chrom/i.test(c) && under(pid)).map(([pid]) => pid);
}
