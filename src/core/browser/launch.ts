/** Launch brow's own Chromium with flags that work on a closed network. */
import puppeteer, { type Browser } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { findChrome } from './find-chrome.js';

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
  // navigator.webdriver stays false (seed 000 launches every browser so); a page still tells
  // automation by other means unless the session is stealth
  const args = [
    ...CLOSED_NETWORK_FLAGS,
    '--disable-blink-features=AutomationControlled',
    ...proxyFlags(process.env),
    ...(opts.args ?? []),
  ];
  if (isRoot()) args.push('--no-sandbox', '--disable-setuid-sandbox');
  if (opts.viewport) args.push(`--window-size=${opts.viewport.width},${opts.viewport.height}`);
  const headless = opts.headless ?? true;
  if (headless) args.push('--disable-gpu');
  try {
    return await puppeteer.launch({
      executablePath: chrome.path,
      headless,
      args,
      userDataDir: opts.userDataDir,
      defaultViewport: null,
      protocolTimeout: 60_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      pipe: false,
    });
  } catch (e) {
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
