/**
 * The user agent without "HeadlessChrome", set over CDP (Network.setUserAgentOverride) on the
 * page and on every target it auto-attaches — dedicated workers and out-of-process frames —
 * before they run, so `navigator.userAgent` agrees in every realm and in request headers.
 */
import type { CDPSession, Protocol } from 'puppeteer-core';

export type UserAgentOverride = Protocol.Network.SetUserAgentOverrideRequest;

/**
 * The override for a browser whose native UA is `nativeUa` ("…HeadlessChrome/156.0.0.0…"). On
 * `windows` (seed 000's choice) a Linux platform becomes "Windows NT 10.0; Win64; x64", with
 * navigator.platform "Win32" and Windows client hints to match.
 */
export function userAgentOverride(
  nativeUa: string,
  version: string,
  languages: string[],
  claim: 'windows' | 'native' = 'native',
): UserAgentOverride {
  let userAgent = nativeUa.replace(/HeadlessChrome\//g, 'Chrome/');
  if (claim === 'windows')
    userAgent = userAgent.replace(/\(X11; Linux [^)]*\)/, '(Windows NT 10.0; Win64; x64)');
  const full = /\/(\d+(?:\.\d+)*)/.exec(version)?.[1] ?? /Chrome\/([\d.]+)/.exec(userAgent)?.[1] ?? '0.0.0.0';
  const major = full.split('.')[0] ?? '0';
  const platform = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : 'Linux';
  const brands = (v: string) => [
    { brand: 'Not:A-Brand', version: v === full ? '8.0.0.0' : '8' },
    { brand: 'Chromium', version: v },
  ];
  return {
    userAgent,
    ...(platform === 'Windows' ? { platform: 'Win32' } : {}),
    acceptLanguage: languages.join(','),
    userAgentMetadata: {
      brands: brands(major),
      fullVersionList: brands(full),
      fullVersion: full,
      platform,
      platformVersion: platform === 'Windows' ? '10.0.0' : '',
      architecture: 'x86',
      bitness: '64',
      model: '',
      mobile: false,
      wow64: false,
    },
  };
}

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

/** Cover a target attached under our session, then let it start. */
async function coverChild(child: CDPSession, ua: UserAgentOverride): Promise<void> {
  child.on('sessionattached', (grandchild: CDPSession) => void coverChild(grandchild, ua));
  await Promise.all([
    child.send('Network.setUserAgentOverride', ua).catch(() => undefined),
    child.send('Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined),
  ]);
  await child.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
}

/** Apply the override on a page session and, through auto-attach, on its workers and frames. */
export async function applyUserAgent(session: CDPSession, ua: UserAgentOverride): Promise<void> {
  session.on('sessionattached', (child: CDPSession) => void coverChild(child, ua));
  await session.send('Network.setUserAgentOverride', ua);
  await session.send('Target.setAutoAttach', AUTO_ATTACH);
}
