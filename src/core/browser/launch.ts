/**
 * Launch brow's own Chromium with flags that work on a closed network. puppeteer-core is imported when a
 * launch runs, so bin/brow.js can load this module early (prespawnChromium) without waiting for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { sleep, within, withDeadline } from '../deadline.js';
import { BrowserError } from '../errors.js';
import { findChrome } from './find-chrome.js';
import { makeTempProfile, sweepLeftProfiles } from './temp-profiles.js';

export const CLOSED_NETWORK_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-sync',
  '--disable-breakpad',
  '--disable-dev-shm-usage',
  '--metrics-recording-only',
  '--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider',
  '--password-store=basic',
  '--use-mock-keychain',
];

export interface LaunchOptions {
  executable?: string;
  headless?: boolean;
  userDataDir?: string;
  viewport?: { width: number; height: number };
  args?: string[];
}

const truthy = (v: string | undefined) => v !== undefined && v !== '' && !/^(0|false|no)$/i.test(v);

/**
 * Seed 000's proxy variables: PUPPETEER_PROXY (a proxy server, e.g. http://127.0.0.1:3128),
 * PUPPETEER_PROXY_BYPASS_LOOPBACK (send 127.0.0.1/localhost through it too: Chromium skips the
 * proxy for loopback unless told `<-loopback>`), PUPPETEER_PROXY_IGNORE_CERT_ERRORS (accept the
 * certificates of an intercepting proxy).
 */
export function proxyFlags(env: NodeJS.ProcessEnv): string[] {
  const proxy = env.PUPPETEER_PROXY?.trim();
  if (!proxy) return [];
  const flags = [`--proxy-server=${proxy}`];
  if (truthy(env.PUPPETEER_PROXY_BYPASS_LOOPBACK)) flags.push('--proxy-bypass-list=<-loopback>');
  if (truthy(env.PUPPETEER_PROXY_IGNORE_CERT_ERRORS)) flags.push('--ignore-certificate-errors');
  return flags;
}

export const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Launch Chromium; throws BrowserError(backend_unavailable) when none is found or it does not start,
 * capability_unavailable when a headful session has no display.
 */
export async function launchChromium(opts: LaunchOptions = {}): Promise<Browser> {
  const found = findChrome(opts.executable ?? '');
  if (found?.missing) {
    throw new BrowserError(
      'backend_unavailable',
      `${found.missing.path} (from ${found.missing.source}) is not an executable browser.`,
      {
        hint: `Fix or unset ${found.missing.source}; \`brow doctor\` shows what would launch.`,
      },
    );
  }
  const chrome = found?.path ? found : null;
  if (!chrome) {
    throw new BrowserError('backend_unavailable', 'No Chromium or Chrome executable was found.', {
      hint: 'Install Chromium (Debian: apt-get install chromium) or set BROW_CHROME to its path; `brow doctor` shows what is missing.',
    });
  }
  if (opts.headless === false && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    throw new BrowserError('capability_unavailable', 'A headful session needs a display, and none is set.', {
      hint: 'Start it headless, or run under a desktop or Xvfb (Xvfb :99 & export DISPLAY=:99).',
    });
  }
  const headless = opts.headless ?? true;
  const args = browArgs(opts);
  // a profile brow reuses may hold the port file of its last run: the endpoint must be this one's
  if (opts.userDataDir) rmSync(join(opts.userDataDir, PORT_FILE), { force: true });
  const puppeteer = await import('puppeteer-core');
  const early = takePrespawned(chrome.path, headless, opts);
  if (early) {
    const browser = await connectPrespawned(early, puppeteer, args).catch(() => null);
    if (browser) return afterLaunch(browser);
  }
  // a temporary directory of brow's naming (not puppeteer's), so that one a killed brow left behind
  // is found and removed later (temp-profiles.ts): the profile, unless the caller gives one, and
  // Chromium's own temporary files either way (chromiumTemp)
  let temp: string | null = null;
  try {
    // inside the try: a temp dir that cannot be made (disk full, no rights) is a backend_unavailable too
    temp = makeTempProfile();
    const profile = opts.userDataDir ?? temp;
    const browser = await puppeteer.launch({
      executablePath: chrome.path,
      headless,
      args,
      userDataDir: profile,
      env: chromiumEnv(temp),
      defaultViewport: null,
      protocolTimeout: 60_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      // brow talks over the pipe (see LIFELINE_FLAGS); the port is for second clients
      pipe: true,
      // a headless start opens no tab (see browArgs): nothing to wait for
      waitForInitialPage: !headless,
    });
    return afterLaunch(removingTemp(browser, temp, profile));
  } catch (e) {
    if (temp) removeDir(temp);
    throw new BrowserError(
      'backend_unavailable',
      `Chromium at ${chrome.path} failed to start: ${String(e).split('\n')[0]}`,
      {
        cause: e,
        hint: headless
          ? 'Run `brow doctor`; check that Chromium starts by hand with --headless.'
          : 'A headful session needs a display (set DISPLAY, e.g. under Xvfb) — or start it headless.',
      },
    );
  }
}

/** A launched or connected browser is up: now remove the profiles killed brows left (in the background). */
function afterLaunch(browser: Browser): Browser {
  void sweepLeftProfiles();
  return browser;
}

const removeDir = (dir: string) => {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // best effort, as puppeteer's own cleanup; a later brow's sweep removes what is left
  }
};

/**
 * Chromium's own temporary files (base::GetTempDir, which reads TMPDIR): the singleton socket's
 * directory (`org.chromium.Chromium.XXXXXX`, which the profile's SingletonSocket links to) and, with
 * --disable-dev-shm-usage, its shared-memory files. Chromium removes the socket's directory only when
 * it shuts down cleanly; a Chromium killed (a close that timed out, brow exiting first) leaves it.
 * So each launch gets its own TMPDIR inside brow's temporary directory, and removing that removes
 * them. Not when the socket's path would pass the 107 bytes a Unix socket path may have (a long
 * TMPDIR): then Chromium keeps the usual one and brow removes the socket's directory (singletonDir).
 */
export function chromiumTemp(dir: string): string | null {
  const tmp = join(dir, 't');
  return Buffer.byteLength(join(tmp, 'org.chromium.Chromium.XXXXXX', 'SingletonSocket')) <= 107 ? tmp : null;
}

/** The environment Chromium runs in: brow's, with TMPDIR in `dir` (chromiumTemp), made here. */
function chromiumEnv(dir: string): NodeJS.ProcessEnv {
  const tmp = chromiumTemp(dir);
  if (!tmp) return process.env;
  mkdirSync(tmp, { recursive: true });
  return { ...process.env, TMPDIR: tmp };
}

/**
 * The singleton socket's directory a profile's SingletonSocket links to, when Chromium made it
 * outside brow's temporary directory (see chromiumTemp). Read while Chromium runs: a Chromium
 * killed while it shuts down may have removed the link but not yet the directory.
 */
function singletonDir(profile: string, own: string): string | null {
  let target: string;
  try {
    target = readlinkSync(join(profile, 'SingletonSocket'));
  } catch {
    return null; // no link (yet, or any more)
  }
  const dir = dirname(target);
  return basename(dir).startsWith('org.chromium.Chromium.') && !dir.startsWith(own + sep) ? dir : null;
}

/**
 * puppeteer removes only a profile it made: brow's temporary directory (the profile, or Chromium's
 * TMPDIR beside a caller's profile) goes once the browser has closed, when its process ends
 * another way (a crash), or when brow exits first (puppeteer kills Chromium then).
 */
function removingTemp(browser: Browser, dir: string, profile: string): Browser {
  const singleton = singletonDir(profile, dir);
  const remove = () => {
    process.removeListener('exit', remove);
    if (singleton) removeDir(singleton);
    removeDir(dir);
  };
  process.once('exit', remove);
  browser.process()?.once('exit', remove);
  const close = browser.close.bind(browser);
  browser.close = async () => {
    try {
      await close();
    } finally {
      remove();
    }
  };
  return browser;
}

/**
 * Chromium listens on a pipe and on a port. The pipe is its lifeline: when the Node process that
 * holds the other end dies, even by SIGKILL, Chromium reads the end of it and exits (one started
 * with a port alone outlives a killed brow). The port, written to the profile's DevToolsActivePort,
 * is for clients that connect by endpoint (the `browser` tool's worker): browserEndpoint().
 */
const LIFELINE_FLAGS = ['--remote-debugging-pipe', '--remote-debugging-port=0'];
const PORT_FILE = 'DevToolsActivePort';

/** Chromium flags brow adds to puppeteer's defaults. */
function browArgs(opts: LaunchOptions): string[] {
  // navigator.webdriver stays false (seed 000 launches every browser so); a page still tells
  // automation by other means unless the session is stealth
  const args = [
    ...CLOSED_NETWORK_FLAGS,
    '--disable-blink-features=AutomationControlled',
    ...proxyFlags(process.env),
    ...(opts.args ?? []),
    ...LIFELINE_FLAGS,
  ];
  if (isRoot()) args.push('--no-sandbox', '--disable-setuid-sandbox');
  if (opts.viewport) args.push(`--window-size=${opts.viewport.width},${opts.viewport.height}`);
  // Headless, Chromium starts without its first tab: nothing in brow uses it (a session opens its
  // own windows), and on two cores its renderer's start slows the first page a session opens by
  // 200-250 ms. A headful Chromium keeps it: there the last window closed would end the browser.
  if (opts.headless ?? true) args.push('--disable-gpu', '--no-startup-window');
  return args;
}

/**
 * The command line puppeteer.launch gives Chromium (puppeteer-core 24's ChromeLauncher.defaultArgs:
 * its defaults with the caller's --disable-features/--enable-features merged in, then the caller's
 * flags), before --remote-debugging-port and --user-data-dir. A prespawned Chromium is only used
 * when puppeteer's own defaultArgs gives the same list, so a puppeteer upgrade that changes them
 * makes brow launch as before instead of running a different browser.
 */
function puppeteerArgs(headless: boolean, extra: string[]): string[] {
  const features = (flag: string) =>
    extra
      .filter((a) => a.startsWith(`${flag}=`))
      .flatMap((a) => a.slice(flag.length + 1).split(','))
      .map((f) => f.trim())
      .filter(Boolean);
  const disabled = [
    'Translate',
    'AcceptCHFrame',
    'MediaRouter',
    'OptimizationHints',
    'WebUIReloadButton',
    ...(process.env.PUPPETEER_TEST_EXPERIMENTAL_CHROME_FEATURES === 'true'
      ? []
      : ['ProcessPerSiteUpToMainFrameThreshold', 'IsolateSandboxedIframes']),
    ...features('--disable-features'),
  ];
  const enabled = ['PdfOopif', ...features('--enable-features')];
  const rest = extra.filter(
    (a) => !a.startsWith('--disable-features=') && !a.startsWith('--enable-features='),
  );
  const args = [
    '--allow-pre-commit-input',
    '--disable-background-networking',
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-breakpad',
    '--disable-client-side-phishing-detection',
    '--disable-component-extensions-with-background-pages',
    '--disable-crash-reporter',
    '--disable-default-apps',
    '--disable-dev-shm-usage',
    '--disable-hang-monitor',
    '--disable-infobars',
    '--disable-ipc-flooding-protection',
    '--disable-popup-blocking',
    '--disable-prompt-on-repost',
    '--disable-renderer-backgrounding',
    '--disable-search-engine-choice-screen',
    '--disable-sync',
    '--enable-automation',
    '--export-tagged-pdf',
    '--force-color-profile=srgb',
    '--generate-pdf-document-outline',
    '--metrics-recording-only',
    '--no-first-run',
    '--password-store=basic',
    '--use-mock-keychain',
    `--disable-features=${disabled.join(',')}`,
    `--enable-features=${enabled.join(',')}`,
  ];
  if (process.env.PUPPETEER_DANGEROUS_NO_SANDBOX === 'true' && !rest.includes('--no-sandbox'))
    args.push('--no-sandbox');
  if (headless) args.push('--headless=new', '--hide-scrollbars', '--mute-audio');
  args.push('--disable-extensions');
  if (rest.every((a) => a.startsWith('-'))) args.push('about:blank');
  return [...args, ...rest];
}

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
function takePrespawned(path: string, headless: boolean, opts: LaunchOptions): Prespawned | null {
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
async function connectPrespawned(
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

/**
 * The WebSocket endpoint of a browser brow launched or connected to, for a second client. A
 * launched one talks to brow over a pipe and names its port in the profile's DevToolsActivePort,
 * which is written as the port opens (read for up to `waitMs`).
 */
export async function browserEndpoint(browser: Browser, waitMs = 10_000): Promise<string> {
  const ws = browser.wsEndpoint();
  if (ws) return ws;
  const dirArg = browser
    .process()
    ?.spawnargs.find((a) => a.startsWith('--user-data-dir='))
    ?.slice('--user-data-dir='.length);
  if (!dirArg) throw new Error('This browser has no endpoint: it was not started with a profile brow knows.');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const [port, path] = readFileSync(join(dirArg, PORT_FILE), 'utf8').split('\n');
      if (port && path) return `ws://127.0.0.1:${port.trim()}${path.trim()}`;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`Chromium did not write ${PORT_FILE} in ${dirArg}.`);
    await sleep(25);
  }
}
