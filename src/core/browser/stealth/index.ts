/**
 * Stealth for brow's headless tabs (the seed-000 `browser` tool): one document-start script
 * built from one small patch per surface, plus CDP-level overrides (user agent in every
 * realm, timezone, locale) and the puppeteer sourceURL marker stripped. Written for brow, no
 * stealth packages. Spawned and connected browsers are never patched.
 */
import { randomUUID } from 'node:crypto';
import type { CDPSession, Page } from 'puppeteer-core';
import { activity } from './activity.js';
import { audio } from './audio.js';
import { canvas } from './canvas.js';
import { chromeObject } from './chrome-object.js';
import { codecs } from './codecs.js';
import { hairline } from './hairline.js';
import { hardware } from './hardware.js';
import { iframe } from './iframe.js';
import { languages } from './languages.js';
import { permissions } from './permissions.js';
import { plugins } from './plugins.js';
import { screen } from './screen.js';
import { stripSourceUrls } from './source-url.js';
import { tampering } from './tampering.js';
import type { StealthOptions, StealthPatch } from './types.js';
import { applyUserAgent, userAgentOverride } from './user-agent.js';
import { makeUtils } from './utils.js';
import { webdriver } from './webdriver.js';
import { webgl } from './webgl.js';

export type { StealthOptions } from './types.js';

/** In order: toString masking first, so every later patch prints as native. */
const PATCHES: Array<[string, StealthPatch]> = [
  ['tampering', tampering],
  ['webdriver', webdriver],
  ['chromeObject', chromeObject],
  ['plugins', plugins],
  ['languages', languages],
  ['webgl', webgl],
  ['screen', screen],
  ['hardware', hardware],
  ['codecs', codecs],
  ['permissions', permissions],
  ['iframe', iframe],
  ['activity', activity],
  ['hairline', hairline],
  ['canvas', canvas],
  ['audio', audio],
];

/** Desktop GPUs a Windows Chrome reports through ANGLE (the platform the user agent names, as seed 000 does). */
const GPUS = [
  {
    vendor: 'Google Inc. (Intel)',
    renderer: 'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  },
  {
    vendor: 'Google Inc. (NVIDIA)',
    renderer: 'ANGLE (NVIDIA, NVIDIA GeForce GTX 1650 (0x00001F82) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  },
  {
    vendor: 'Google Inc. (AMD)',
    renderer: 'ANGLE (AMD, AMD Radeon RX 580 Series (0x000067DF) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  },
];

/** The same GPUs as a Linux Chrome reports them (platform: 'native'). */
const LINUX_GPUS = [
  {
    vendor: 'Google Inc. (Intel)',
    renderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)',
  },
  {
    vendor: 'Google Inc. (NVIDIA Corporation)',
    renderer: 'ANGLE (NVIDIA Corporation, NVIDIA GeForce GTX 1650/PCIe/SSE2, OpenGL 4.5.0)',
  },
  {
    vendor: 'Google Inc. (AMD)',
    renderer: 'ANGLE (AMD, AMD Radeon RX 580 Series (polaris10, LLVM 15.0.7), OpenGL 4.6)',
  },
];

/** A server's UTC clock is a tell; keep the host's zone unless it is UTC. */
function defaultTimezone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return !tz || tz === 'UTC' || tz.startsWith('Etc/') ? 'America/New_York' : tz;
}

/**
 * Options for one tab: Windows (seed 000's platform: the user agent, navigator.platform, client
 * hints and the GPU agree), a GPU picked at random, en-US, 4 cores, a 1920×1080 screen.
 * `platform: 'native'` keeps the host's platform in all of them instead.
 */
export function defaultStealthOptions(platform: StealthOptions['platform'] = 'windows'): StealthOptions {
  const gpus = platform === 'windows' ? GPUS : LINUX_GPUS;
  return {
    platform,
    languages: ['en-US', 'en'],
    hardwareConcurrency: 4,
    webgl: gpus[Math.floor(Math.random() * gpus.length)]!,
    timezone: defaultTimezone(),
    locale: 'en-US',
    screen: { width: 1920, height: 1080 },
    secret: randomUUID(),
  };
}

/** The document-start script: every patch, each in its own try/catch, for the top window and same-origin frames. */
export function stealthScript(o: StealthOptions): string {
  const patches = PATCHES.map(([name, fn]) => `[${JSON.stringify(name)}, ${fn.toString()}]`).join(',\n');
  return `(() => {
'use strict';
const o = ${JSON.stringify(o)};
let u = null;
try {
  if (window.parent !== window) {
    const shared = Reflect.apply(window.parent.Function.prototype.toString, o.secret, []);
    if (shared && typeof shared === 'object' && shared.patched) u = shared;
  }
} catch (e) {}
if (!u) {
  u = (${makeUtils.toString()})();
  const patches = [${patches}];
  u.applyAll = (win) => {
    if (!win || u.patched.has(win)) return;
    u.patched.add(win);
    for (const [, patch] of patches) { try { patch(u, o, win); } catch (e) {} }
  };
}
u.applyAll(window);
})();`;
}

/**
 * Patch a fresh headless page before its first navigation. Returns the CDP session that holds
 * the overrides; it lives as long as the page.
 */
export async function applyStealth(
  page: Page,
  o: StealthOptions = defaultStealthOptions(),
): Promise<CDPSession> {
  const session = await page.createCDPSession();
  stripSourceUrls(session);
  const browser = page.browser();
  const [nativeUa, version] = await Promise.all([browser.userAgent(), browser.version()]);
  await applyUserAgent(session, userAgentOverride(nativeUa, version, o.languages, o.platform));
  await Promise.all([
    session.send('Emulation.setTimezoneOverride', { timezoneId: o.timezone }).catch(() => undefined),
    session.send('Emulation.setLocaleOverride', { locale: o.locale }).catch(() => undefined),
  ]);
  await page.evaluateOnNewDocument(stealthScript(o));
  return session;
}
