/**
 * Run a caller's code for `action: "run"`: an async function body in a `vm` context with
 * `page`, `browser`, `tab`, `display`, `assert`, `wait`, `console`, timers, `URL`,
 * `URLSearchParams`, `TextEncoder`, `TextDecoder` and `Buffer`.
 *
 * NOT a security boundary. The context holds live puppeteer objects whose prototypes lead back
 * to this worker's Function constructor (and so to `process`); code can do whatever Node can.
 * The VM only gives the code clean globals; the worker thread only makes it killable.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import vm from 'node:vm';
import type { Browser } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import type { DisplayItem, LogLevel } from './protocol.js';
import type { TabApi } from './tab-api.js';

export interface RunContext {
  id: number;
  code: string;
  page: TabApi['page'];
  browser: Browser;
  tab: TabApi;
  signal: AbortSignal;
  displays: DisplayItem[];
  log(level: LogLevel, msg: string): void;
}

/** display(value): images as images, strings as text, the rest as pretty JSON (else String). */
export function toDisplay(value: unknown): DisplayItem {
  const v = value as { type?: unknown; data?: unknown; mimeType?: unknown } | null;
  if (
    v &&
    typeof v === 'object' &&
    v.type === 'image' &&
    typeof v.data === 'string' &&
    typeof v.mimeType === 'string'
  ) {
    return { type: 'image', data: v.data, mimeType: v.mimeType };
  }
  if (typeof value === 'string') return { type: 'text', text: value };
  return { type: 'text', text: stringify(value) };
}

/** JSON (indented) when it serialises, else String(value). */
export function stringify(value: unknown): string {
  try {
    const s = JSON.stringify(value, null, 2);
    if (s !== undefined) return s;
  } catch {
    // circular or BigInt
  }
  return String(value);
}

const isPuppeteerObject = (v: object) =>
  typeof (v as { evaluate?: unknown }).evaluate === 'function' ||
  typeof (v as { asElement?: unknown }).asElement === 'function';

/** A copy of the returned value that can cross to the host: JSON, else structuredClone, else String. */
export function cloneSafe(value: unknown): unknown {
  if (value === undefined || value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint'
      ? String(value)
      : value;
  }
  if (isPuppeteerObject(value)) return String(value);
  try {
    const s = JSON.stringify(value);
    if (s !== undefined) return JSON.parse(s) as unknown;
  } catch {
    // fall through
  }
  try {
    return structuredClone(value);
  } catch {
    return String(value);
  }
}

function format(args: unknown[]): string {
  return args.map((a) => (typeof a === 'string' ? a : stringify(a))).join(' ');
}

/** Evaluate the code; resolves with its return value or rejects with its error (or the abort reason). */
export async function runCode(ctx: RunContext): Promise<unknown> {
  const { signal } = ctx;
  const consoleProxy = Object.fromEntries(
    (['log', 'info', 'debug', 'warn', 'error'] as const).map((m) => [
      m,
      (...args: unknown[]) => ctx.log(m === 'log' ? 'info' : m, format(args)),
    ]),
  );
  const globals = {
    page: ctx.page,
    browser: ctx.browser,
    tab: ctx.tab,
    display: (value: unknown) => void ctx.displays.push(toDisplay(value)),
    assert: (cond: unknown, message?: string) => {
      if (!cond) throw new Error(message ?? 'Assertion failed');
    },
    wait: (ms: number) => sleep(Math.max(0, Number(ms) || 0), undefined, { signal }),
    console: consoleProxy,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    setImmediate,
    clearImmediate,
    queueMicrotask,
    structuredClone,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    Buffer,
    AbortController,
    AbortSignal,
    atob,
    btoa,
  };
  const context = vm.createContext(globals, { name: `browser-run-${ctx.id}` });
  const source = `(async () => {\n${ctx.code}\n})()`;
  let script: vm.Script;
  try {
    script = new vm.Script(source, { filename: `browser-run-${ctx.id}.js`, lineOffset: -1 });
  } catch (e) {
    throw new BrowserError('script_error', `The code does not parse: ${(e as Error).message}`, {
      hint: 'code is the body of an async function: statements, `await`, and `return` for the result.',
    });
  }
  const result = script.runInContext(context) as Promise<unknown>;
  return new Promise<unknown>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    result.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
