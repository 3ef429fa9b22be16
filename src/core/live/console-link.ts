/**
 * Where a person finds brow's web console for a core: the door that serves it (`brow serve`,
 * `brow mcp`, the CLI daemon) says so once, and handoffs, picks and the doctor name the address.
 * Kept per core (one core, one console), not per page or session.
 */
import type { BrowCore } from '../core.js';
import { slot } from '../state-bag.js';

/** In the core's StateBag: gone with the core. */
const linkSlot = slot<Promise<string | null>>('console-link', () => Promise.resolve(null));

/** Record the console's base URL (with its token, if any), or a promise of it while it starts. */
export function setConsoleUrl(core: BrowCore, url: string | null | Promise<string | null>): void {
  core.state.set(
    linkSlot,
    Promise.resolve(url).catch(() => null),
  );
}

/** The console's URL, opened on a page when one is named; null when no console is served. */
export async function consoleUrl(core: BrowCore, pageId?: string): Promise<string | null> {
  const base = await core.state.get(linkSlot);
  if (!base || !pageId) return base;
  const u = new URL(base);
  u.searchParams.set('page', pageId);
  return u.toString();
}
