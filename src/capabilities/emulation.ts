/** Emulation for a session: device presets, viewport, user agent, geolocation, timezone, locale, media, throttling. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { sessionIdField, sessionIdOut, sessionOf } from './common.js';
import { defineCapability } from './define.js';
import { refuseInReadOnly } from './network.js';

const PERMISSIONS = [
  'geolocation',
  'notifications',
  'camera',
  'microphone',
  'clipboard-read',
  'clipboard-write',
  'clipboard-sanitized-write',
  'midi',
  'midi-sysex',
  'background-sync',
  'persistent-storage',
  'accelerometer',
  'gyroscope',
  'magnetometer',
  'ambient-light-sensor',
  'payment-handler',
  'idle-detection',
  'keyboard-lock',
  'pointer-lock',
] as const;

export const emulateCap = defineCapability({
  name: 'browser_emulate',
  title: 'Emulate a device or environment',
  description:
    "Emulate a device (puppeteer KnownDevices name), viewport, UA, geolocation, timezone, locale, color scheme, reduced motion, CPU/network throttling on a session's pages. Merges; reset clears.",
  group: 'emulation',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: z
    .looseObject({ session_id: sessionIdOut, emulation: z.looseObject({}).describe('Settings in force') })
    .describe('Emulation'),
  positional: ['device'],
  input: z.object({
    session_id: sessionIdField,
    page_id: z.string().min(1).optional().describe("A page: its session's emulation"),
    device: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('e.g. "iPhone 15 Pro", "Pixel 5", "iPad Mini landscape"'),
    viewport: z
      .object({
        width: z.number().int().min(100).max(7680).optional().describe('CSS px'),
        height: z.number().int().min(100).max(7680).optional().describe('CSS px'),
        device_scale_factor: z.number().min(0.5).max(5).optional().describe('DPR'),
        is_mobile: z.boolean().optional().describe('Mobile meta viewport'),
        has_touch: z.boolean().optional().describe('Touch events'),
      })
      .optional()
      .describe('Refines the device viewport'),
    user_agent: z.string().min(1).max(1000).optional().describe('User agent'),
    geolocation: z
      .object({
        latitude: z.number().min(-90).max(90).describe('Degrees'),
        longitude: z.number().min(-180).max(180).describe('Degrees'),
        accuracy: z.number().min(0).max(100_000).optional().describe('Metres (default 10)'),
      })
      .optional()
      .describe('Position; grants the geolocation permission'),
    permissions: z
      .array(z.string().min(1).max(40))
      .max(20)
      .optional()
      .describe('Granted for every origin, e.g. ["notifications"]'),
    timezone: z.string().min(1).max(100).optional().describe('IANA id, e.g. "Asia/Tokyo"'),
    locale: z.string().min(1).max(50).optional().describe('e.g. "de-DE" (Intl, navigator.language)'),
    color_scheme: z.enum(['light', 'dark', 'no-preference']).optional().describe('prefers-color-scheme'),
    reduced_motion: z.enum(['reduce', 'no-preference']).optional().describe('prefers-reduced-motion'),
    cpu_throttling: z.number().min(1).max(20).optional().describe('Slowdown factor (1 = none)'),
    network: z
      .enum(['Slow 3G', 'Fast 3G', 'Slow 4G', 'Fast 4G', 'offline', 'none'])
      .optional()
      .describe('Network preset'),
    reset: z.boolean().default(false).describe('Clear all emulation first'),
  }),
  async handle(input, ctx) {
    const unknown = input.permissions?.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
    if (unknown?.length) {
      throw new BrowserError('invalid_request', `Unknown permission ${JSON.stringify(unknown[0])}.`, {
        hint: `Use web permission names: ${PERMISSIONS.join(', ')}.`,
      });
    }
    if (input.timezone && !validTimezone(input.timezone)) {
      throw new BrowserError('invalid_request', `Unknown timezone "${input.timezone}".`, {
        hint: 'Use an IANA timezone id such as "Europe/Berlin", "America/New_York", "Asia/Tokyo" or "UTC".',
      });
    }
    if (input.locale) {
      try {
        Intl.getCanonicalLocales(input.locale);
      } catch {
        throw new BrowserError('invalid_request', `"${input.locale}" is not a locale.`, {
          hint: 'Use a BCP 47 tag such as "en-US", "de-DE" or "ja-JP".',
        });
      }
    }
    const session = sessionOf(ctx, input);
    refuseInReadOnly(session, 'emulation');
    const { emulate } = await import('../core/emulation/emulation.js');
    const { session_id: _s, page_id: _p, reset, ...patch } = input;
    const settings = await emulate(session, patch, reset);
    const parts = Object.entries(settings).map(
      ([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
    );
    return {
      text: [
        `Emulation of session ${session.id} (every page, now and later)${reset ? ', after a reset' : ''}:`,
        ...(parts.length ? parts.map((p) => `- ${p}`) : ['- none (the browser defaults)']),
      ].join('\n'),
      data: { session_id: session.id, emulation: settings },
    };
  },
});

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
