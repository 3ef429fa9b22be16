/**
 * Keep a tab worker from stalling the rest of the browser. Puppeteer auto-attaches to every
 * new target with waitForDebuggerOnStart, so a new tab, frame or worker anywhere in the shared
 * Chromium waits until this connection lets it run — and a worker stuck in a synchronous loop
 * never does (brow's own sessions would hang with it). Patched in the worker only: targets
 * outside the tab's own page start at once; the page's own frames and workers still wait, so
 * document-start scripts reach them.
 */
import { Connection } from 'puppeteer-core';
import { targetIdOf } from '../browser/internals.js';

type RawSend = (
  callbacks: unknown,
  method: string,
  params: unknown,
  sessionId?: string,
  options?: unknown,
) => Promise<unknown>;

/** The internal session methods used here (CdpCDPSession). */
interface SessionLinks {
  target(): unknown;
  parentSession(): SessionLinks | undefined;
}

const GUARDED = Symbol.for('brow.tool.attachGuard');

/** Does this session belong to the target `mine` (or a frame/worker under it)? */
function owned(conn: Connection, sessionId: string | undefined, mine: string): boolean {
  let s = (sessionId ? conn.session(sessionId) : null) as unknown as SessionLinks | undefined | null;
  for (let depth = 0; s && depth < 16; depth++) {
    try {
      if (targetIdOf(s.target() as object) === mine) return true;
    } catch {
      // a session without a target yet
    }
    s = s.parentSession();
  }
  return false;
}

/** Patch this worker's puppeteer once; `mine()` names the tab's page target. */
export function guardAutoAttach(mine: () => string | null): void {
  const proto = Connection.prototype as unknown as { _rawSend: RawSend; [GUARDED]?: true };
  if (proto[GUARDED]) return;
  const rawSend = proto._rawSend;
  proto._rawSend = function (this: Connection, callbacks, method, params, sessionId, options) {
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
  };
  proto[GUARDED] = true;
}
