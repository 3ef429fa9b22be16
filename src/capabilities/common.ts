/** Fields and helpers shared by capability declarations. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import type { BrowPage, Watch } from '../core/session/page.js';
import type { Session } from '../core/session/session.js';
import type { CapabilityContext } from './define.js';

/**
 * The page and session a call is for. Left out, or "" (models fill every optional field), they
 * mean the defaults: the page last used and the page's own session.
 */
export const pageIdField = z.string().optional().describe('Default: the last used page');

export const sessionIdField = z.string().optional().describe("Default: the page's session");

export const refField = z.string().describe('Ref from the latest listing, e.g. "e12"');

export const timeoutField = z
  .number()
  .int()
  .min(1)
  .max(600_000)
  .optional()
  .describe('ms (default 30000, max 120000)');

// Output fields shared by many capabilities: described once, kept short (they ride in every tool list).
export const pageIdOut = z.string().describe('Page id');
export const sessionIdOut = z.string().describe('Session id');
/** A page record (pageRecord below). */
export const pageOut = z
  .looseObject({ page_id: pageIdOut, url: z.string().describe('URL') })
  .describe('Page: id, session, url, state');

/** What every action answers: its effect (src/core/actions/effect.ts), described at the top only. */
export const actionOut = z
  .object({
    page_id: pageIdOut,
    action: z
      .looseObject({
        ok: z.boolean().describe('Not failed'),
        action: z.string().describe('Action'),
        outcome: z.string().describe('completed | dispatched | no_change | failed'),
      })
      .describe('Effect: outcome, navigation, pages, dialogs, downloads, requests, changes'),
  })
  .describe('The effect');

/** Clamp a caller's timeout to the configured range. */
export function timeoutMs(ctx: CapabilityContext, t: number | undefined): number {
  const cfg = ctx.core.config;
  return Math.min(t ?? cfg.default_timeout_ms, cfg.max_timeout_ms);
}

/**
 * Resolve the page a call means and run fn with it to itself (calls on one page are serialised,
 * watched for a crash or a hung renderer: see BrowPage.exclusive for `watch`).
 */
export function onPage<T>(
  ctx: CapabilityContext,
  input: { page_id?: string | undefined; session_id?: string | undefined },
  fn: (page: BrowPage) => Promise<T>,
  opts: { watch?: Watch } = {},
): Promise<T> {
  const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
  // the page's session is in use until the call ends, also when the call named no page
  const endCall = page.session.beginCall();
  return page
    .exclusive(async () => {
      passGates(ctx, page.session, page);
      await ctx.enterPage?.(page);
      return fn(page);
    }, opts)
    .finally(endCall);
}

/**
 * The session a session-wide call means (the page's, the one named, else the caller's default),
 * past the call's gates; it is touched.
 */
export function sessionOf(
  ctx: CapabilityContext,
  input: { page_id?: string | undefined; session_id?: string | undefined },
): Session {
  const s = input.page_id
    ? ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner).session
    : input.session_id
      ? ctx.core.session(input.session_id, ctx.owner)
      : ctx.core.defaultSession(ctx.owner);
  if (!s) {
    throw new BrowserError('session_not_found', 'No session is running.', {
      hint: 'Start one with browser_start_session or browser_open_page, then call again.',
    });
  }
  passGates(ctx, s);
  s.touch();
  return s;
}

/**
 * Refuse the call when one of its capability's gates is shut (ctx.gates, set by invoke): a
 * read-only session, a person's handoff, an open dialog, in that order. Without a page only the
 * session's gate applies (a session-wide call: cookies, saved state).
 */
export function passGates(ctx: CapabilityContext, session: Session, page?: BrowPage): void {
  const g = ctx.gates;
  if (!g) return;
  if (g.write && session.readOnly) {
    throw new BrowserError(
      'read_only',
      `Session ${session.id} is read-only; ${ctx.name ?? 'this call'} is refused.`,
      g.writeHint ? { hint: g.writeHint } : {},
    );
  }
  if (g.handoff) page?.assertNoHandoff();
  if (g.dialog) page?.assertNoDialog();
}

/** The seed-001 page record. */
export function pageRecord(p: BrowPage) {
  return {
    page_id: p.id,
    session_id: p.session.id,
    target_id: p.targetId,
    url: p.url(),
    // the browser's title, no round trip (open, list and navigate put the one they read in its place)
    title: p.title(),
    state: p.closed
      ? 'closed'
      : p.crashed
        ? 'crashed'
        : p.pendingDialog
          ? 'dialog'
          : p.handoffId
            ? 'handoff'
            : 'open',
    active: p.session.activePageId === p.id,
    opener_page_id: p.openerPageId,
    document_generation: p.documentGeneration,
    expires_at: p.session.expiresAt,
    readiness: p.readiness,
    redirect_chain: p.redirectChain,
    resource_warning: resourceWarning(p),
  };
}

/** Seed 001's `resource_warning`: what about the page's size or health a caller should know; null when nothing. */
function resourceWarning(p: BrowPage): string | null {
  if (p.crashed) return 'Its renderer crashed: close it and open the URL again.';
  const walk = p.lastWalk;
  if (walk?.truncated) {
    return `The page holds more than one snapshot walks (${walk.nodes.length} elements taken): list a scope or a ref's subtree, or use browser_find.`;
  }
  return null;
}
