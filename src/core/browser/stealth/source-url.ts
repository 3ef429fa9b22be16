/**
 * Puppeteer appends `//# sourceURL=pptr:…` to every script it evaluates; a page can see it in
 * error stacks. Strip it from Runtime.evaluate / Runtime.callFunctionOn on the way out.
 * Patches the CDP session class of this puppeteer instance: used in a tab worker, which
 * drives one headless tab only.
 */
import type { CDPSession } from 'puppeteer-core';

const MARKER = /\n?\/\/# sourceURL=pptr:[^\n]*\n?/g;
const STRIPPED = Symbol.for('brow.stealth.sourceUrl');

type Send = (
  this: CDPSession,
  method: string,
  params?: Record<string, unknown>,
  options?: unknown,
) => Promise<unknown>;

/** Wrap `send` of the session's class (idempotent). */
export function stripSourceUrls(session: CDPSession): void {
  const proto = Object.getPrototypeOf(session) as { send: Send; [STRIPPED]?: true };
  if (proto[STRIPPED]) return;
  const send = proto.send;
  proto.send = function (this: CDPSession, method, params, options) {
    if (params && (method === 'Runtime.evaluate' || method === 'Runtime.callFunctionOn')) {
      const key = method === 'Runtime.evaluate' ? 'expression' : 'functionDeclaration';
      const code = params[key];
      if (typeof code === 'string' && code.includes('sourceURL=pptr:')) {
        params = { ...params, [key]: code.replace(MARKER, '\n') };
      }
    }
    return send.call(this, method, params, options);
  };
  proto[STRIPPED] = true;
}
