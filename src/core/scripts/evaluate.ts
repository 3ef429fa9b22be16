/**
 * browser_evaluate: a JavaScript expression in the page's main frame, its value as JSON.
 *
 * Read-only sessions run the expression under V8's side-effect check (Runtime.evaluate
 * throwOnSideEffect, what DevTools uses for eager evaluation): reads of the DOM and page state
 * pass; assignments, DOM changes, network calls, `await`, top-level let/const and calls V8 cannot
 * prove free of side effects are refused with read_only before they run. It is conservative:
 * some harmless calls are refused too (Blink does not mark document.getElementById pure, while
 * querySelector is). It covers the expression only: timers and animations the page already runs
 * go on.
 */
import type { Protocol } from 'puppeteer-core';
import { sharedDeadline } from '../deadline.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { jsonSafeInPage } from './serialize.js';

export const MAX_VALUE_CHARS = 50_000;

export interface EvaluateResult {
  value: unknown;
  /** typeof the value ('object' with subtype for arrays, nodes, null…). */
  type: string;
  truncated: boolean;
  /** The page navigated while the expression ran; value is null. */
  navigated?: true;
}

const SIDE_EFFECT = /Possible side-effect in debug-evaluate/;
const CONTEXT_GONE =
  /Execution context was destroyed|Cannot find context|Inspected target navigated|context.*destroyed/i;

let groupCounter = 0;

/** Send a CDP command racing a dialog: a dialog freezes the page and the command with it. */
export async function sendRacingDialog<T>(page: BrowPage, work: Promise<T>): Promise<T> {
  const r = await page.raceDialog(work);
  if ('dialog' in r) {
    throw new BrowserError(
      'dialog_blocking',
      `A ${r.dialog.type} dialog opened while the call ran: "${r.dialog.message}".`,
      {
        hint: 'Answer it with browser_handle_dialog; the page continues after that.',
        details: { dialog: r.dialog },
      },
    );
  }
  return r.value;
}

/** The exception of a CDP evaluation as a BrowserError. */
export function scriptError(
  d: Protocol.Runtime.ExceptionDetails,
  readOnly: boolean,
  what: string,
): BrowserError {
  const description = d.exception?.description ?? d.exception?.value ?? d.text;
  const message = String(description).split('\n')[0] ?? 'Uncaught';
  if (readOnly && SIDE_EFFECT.test(message)) {
    return new BrowserError('read_only', `This session is read-only and the ${what} may change the page.`, {
      hint:
        'Read-only sessions evaluate only expressions V8 can prove free of side effects: plain reads of the DOM and page state. ' +
        'Assignments, DOM changes, fetch, await and top-level let/const are refused, and so are a few pure calls V8 cannot prove ' +
        '(use document.querySelector("#id") rather than getElementById). Start a session without read_only to change the page.',
    });
  }
  return new BrowserError('script_error', `The ${what} threw: ${message}`, {
    details: { line: d.lineNumber + 1, column: d.columnNumber + 1 },
  });
}

export const isContextGone = (e: unknown): boolean => CONTEXT_GONE.test(String((e as Error)?.message ?? e));

/** A RemoteObject as JSON (objects serialised in the page); the object group is the caller's to release. */
export async function remoteToJson(
  page: BrowPage,
  obj: Protocol.Runtime.RemoteObject,
  maxChars: number,
): Promise<{ value: unknown; type: string; truncated: boolean }> {
  const type = obj.subtype ? `${obj.type}:${obj.subtype}` : obj.type;
  if (obj.type === 'undefined') return { value: null, type, truncated: false };
  if (obj.unserializableValue) return { value: obj.unserializableValue, type, truncated: false };
  if (typeof obj.value === 'string' && obj.value.length > maxChars) {
    return { value: `${obj.value.slice(0, maxChars)}…`, type, truncated: true };
  }
  if (!obj.objectId) return { value: obj.value ?? null, type, truncated: false };
  if (obj.type === 'function')
    return { value: `[function ${obj.description?.split('(')[0] ?? ''}]`.trim(), type, truncated: false };
  const res = await sendRacingDialog(
    page,
    page.cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: jsonSafeInPage.toString(),
      objectId: obj.objectId,
      arguments: [{ value: maxChars }],
      returnByValue: true,
    }),
  );
  if (res.exceptionDetails) return { value: obj.description ?? type, type, truncated: false };
  const out = res.result.value as { json: string; truncated: boolean };
  return { value: JSON.parse(out.json) as unknown, type, truncated: out.truncated };
}

/** Evaluate an expression; a function value is called with `argument`. */
export async function evaluateExpression(
  page: BrowPage,
  input: { expression: string; argument?: unknown; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<EvaluateResult> {
  const readOnly = page.session.readOnly;
  const objectGroup = `brow-eval-${++groupCounter}`;
  const generation = page.documentGeneration;
  const cdp = page.cdp;
  // one deadline over every step (evaluate, await, call, read back); its end, or the caller's
  // cancel, stops the script so the page is free again
  const deadline = sharedDeadline(
    input.timeoutMs,
    () => new BrowserError('timeout', `The expression did not finish within ${input.timeoutMs} ms.`),
    {
      signal: input.signal,
      onStop: () => void cdp.send('Runtime.terminateExecution').catch(() => undefined),
    },
  );
  const send = <T>(p: Promise<T>) => sendRacingDialog(page, deadline.race(p));
  // repl mode awaits its own wrapper, not a promise the expression evaluates to: await that too
  const settled = async (obj: Protocol.Runtime.RemoteObject): Promise<Protocol.Runtime.RemoteObject> => {
    if (obj.subtype !== 'promise' || !obj.objectId) return obj;
    const r = await send(cdp.send('Runtime.awaitPromise', { promiseObjectId: obj.objectId }));
    if (r.exceptionDetails) throw scriptError(r.exceptionDetails, readOnly, 'expression');
    return r.result;
  };
  try {
    const first = await send(
      cdp.send('Runtime.evaluate', {
        expression: input.expression,
        objectGroup,
        awaitPromise: true,
        // repl mode allows top-level await; V8's side-effect check refuses it, so read-only goes without
        replMode: !readOnly,
        throwOnSideEffect: readOnly,
        userGesture: !readOnly,
      }),
    );
    if (first.exceptionDetails) throw scriptError(first.exceptionDetails, readOnly, 'expression');
    let result = await settled(first.result);
    if (result.type === 'function' && result.objectId) {
      const called = await send(
        cdp.send('Runtime.callFunctionOn', {
          functionDeclaration: 'function (arg) { return this(arg); }',
          objectId: result.objectId,
          arguments: [input.argument === undefined ? {} : { value: input.argument }],
          awaitPromise: true,
          objectGroup,
          throwOnSideEffect: readOnly,
          userGesture: !readOnly,
        }),
      );
      if (called.exceptionDetails) throw scriptError(called.exceptionDetails, readOnly, 'function');
      result = await settled(called.result);
    } else if (input.argument !== undefined) {
      throw new BrowserError('invalid_request', 'argument is only used when the expression is a function.', {
        hint: 'Write the expression as a function, e.g. "(arg) => document.title + arg", or drop argument.',
      });
    }
    return await send(remoteToJson(page, result, MAX_VALUE_CHARS));
  } catch (e) {
    if (isContextGone(e) || (page.documentGeneration !== generation && !(e instanceof BrowserError))) {
      return { value: null, type: 'undefined', truncated: false, navigated: true };
    }
    throw e;
  } finally {
    deadline.clear();
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}
