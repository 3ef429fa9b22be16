/** Cookies and saved login state: read, set and clear cookies; save a session's state and load it back. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { pageIdField, sessionIdField, sessionIdOut, sessionOf } from './common.js';
import { defineCapability } from './define.js';

/** A read-only session keeps its cookies and storage as they are (it may start from a profile). */
const KEPT_AS_THEY_ARE =
  'Use a session without read_only, or start one from saved state: browser_start_session {profile, read_only}.';

const sameSite = z.enum(['Strict', 'Lax', 'None']);

const cookieIn = z
  .object({
    name: z.string().min(1).describe('Name'),
    value: z.string().describe('Value'),
    url: z.string().url().optional().describe('URL it belongs to (or domain)'),
    domain: z.string().min(1).optional().describe('Domain, ".x.com" for subdomains too'),
    path: z.string().optional().describe('Path (default /)'),
    expires: z
      .number()
      .min(0)
      .max(253_402_300_799)
      .optional()
      .describe('Epoch seconds; omit: session cookie'),
    httpOnly: z.boolean().optional().describe('Hidden from scripts'),
    secure: z.boolean().optional().describe('HTTPS only'),
    sameSite: sameSite.optional().describe('Strict | Lax | None'),
  })
  .strict();

export const cookiesCap = defineCapability({
  name: 'browser_cookies',
  title: 'Get, set or clear cookies',
  description: "Read, set or clear the session's cookies (all its pages share them).",
  group: 'storage',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  gates: (input) => (input.action === 'get' ? {} : { write: true, writeHint: KEPT_AS_THEY_ARE }),
  output: z
    .looseObject({
      session_id: sessionIdOut,
      cookies: z.array(z.looseObject({})).optional().describe('get: the cookies'),
      count: z.number().describe('Cookies got, set or cleared'),
    })
    .describe('Cookies'),
  positional: ['action'],
  input: z.object({
    session_id: sessionIdField,
    page_id: pageIdField,
    action: z.enum(['get', 'set', 'clear']).describe('get | set | clear'),
    cookies: z.array(cookieIn).optional().describe('set: the cookies'),
    urls: z.array(z.string().url()).optional().describe('get/clear: only cookies sent to these URLs'),
    name: z.string().min(1).optional().describe('get/clear: only this name'),
  }),
  async handle(input, ctx) {
    const session = sessionOf(ctx, input);
    const c = await import('../core/storage/cookies.js');
    const filter = { urls: input.urls, name: input.name };
    if (input.action === 'set') {
      if (!input.cookies?.length)
        throw new BrowserError('invalid_request', 'action set needs cookies.', {
          hint: 'Pass cookies: [{name, value, url}] (or domain + path instead of url).',
        });
      await c.setCookies(session, input.cookies);
      const n = input.cookies.length;
      return {
        text: `Set ${n} cookie(s) in session ${session.id}: ${input.cookies.map((k) => k.name).join(', ')}.`,
        data: { session_id: session.id, count: n },
      };
    }
    if (input.action === 'clear') {
      const n = await c.clearCookies(session, filter);
      return {
        text: `Cleared ${n} cookie(s) in session ${session.id}.`,
        data: { session_id: session.id, count: n },
      };
    }
    const cookies = await c.getCookies(session, filter);
    const lines = cookies.map(
      (k) =>
        `${k.name}=${k.value.length > 80 ? `${k.value.slice(0, 79)}…` : k.value} (${k.domain}${k.path}${k.httpOnly ? ', httpOnly' : ''}${k.secure ? ', secure' : ''}${k.session ? ', session' : `, expires ${new Date(k.expires * 1000).toISOString()}`})`,
    );
    return {
      text: cookies.length ? `${cookies.length} cookie(s):\n${lines.join('\n')}` : 'No cookies.',
      data: { session_id: session.id, count: cookies.length, cookies },
    };
  },
});

const idbNote = (r: { indexed_db_databases: number }) =>
  r.indexed_db_databases ? ` with ${r.indexed_db_databases} IndexedDB database(s)` : '';

/** IndexedDB databases not saved or not restored, by origin and name (never their contents). */
const skippedNote = (skipped: string[], lead: string) =>
  skipped.length
    ? ` ${lead}: ${skipped.slice(0, 5).join('; ')}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}.`
    : '';

const whereFields = {
  profile: z.string().min(1).optional().describe('Profile name (kept in brow’s data dir)'),
  path: z.string().min(1).optional().describe('Or a file in the workspace'),
};

const stateOut = z
  .looseObject({
    session_id: sessionIdOut,
    file: z.string().describe('File'),
    cookies: z.number().describe('Cookies'),
    origins: z.number().describe('Origins with storage'),
  })
  .describe('Counts (values are never answered)');

export const saveStateCap = defineCapability({
  name: 'browser_save_state',
  title: 'Save login state',
  description:
    'Save cookies and per-origin storage (local, session, IndexedDB) to a profile or workspace file (0600; encrypted if BROW_STATE_KEY is set).',
  group: 'storage',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: stateOut,
  input: z.object({ session_id: sessionIdField, ...whereFields }),
  async handle(input, ctx) {
    const session = sessionOf(ctx, input);
    const { saveState } = await import('../core/storage/profiles.js');
    const r = await saveState(session, ctx.core.config, input);
    return {
      text: `Saved ${r.cookies} cookie(s) and storage of ${r.origins} origin(s)${idbNote(r)} to ${r.file}${r.encrypted ? ' (encrypted)' : ''}.${skippedNote(r.skipped, 'Left out')}`,
      data: { session_id: session.id, ...r },
    };
  },
});

export const loadStateCap = defineCapability({
  name: 'browser_load_state',
  title: 'Load login state',
  description: 'Restore cookies and storage saved by browser_save_state into a session.',
  group: 'storage',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  gates: { write: true, writeHint: KEPT_AS_THEY_ARE },
  output: stateOut,
  input: z.object({ session_id: sessionIdField, ...whereFields }),
  async handle(input, ctx) {
    const session = sessionOf(ctx, input);
    const { loadState } = await import('../core/storage/profiles.js');
    const r = await loadState(session, ctx.core.config, input);
    const failed = r.failed_origins.length
      ? ` localStorage of ${r.failed_origins.length} origin(s) could not be restored: ${r.failed_origins.slice(0, 5).join(', ')}.`
      : '';
    return {
      text: `Loaded ${r.cookies} cookie(s) and storage of ${r.origins} origin(s)${idbNote(r)} from ${r.file} into ${session.id}.${failed}${skippedNote(r.skipped, 'Left alone')} Reload open pages to see it.`,
      data: { session_id: session.id, ...r },
    };
  },
});
