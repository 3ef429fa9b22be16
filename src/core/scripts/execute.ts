/**
 * browser_execute: an async script in the page with top-level await/return, `log()`, `sleep()`,
 * `waitFor(selector)` and a JSON `state` object kept for the session across calls.
 *
 * The script is sent as one Runtime.evaluate expression, so a page's Content-Security-Policy does
 * not block it. A script that navigates loses its result and logs (they lived in the old
 * document): that is reported as `navigated`, not as an error.
 */
import { sharedDeadline } from '../deadline.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { isContextGone, remoteToJson, scriptError, sendRacingDialog, MAX_VALUE_CHARS } from './evaluate.js';

export const MAX_LOGS = 200;
export const MAX_LOG_CHARS = 2000;
const MAX_STATE_CHARS = 1_000_000;
const SOURCE_URL = 'brow-execute.js';

export interface ExecuteResult {
  ok: boolean;
  result: unknown;
  result_truncated: boolean;
  logs: string[];
  logs_dropped: number;
  state: Record<string, unknown>;
  error?: string;
  /** The script navigated the page (its document, result and logs are gone). */
  navigated?: true;
  url?: string;
  duration_ms: number;
}

const PRELUDE = `(async (state, __timeoutMs) => {
  const __logs = [];
  let __dropped = 0;
  const __fmt = (v) => {
    if (typeof v === 'string') return v;
    try { const j = JSON.stringify(v); return j === undefined ? String(v) : j; } catch { return String(v); }
  };
  const log = (...args) => {
    if (__logs.length >= ${MAX_LOGS}) { __dropped++; return; }
    __logs.push(args.map(__fmt).join(' ').slice(0, ${MAX_LOG_CHARS}));
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const waitFor = async (selector, opts = {}) => {
    const timeout = opts.timeout ?? 10000;
    const t0 = Date.now();
    for (;;) {
      const el = document.querySelector(selector);
      if (el) return el;
      if (Date.now() - t0 >= timeout) throw new Error('waitFor("' + selector + '") found nothing within ' + timeout + ' ms');
      await sleep(100);
    }
  };
  const __run = async () => {
`;
const PRELUDE_LINES = PRELUDE.split('\n').length - 1;
const POSTLUDE = `
  };
  let __timer;
  const __out = (ok, extra) => {
    let stateJson = null, stateError = null;
    try { stateJson = JSON.stringify(state === undefined ? {} : state); } catch (e) { stateError = String(e); }
    const { result, ...rest } = extra;
    return { meta: { ok, logs: __logs, dropped: __dropped, stateJson, stateError, ...rest }, result };
  };
  try {
    const result = await Promise.race([
      __run(),
      new Promise((_, reject) => { __timer = setTimeout(() => reject({ __browTimeout: true }), __timeoutMs); }),
    ]);
    return __out(true, { result });
  } catch (e) {
    if (e && e.__browTimeout) return __out(false, { timedOut: true });
    return __out(false, { error: e instanceof Error ? (e.stack || String(e)) : __fmt(e) });
  } finally {
    clearTimeout(__timer);
  }
})`;

/** Map "brow-execute.js:LINE:COL" in a stack to the line of the caller's code. */
function codeLine(stack: string): string {
  const m = new RegExp(`${SOURCE_URL.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  return m ? ` (line ${Number(m[1]) - PRELUDE_LINES}, column ${m[2]})` : '';
}

/** Run a script in the page's main frame with the session's persisted state. */
export async function executeScript(
  page: BrowPage,
  input: { code: string; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<ExecuteResult> {
  const session = page.session;
  const t0 = Date.now();
  const generation = page.documentGeneration;
  const objectGroup = `brow-exec-${t0}`;
  const expression = `${PRELUDE}${input.code}${POSTLUDE}(${JSON.stringify(session.executeState)}, ${input.timeoutMs})\n//# sourceURL=${SOURCE_URL}`;
  const cdp = page.cdp;
  // the in-page timer ends async scripts; a busy loop (or the caller's cancel) needs terminateExecution
  const deadline = sharedDeadline(
    input.timeoutMs + 2000,
    () =>
      new BrowserError('timeout', `The script did not finish within ${input.timeoutMs} ms (it was stopped).`),
    {
      signal: input.signal,
      onStop: () => void cdp.send('Runtime.terminateExecution').catch(() => undefined),
    },
  );
  const navigated = (): ExecuteResult => ({
    ok: false,
    result: null,
    result_truncated: false,
    logs: [],
    logs_dropped: 0,
    state: session.executeState,
    error:
      'The script navigated the page (its execution context was destroyed); its result and logs were lost.',
    navigated: true,
    url: page.url(),
    duration_ms: Date.now() - t0,
  });
  try {
    const res = await sendRacingDialog(
      page,
      deadline.race(
        cdp.send('Runtime.evaluate', {
          expression,
          objectGroup,
          awaitPromise: true,
          userGesture: true,
          replMode: false,
        }),
      ),
    );
    if (res.exceptionDetails) throw scriptError(res.exceptionDetails, false, 'script');
    const envelope = res.result.objectId;
    if (!envelope)
      throw new BrowserError(
        'script_error',
        'The script wrapper returned no result (the page may have replaced Promise).',
      );
    const raw = (await sendRacingDialog(page, part(page, envelope, 'meta', objectGroup, true)))
      .value as ScriptMeta;
    const result = raw.ok
      ? await sendRacingDialog(
          page,
          part(page, envelope, 'result', objectGroup, false).then((r) =>
            remoteToJson(page, r, MAX_VALUE_CHARS),
          ),
        )
      : { value: null, truncated: false };
    if (raw.stateJson !== null && raw.stateJson.length <= MAX_STATE_CHARS) {
      const parsed = JSON.parse(raw.stateJson) as unknown;
      session.executeState =
        parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : {};
    }
    const stateProblem =
      raw.stateError ??
      (raw.stateJson && raw.stateJson.length > MAX_STATE_CHARS ? 'state is over 1,000,000 characters' : null);
    const out: ExecuteResult = {
      ok: raw.ok,
      result: result.value,
      result_truncated: result.truncated,
      logs: raw.logs,
      logs_dropped: raw.dropped,
      state: session.executeState,
      duration_ms: Date.now() - t0,
    };
    if (raw.timedOut) {
      throw new BrowserError('timeout', `The script did not finish within ${input.timeoutMs} ms.`, {
        details: { logs: raw.logs, state: session.executeState },
      });
    }
    if (!raw.ok) {
      const stack = raw.error ?? 'Error';
      throw new BrowserError('script_error', `The script threw: ${stack.split('\n')[0]}${codeLine(stack)}`, {
        details: { logs: raw.logs, state: session.executeState },
      });
    }
    if (stateProblem) out.error = `state was not saved: ${stateProblem}`;
    return out;
  } catch (e) {
    if (isContextGone(e) || (page.documentGeneration !== generation && !(e instanceof BrowserError)))
      return navigated();
    throw e;
  } finally {
    deadline.clear();
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}

interface ScriptMeta {
  ok: boolean;
  logs: string[];
  dropped: number;
  stateJson: string | null;
  stateError: string | null;
  error?: string;
  timedOut?: boolean;
}

/** One property of the script's envelope: `meta` by value, `result` as a remote object. */
async function part(
  page: BrowPage,
  envelopeId: string,
  key: 'meta' | 'result',
  objectGroup: string,
  byValue: boolean,
) {
  const r = await page.cdp.send('Runtime.callFunctionOn', {
    functionDeclaration: `function () { return this.${key}; }`,
    objectId: envelopeId,
    objectGroup,
    returnByValue: byValue,
  });
  return r.result;
}
