/**
 * Per-session emulation: a device preset or viewport, user agent, geolocation and permissions,
 * timezone, locale, media features, CPU and network throttling. Session-scoped on purpose: every
 * page of the session — open now, opened later, popups — gets the same settings (through
 * `session.pageSetups`), so a page a click opens looks like the device its opener emulates.
 * Out-of-process iframes: the user agent (puppeteer sets it on every target), media features and
 * viewport-derived sizes reach them from the main target; timezone, locale and geolocation do
 * not, so brow sets those on each iframe target itself — as it attaches, before its document runs
 * (see childSessions).
 */
import {
  CDPSessionEvent,
  KnownDevices,
  PredefinedNetworkConditions,
  type CDPSession,
  type Device,
} from 'puppeteer-core';
import { pageClient } from '../browser/internals.js';
import { BrowserError } from '../errors.js';
import { setThrottle } from '../network/network-control.js';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';

export type NetworkPreset = 'Slow 3G' | 'Fast 3G' | 'Slow 4G' | 'Fast 4G' | 'offline' | 'none';

export interface EmulationSettings {
  device?: string | undefined;
  viewport?:
    | {
        width?: number | undefined;
        height?: number | undefined;
        device_scale_factor?: number | undefined;
        is_mobile?: boolean | undefined;
        has_touch?: boolean | undefined;
      }
    | undefined;
  user_agent?: string | undefined;
  geolocation?: { latitude: number; longitude: number; accuracy?: number | undefined } | undefined;
  permissions?: string[] | undefined;
  timezone?: string | undefined;
  locale?: string | undefined;
  color_scheme?: 'light' | 'dark' | 'no-preference' | undefined;
  reduced_motion?: 'reduce' | 'no-preference' | undefined;
  cpu_throttling?: number | undefined;
  network?: NetworkPreset | undefined;
}

interface EmulationState {
  settings: EmulationSettings;
  installed: boolean;
}

const emulationSlot = slot<EmulationState>('emulation', () => ({ settings: {}, installed: false }));
/** Which groups a page ever had set, so a new page skips calls for defaults and a reset undoes only those. */
const pageSlot = slot('emulation-page', () => new Set<string>());
/** The page's out-of-process iframe sessions brow has seen attach, and whether it listens. */
const childSlot = slot('emulation-children', () => ({ listening: false, sessions: new Set<CDPSession>() }));

const PER_TARGET = ['timezone', 'locale', 'geolocation'] as const;

/** Timezone, locale and geolocation on one iframe target (errors ignored: it may be gone). */
function applyToChild(child: CDPSession, s: EmulationSettings): Promise<unknown> {
  const ignore = () => undefined;
  const ua = s.user_agent ?? (s.device ? findDevice(s.device).device.userAgent : undefined);
  // each send is written at once, so on a target that waits for the debugger it lands first
  return Promise.all([
    child.send('Emulation.setTimezoneOverride', { timezoneId: s.timezone ?? '' }).catch(ignore),
    child.send('Emulation.setLocaleOverride', s.locale ? { locale: s.locale } : {}).catch(ignore),
    // navigator.language follows Accept-Language (the same user agent as puppeteer sets, if any;
    // when one is emulated, puppeteer's own override on this session lands later and drops it)
    child
      .send('Emulation.setUserAgentOverride', {
        userAgent: ua ?? '',
        ...(s.locale ? { acceptLanguage: s.locale } : {}),
      })
      .catch(ignore),
    (s.geolocation
      ? child.send('Emulation.setGeolocationOverride', {
          latitude: s.geolocation.latitude,
          longitude: s.geolocation.longitude,
          accuracy: s.geolocation.accuracy ?? 10,
        })
      : child.send('Emulation.clearGeolocationOverride')
    ).catch(ignore),
  ]);
}

/**
 * Keep the page's iframe targets in line: listen (once) for child sessions as puppeteer's
 * connection creates them — before puppeteer lets the target run — and update those seen.
 */
function childSessions(page: BrowPage, s: EmulationSettings, applied: Set<string>): Promise<unknown> {
  const main = pageClient(page.raw);
  const st = page.state.get(childSlot);
  if (!st.listening) {
    st.listening = true;
    main.on(CDPSessionEvent.SessionAttached, (child: CDPSession) => {
      for (const c of st.sessions) if (c.detached) st.sessions.delete(c);
      st.sessions.add(child);
      const now = page.session.state.get(emulationSlot).settings;
      if (PER_TARGET.some((k) => now[k] !== undefined)) void applyToChild(child, now);
    });
  }
  if (!PER_TARGET.some((k) => s[k] !== undefined || applied.has(k))) return Promise.resolve();
  return Promise.all([...st.sessions].filter((c) => !c.detached).map((c) => applyToChild(c, s)));
}

/** The device preset for a name (case-insensitive); invalid_request lists close names. */
export function findDevice(name: string): { name: string; device: Device } {
  const names = Object.keys(KnownDevices) as (keyof typeof KnownDevices)[];
  const exact = names.find((n) => n.toLowerCase() === name.trim().toLowerCase());
  if (exact) return { name: exact, device: KnownDevices[exact] };
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  const close = names.filter(
    (n) => words.some((w) => n.toLowerCase().includes(w)) && !n.endsWith('landscape'),
  );
  const some = (close.length ? close : names.filter((n) => !n.endsWith('landscape'))).slice(0, 8);
  throw new BrowserError('invalid_request', `Unknown device "${name}".`, {
    hint: `Use a puppeteer KnownDevices name (add " landscape" for most), e.g. ${some.map((n) => JSON.stringify(n)).join(', ')}.`,
    details: { known_devices: names.length },
  });
}

/** The session's emulation settings. */
export function emulationOf(session: Session): EmulationSettings {
  return session.state.get(emulationSlot).settings;
}

async function applyToPage(page: BrowPage, fresh = false): Promise<void> {
  const s = page.session.state.get(emulationSlot).settings;
  const applied = page.state.get(pageSlot);
  const raw = page.raw;
  const group = (key: string, isDefault: boolean, fn: () => Promise<unknown>): Promise<unknown> | null => {
    if (isDefault && (fresh || !applied.has(key))) return null;
    applied.add(key);
    return fn();
  };
  const device = s.device ? findDevice(s.device).device : null;
  const base = page.session.options.viewport;
  const v = s.viewport;
  const ua = s.user_agent ?? device?.userAgent;
  const work = [
    group('viewport', !device && !v, () =>
      raw.setViewport({
        width: v?.width ?? device?.viewport.width ?? base.width,
        height: v?.height ?? device?.viewport.height ?? base.height,
        deviceScaleFactor: v?.device_scale_factor ?? device?.viewport.deviceScaleFactor ?? 1,
        isMobile: v?.is_mobile ?? device?.viewport.isMobile ?? false,
        hasTouch: v?.has_touch ?? device?.viewport.hasTouch ?? false,
        isLandscape: device?.viewport.isLandscape ?? false,
      }),
    ),
    group('user_agent', !ua, () => raw.setUserAgent({ userAgent: ua ?? '' })),
    // navigator.language follows Accept-Language, which only the user-agent override sets
    group('locale', !s.locale, async () => {
      await page.cdp.send('Emulation.setLocaleOverride', s.locale ? { locale: s.locale } : {});
      await page.cdp.send('Emulation.setUserAgentOverride', {
        userAgent: ua ?? '',
        ...(s.locale ? { acceptLanguage: s.locale } : {}),
      });
    }),
    group('geolocation', !s.geolocation, () =>
      s.geolocation
        ? page.cdp.send('Emulation.setGeolocationOverride', {
            latitude: s.geolocation.latitude,
            longitude: s.geolocation.longitude,
            accuracy: s.geolocation.accuracy ?? 10,
          })
        : page.cdp.send('Emulation.clearGeolocationOverride'),
    ),
    group('timezone', !s.timezone, () => raw.emulateTimezone(s.timezone)),
    group('media', !s.color_scheme && !s.reduced_motion, () =>
      raw.emulateMediaFeatures([
        { name: 'prefers-color-scheme', value: s.color_scheme ?? '' },
        { name: 'prefers-reduced-motion', value: s.reduced_motion ?? '' },
      ]),
    ),
    group('cpu', !s.cpu_throttling, () => raw.emulateCPUThrottling(s.cpu_throttling ?? null)),
    childSessions(page, s, applied),
  ];
  await Promise.all(work.filter((w) => w !== null));
}

/** Permissions are the browser context's: granted for every origin of the session. */
async function applyPermissions(session: Session, previous: EmulationSettings): Promise<void> {
  const s = emulationOf(session);
  const wanted = new Set(s.permissions ?? []);
  if (s.geolocation) wanted.add('geolocation');
  const had = (previous.permissions?.length ?? 0) > 0 || previous.geolocation !== undefined;
  if (had) await session.context.clearPermissionOverrides();
  if (wanted.size > 0) {
    await session.context.setPermission(
      '*',
      ...[...wanted].map((name) => ({
        permission: { name },
        state: 'granted' as const,
      })),
    );
  }
}

const THROTTLES = {
  'Slow 3G': PredefinedNetworkConditions['Slow 3G'],
  'Fast 3G': PredefinedNetworkConditions['Fast 3G'],
  'Slow 4G': PredefinedNetworkConditions['Slow 4G'],
  'Fast 4G': PredefinedNetworkConditions['Fast 4G'],
  offline: { upload: 0, download: 0, latency: 0, offline: true },
};

/**
 * Merge `patch` into the session's emulation (or replace it all when `reset`) and apply it to
 * every page. Answers the settings now in force.
 */
export async function emulate(
  session: Session,
  patch: EmulationSettings,
  reset: boolean,
): Promise<EmulationSettings> {
  if (patch.device) patch.device = findDevice(patch.device).name;
  const st = session.state.get(emulationSlot);
  const previous = st.settings;
  const next: EmulationSettings = reset ? {} : { ...previous };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as Record<string, unknown>)[k] = v;
  // a device sets the viewport and user agent; explicit fields given with it refine it
  if (patch.device && !patch.viewport) delete next.viewport;
  if (patch.device && !patch.user_agent) delete next.user_agent;
  if (next.network === 'none') delete next.network;
  st.settings = next;
  if (!st.installed) {
    st.installed = true;
    // under the page's lock: the page is listed (a popup can be called) before its setups end
    session.pageSetups.add((page) => page.exclusive(() => applyToPage(page, true)));
  }
  const pages = [...session.pages.values()].filter((p) => !p.closed);
  await Promise.all(pages.map((p) => applyToPage(p)));
  await applyPermissions(session, previous);
  if (next.network !== previous.network) {
    await setThrottle(session, next.network ? THROTTLES[next.network] : null);
  }
  return next;
}
