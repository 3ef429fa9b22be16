/**
 * Launch brow's own Chromium with flags that work on a closed network (chromium-args.ts), taking the
 * prespawned one when it matches (prespawn.ts). puppeteer-core is imported when a launch runs, so
 * bin/brow.js can load this module early (prespawnChromium) without waiting for it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { sleep } from '../deadline.js';
import { BrowserError } from '../errors.js';
import { browArgs, PORT_FILE, type LaunchOptions } from './chromium-args.js';
import { chromiumEnv, removeDir, singletonDir } from './chromium-temp.js';
import { findChrome } from './find-chrome.js';
import { connectPrespawned, takePrespawned } from './prespawn.js';
import { makeTempProfile, sweepLeftProfiles } from './temp-profiles.js';

// bin/brow.js loads this module (dist/bundle/launch.js) to prespawn; the rest of brow imports these here
export { CLOSED_NETWORK_FLAGS, isRoot, proxyFlags, type LaunchOptions } from './chromium-args.js';
export { chromiumTemp } from './chromium-temp.js';
export { prespawnChromium } from './prespawn.js';

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
