/**
 * The command line brow starts Chromium with: flags that work on a closed network, seed 000's proxy
 * variables, the lifeline pipe and the debugging port, and puppeteer.launch's own defaults (which a
 * prespawned Chromium must match).
 */
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
 * Chromium listens on a pipe and on a port. The pipe is its lifeline: when the Node process that
 * holds the other end dies, even by SIGKILL, Chromium reads the end of it and exits (one started
 * with a port alone outlives a killed brow). The port, written to the profile's DevToolsActivePort,
 * is for clients that connect by endpoint (the `browser` tool's worker): browserEndpoint().
 */
const LIFELINE_FLAGS = ['--remote-debugging-pipe', '--remote-debugging-port=0'];
export const PORT_FILE = 'DevToolsActivePort';

/** Chromium flags brow adds to puppeteer's defaults. */
export function browArgs(opts: LaunchOptions): string[] {
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
export function puppeteerArgs(headless: boolean, extra: string[]): string[] {
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
