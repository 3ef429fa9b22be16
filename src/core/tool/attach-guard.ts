/**
 * Keep a tab worker from stalling the rest of the browser. Puppeteer auto-attaches to every
 * new target with waitForDebuggerOnStart, so a new tab, frame or worker anywhere in the shared
 * Chromium waits until this connection lets it run — and a worker stuck in a synchronous loop
 * never does (brow's own sessions would hang with it). Patched in the worker only: targets
 * outside the tab's own page start at once; the page's own frames and workers still wait, so
 * document-start scripts reach them.
 */
import { Connection } from 'puppeteer-core';
import { parentSession, sessionTarget, targetIdOf, wrapConnectionSend } from '../browser/internals.js';

const GUARDED = Symbol.for('brow.tool.attachGuard');

/** Does this session belong to the target `mine` (or a frame/worker under it)? */
function owned(conn: Connection, sessionId: string | undefined, mine: string): boolean {
  let s = sessionId ? conn.session(sessionId) : null;
  for (let depth = 0; s && depth < 16; depth++) {
    const target = sessionTarget(s);
    // a session without a target yet belongs to nobody so far
    if (target && targetIdOf(target) === mine) return true;
    s = parentSession(s) ?? null;
  }
  return false;
}

/** Patch this worker's puppeteer once; `mine()` names the tab's page target. */
export function guardAutoAttach(mine: () => string | null): void {
  wrapConnectionSend(
    Connection,
    GUARDED,
    (rawSend) =>
      function (this: Connection, callbacks, method, params, sessionId, options) {
        if (
          method === 'Target.setAutoAttach' &&
          params &&
          (params as { waitForDebuggerOnStart?: boolean }).waitForDebuggerOnStart
        ) {
          const id = mine();
          if (!id || !owned(this, sessionId, id))
            params = { ...(params as object), waitForDebuggerOnStart: false };
        }
        return rawSend.call(this, callbacks, method, params, sessionId, options);
      },
  );
}
