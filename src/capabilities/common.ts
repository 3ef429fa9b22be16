/** Fields and helpers shared by capability declarations. */
import { z } from 'zod';
import type { BrowPage } from '../core/session/page.js';
import type { CapabilityContext } from './define.js';

export const pageIdField = z
  .string()
  .min(1)
  .optional()
  .describe('Page to use (from browser_open_page or browser_list_pages); defaults to the last used page');

export const sessionIdField = z
  .string()
  .min(1)
  .optional()
  .describe('Session to use; defaults to the session of the last used page');

export const refField = z.string().min(1).describe('Element ref from the latest snapshot, e.g. "e12"');

export const timeoutField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Timeout in milliseconds (default 30000; clamped to the configured maximum, 120000)');

/** Clamp a caller's timeout to the configured range. */
export function timeoutMs(ctx: CapabilityContext, t: number | undefined): number {
  const cfg = ctx.core.config;
  return Math.min(t ?? cfg.default_timeout_ms, cfg.max_timeout_ms);
}

/** Resolve the page a call means and run fn with it to itself (calls on one page are serialised). */
export function onPage<T>(
  ctx: CapabilityContext,
  input: { page_id?: string | undefined; session_id?: string | undefined },
  fn: (page: BrowPage) => Promise<T>,
): Promise<T> {
  const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
  return page.exclusive(() => fn(page));
}

/** The seed-001 page record. */
export function pageRecord(p: BrowPage) {
  return {
    page_id: p.id,
    session_id: p.session.id,
    target_id: (p.raw.target() as unknown as { _targetId?: string })._targetId ?? null,
    url: p.url(),
    state: p.closed ? 'closed' : p.pendingDialog ? 'dialog' : p.handoffId ? 'handoff' : 'open',
    active: p.session.activePageId === p.id,
    opener_page_id: p.openerPageId,
    document_generation: p.documentGeneration,
    expires_at: p.session.lastUsed + p.session.config.idle_stop_ms,
  };
}
