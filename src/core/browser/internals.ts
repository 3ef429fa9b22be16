/**
 * Every read of puppeteer's private fields, in one place. puppeteer keeps ids, CDP sessions and
 * cached target info on its objects without exporting them; brow needs them (CDP frame ids for
 * out-of-process iframes, the target id a page record names, a title that does not wake a hung
 * renderer). Each accessor checks the field's shape and fails loudly, naming it, when an upgrade
 * moved it: tests/core/puppeteer-internals.test.ts calls every one against real Chromium.
 */
import type { CDPSession, Connection, Frame, HTTPRequest, Page, Target } from 'puppeteer-core';

/** A private field or method puppeteer no longer has: an upgrade changed it. */
export class PuppeteerInternalsChanged extends Error {
  constructor(what: string) {
    super(
      `puppeteer's internals changed: ${what} is missing (brow reads it in src/core/browser/internals.ts).`,
    );
    this.name = 'PuppeteerInternalsChanged';
  }
}

function field<T>(obj: object, name: string, kind: 'string' | 'object' | 'function', what: string): T {
  const v = (obj as Record<string, unknown>)[name];
  if (typeof v !== kind || v === null) throw new PuppeteerInternalsChanged(`${what}.${name}`);
  return v as T;
}

/** A target's CDP id (for a page: the tab's target id). */
export function targetIdOf(target: Target | object): string {
  return field<string>(target, '_targetId', 'string', 'Target');
}

/** The target id of a page's own target. */
export function pageTargetId(page: Page): string {
  return targetIdOf(page.target());
}

/** The CDP frame id (for an out-of-process iframe also its target id). */
export function frameIdOf(frame: Frame): string {
  return field<string>(frame, '_id', 'string', 'Frame');
}

/** The CDP session puppeteer uses for a frame (its target's). */
export function frameClient(frame: Frame): CDPSession {
  return field<CDPSession>(frame, 'client', 'object', 'Frame');
}

/** Point puppeteer's Frame at another CDP session (an out-of-process iframe's own). */
export function setFrameClient(frame: Frame, client: CDPSession): void {
  field<(c: CDPSession) => void>(frame, 'updateClient', 'function', 'Frame').call(frame, client);
}

/** The CDP session puppeteer holds for a target, when attached. */
export function targetSession(target: Target): CDPSession | undefined {
  return field<() => CDPSession | undefined>(target, '_session', 'function', 'Target').call(target);
}

/** The page's main CDP session (the one puppeteer's own page methods use). */
export function pageClient(page: Page): CDPSession {
  return field<() => CDPSession>(page, '_client', 'function', 'Page').call(page);
}

/**
 * The target's title and URL as the browser last reported them (Target.targetInfoChanged): read
 * without a round trip to the renderer, so a page whose script never yields still answers.
 */
export function targetInfo(target: Target): { title: string; url: string } {
  const info = field<() => { title?: string; url?: string }>(
    target,
    '_getTargetInfo',
    'function',
    'Target',
  ).call(target);
  return { title: info.title ?? '', url: info.url ?? '' };
}

/** The target id a console message came from (puppeteer notes it for worker and iframe messages). */
export function consoleMessageTargetId(msg: object): string | undefined {
  const fn = (msg as { _targetId?: () => string | undefined })._targetId;
  return typeof fn === 'function' ? fn.call(msg) : undefined;
}

/** The Fetch interception id of a paused request (undefined when not intercepted). */
export function requestInterceptionId(req: HTTPRequest): string | undefined {
  const id = (req as unknown as { _interceptionId?: unknown })._interceptionId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Point a request at the CDP session that paused it (a dedicated worker's request is paused on
 * the page's main target, but puppeteer resolves it on the worker's session and it hangs).
 */
export function setRequestClient(req: HTTPRequest, client: CDPSession): void {
  (req as unknown as { client: CDPSession }).client = client;
}

/**
 * The target a CDP session belongs to (puppeteer's CdpCDPSession.target()); undefined while the
 * session has none yet (puppeteer asserts then).
 */
export function sessionTarget(session: CDPSession): Target | undefined {
  const fn = field<() => Target>(session, 'target', 'function', 'CDPSession');
  try {
    return fn.call(session);
  } catch {
    return undefined;
  }
}

/** The session a child session was attached through (puppeteer answers the session itself at the top). */
export function parentSession(session: CDPSession): CDPSession | undefined {
  return field<() => CDPSession | undefined>(session, 'parentSession', 'function', 'CDPSession').call(
    session,
  );
}

/** Connection._rawSend: every CDP command of a connection and of its sessions goes through it. */
export type RawSend = (
  this: Connection,
  callbacks: unknown,
  method: string,
  params: unknown,
  sessionId?: string,
  options?: unknown,
) => Promise<unknown>;

/**
 * Wrap the command sender of every puppeteer Connection in this process (pass puppeteer's
 * `Connection` class): `wrap` gets the original and answers the replacement. Once per `key`: a
 * second call with the same key (another copy of the module) changes nothing and answers false.
 */
export function wrapConnectionSend(
  connectionClass: { prototype: Connection },
  key: symbol,
  wrap: (original: RawSend) => RawSend,
): boolean {
  const proto = connectionClass.prototype as unknown as Record<string | symbol, unknown>;
  if (proto[key]) return false;
  const original = field<RawSend>(proto, '_rawSend', 'function', 'Connection.prototype');
  proto._rawSend = wrap(original);
  proto[key] = true;
  return true;
}
