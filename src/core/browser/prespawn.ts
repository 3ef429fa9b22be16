/**
 * A Chromium started before brow has loaded (bin/brow.js does it for `brow mcp`), kept ready until the
 * first launch takes it, or discarded when unused or unsuitable. launch.ts connects to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'puppeteer-core';
import { within, withDeadline } from '../deadline.js';
import { browArgs, puppeteerArgs, type LaunchOptions } from './chromium-args.js';
import { chromiumEnv, removeDir, singletonDir } from './chromium-temp.js';
import { findChrome } from './find-chrome.js';
import { makeTempProfile } from './temp-profiles.js';

interface Prespawned {
  path: string;
  headless: boolean;
  /** brow's flags and the whole command line before the debugging port and profile flags. */
  browArgs: string[];
  args: string[];
  child: ChildProcess;
  endpoint: Promise<string>;
  exited: Promise<void>;
  timer: NodeJS.Timeout;
  /** Kill it (its whole process group) and remove its profile. */
  discard(): void;
  /** A launch connected to it: signals are the door's to handle from now on. */
  taken(): void;
}

/** The Chromium prespawnChromium started, until a launch takes it or it is discarded. */
let prespawned: Prespawned | null = null;

/**
 * Start Chromium now, before puppeteer and the rest of brow load (bin/brow.js does for `brow mcp`):
 * the first launchChromium with the same executable and display mode connects to it instead of
 * launching, which takes the launch off the critical path of a cold start. Spawned as
 * puppeteer.launch would (its flags, a temporary profile, its own process group); killed with this
 * process, and after `unusedMs` when no launch took it. False when nothing was started.
 */
export function prespawnChromium(opts: {
  executable?: string;
  headless?: boolean;
  unusedMs?: number;
}): boolean {
  if (prespawned) return false;
  const found = findChrome(opts.executable ?? '');
  const headless = opts.headless ?? true;
  if (!found?.path || (!headless && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)) return false;
  const own = browArgs({ headless });
  const args = puppeteerArgs(headless, own);
  let dataDir: string;
  let child: ChildProcess;
  let env: NodeJS.ProcessEnv;
  try {
    dataDir = makeTempProfile();
    env = chromiumEnv(dataDir);
  } catch {
    return false;
  }
  let singleton: string | null = null;
  const removeProfile = () => {
    singleton ??= singletonDir(dataDir, dataDir);
    if (singleton) removeDir(singleton);
    removeDir(dataDir);
  };
  try {
    child = spawn(found.path, [...args, `--user-data-dir=${dataDir}`], {
      detached: process.platform !== 'win32',
      // fds 3 and 4 are the debugging pipe: held, never written, so Chromium ends with this process
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      env,
    });
  } catch {
    removeProfile();
    return false;
  }
  // it must not keep this process alive (a usage error exits at once): the exit hook below kills it
  child.unref();
  for (const stream of child.stdio.slice(2)) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  const kill = () => {
    try {
      if (child.pid && child.exitCode === null && child.signalCode === null) {
        if (process.platform === 'win32') child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      }
    } catch {
      // gone already
    }
  };
  const onExit = () => {
    kill();
    removeProfile();
  };
  process.once('exit', onExit);
  // a signal before the door has its own handlers (while brow loads) ends this process without
  // 'exit': end Chromium first, then let the signal do what it would have done
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const onSignal = (sig: NodeJS.Signals) => {
    if (process.listenerCount(sig) > 1) return; // someone else handles it (and closes the browser)
    unwatchSignals();
    onExit();
    process.kill(process.pid, sig);
  };
  const unwatchSignals = () => {
    for (const sig of signals) process.removeListener(sig, onSignal);
  };
  for (const sig of signals) process.on(sig, onSignal);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      unwatchSignals();
      process.removeListener('exit', onExit);
      removeProfile();
      resolve();
    });
    child.once('error', () => resolve());
  });
  const endpoint = new Promise<string>((resolve, reject) => {
    let seen = '';
    let found = false;
    child.stderr!.setEncoding('utf8');
    // read to the end: Chromium blocks once a full pipe is not drained
    child.stderr!.on('data', (d: string) => {
      if (found) return;
      seen = (seen + d).slice(-8192);
      const m = /^DevTools listening on (ws:\/\/.*)$/m.exec(seen);
      if (m) {
        found = true;
        singleton = singletonDir(dataDir, dataDir);
        resolve(m[1]!.trim());
      }
    });
    void exited.then(() => reject(new Error('Chromium exited before it listened')));
  });
  endpoint.catch(() => undefined);
  const entry: Prespawned = {
    path: found.path,
    headless,
    browArgs: own,
    args,
    child,
    endpoint,
    exited,
    timer: setTimeout(() => entry.discard(), opts.unusedMs ?? 30_000),
    discard() {
      clearTimeout(entry.timer);
      if (prespawned === entry) prespawned = null;
      kill();
    },
    taken: unwatchSignals,
  };
  entry.timer.unref();
  child.once('error', () => entry.discard());
  prespawned = entry;
  return true;
}

/** The prespawned Chromium for this launch, if it matches; any other launch discards it (only the first may take it). */
export function takePrespawned(path: string, headless: boolean, opts: LaunchOptions): Prespawned | null {
  const entry = prespawned;
  if (!entry) return null;
  prespawned = null;
  clearTimeout(entry.timer);
  const plain = !opts.userDataDir && !opts.viewport && !opts.args?.length;
  if (plain && entry.path === path && entry.headless === headless) return entry;
  entry.discard();
  return null;
}

/**
 * Connect to a prespawned Chromium; null (and it is killed) when it did not start, or when its command
 * line is not the one puppeteer.launch would give now. Its Browser closes as a launched one does:
 * close() waits for the process to exit (killed after 5 s) and its profile is removed.
 */
export async function connectPrespawned(
  entry: Prespawned,
  puppeteer: Pick<typeof import('puppeteer-core'), 'connect' | 'defaultArgs'>,
  args: string[],
): Promise<Browser | null> {
  const same =
    JSON.stringify(entry.browArgs) === JSON.stringify(args) &&
    JSON.stringify(puppeteer.defaultArgs({ headless: entry.headless, args: [...args] })) ===
      JSON.stringify(entry.args);
  let browser: Browser | null = null;
  try {
    if (!same) throw new Error('launch arguments changed');
    const ws = await withDeadline(entry.endpoint, 30_000, () => new Error('timeout'));
    browser = await puppeteer.connect({
      browserWSEndpoint: ws,
      defaultViewport: null,
      protocolTimeout: 60_000,
    });
    entry.taken();
  } catch {
    entry.discard();
    return null;
  }
  const close = browser.close.bind(browser);
  browser.close = async () => {
    await close().catch(() => undefined);
    // killed when it has not exited 5 s after the close
    const ended = await within(
      entry.exited.then(() => true),
      5000,
      false,
    );
    if (!ended) entry.discard();
    await entry.exited;
  };
  browser.process = () => entry.child;
  return browser;
}
