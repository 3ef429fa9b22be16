/** Messages between the host (the tab supervisor) and a tab's worker thread. Plain, cloneable data only. */
import { BrowserError, classifyError, ERROR_CODES, type ErrorCode } from '../errors.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle0' | 'networkidle2';
export type DialogPolicy = 'accept' | 'dismiss';

export interface Viewport {
  width: number;
  height: number;
  deviceScaleFactor?: number;
}

/** Host-side settings a worker needs: where files go, what URLs it may open. */
export interface WorkerSettings {
  workspaceRoot: string;
  /** Full-resolution screenshots land here (timestamped) when set. */
  screenshotDir: string;
  allowedSchemes: string[];
  /** The in-page walker (dist/injected/page-script.js). */
  pageScript: string;
}

export type InitPayload = WorkerSettings & {
  /** The tab's name (tab.name). */
  name: string;
  browserWSEndpoint: string;
  /** The page target to drive: created blank by the host (headless) or picked in the app (attach). */
  targetId: string;
  dialogs?: DialogPolicy;
  url?: string;
  waitUntil: WaitUntil;
  timeoutMs: number;
} & ({ mode: 'headless'; viewport?: Viewport; stealth: boolean } | { mode: 'attach'; viewport?: Viewport });

export interface TabInfo {
  url: string;
  title: string;
  viewport: Viewport | null;
  targetId: string;
}

export type DisplayItem = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface ScreenshotRecord {
  dest: string;
  mimeType: string;
  bytes: number;
  width: number;
  height: number;
}

export interface RunPayload {
  displays: DisplayItem[];
  /** Structured-clone-safe copy of the returned value (undefined when nothing was returned). */
  returnValue: unknown;
  screenshots: ScreenshotRecord[];
  info: TabInfo;
}

export interface SerializedError {
  name: string;
  message: string;
  code: ErrorCode;
  hint?: string;
  stack?: string;
  details?: Record<string, unknown>;
}

export type HostMessage =
  | { type: 'init'; payload: InitPayload }
  | { type: 'run'; id: number; code: string; timeoutMs: number }
  | { type: 'abort'; id: number }
  | { type: 'close' };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type WorkerMessage =
  /** The worker's modules are loaded: it can take an init (sent once, first). */
  | { type: 'booted' }
  | { type: 'ready'; info: TabInfo }
  | { type: 'init-failed'; error: SerializedError }
  | { type: 'log'; level: LogLevel; msg: string }
  | { type: 'closed' }
  | { type: 'result'; id: number; ok: true; payload: RunPayload }
  | { type: 'result'; id: number; ok: false; error: SerializedError };

const DRIVER_ERRORS = new Set(['TargetCloseError', 'ProtocolError', 'ConnectionClosedError']);

const isCode = (c: unknown): c is ErrorCode =>
  typeof c === 'string' && (ERROR_CODES as readonly string[]).includes(c);

/**
 * Serialise any error for the host. A BrowserError keeps its code; an error thrown by the
 * caller's code (or a page) becomes script_error; puppeteer's TimeoutError becomes timeout.
 * Checks by shape, not instanceof: errors from the VM context come from another realm.
 */
export function serializeError(e: unknown, fallback: ErrorCode = 'script_error'): SerializedError {
  const o = (typeof e === 'object' && e !== null ? e : { message: String(e) }) as Record<string, unknown>;
  const name = typeof o.name === 'string' ? o.name : 'Error';
  const message = typeof o.message === 'string' ? o.message : String(e);
  let code: ErrorCode = fallback;
  if (name === 'BrowserError' && isCode(o.code)) code = o.code;
  else if (name === 'TimeoutError') code = 'timeout';
  // puppeteer's own failures (a closed target, a lost connection) keep their meaning
  else if (DRIVER_ERRORS.has(name)) code = classifyError(e).code;
  const out: SerializedError = { name, message, code };
  if (typeof o.hint === 'string' && name === 'BrowserError') out.hint = o.hint;
  if (typeof o.stack === 'string') out.stack = o.stack;
  if (name === 'BrowserError' && o.details && typeof o.details === 'object') {
    out.details = JSON.parse(JSON.stringify(o.details)) as Record<string, unknown>;
  }
  return out;
}

/** Rebuild a BrowserError on the host side. */
export function deserializeError(e: SerializedError): BrowserError {
  const opts: { hint?: string; details?: Record<string, unknown> } = {};
  if (e.hint) opts.hint = e.hint;
  if (e.details) opts.details = e.details;
  const foreign = e.code === 'script_error' && e.name !== 'Error' && e.name !== 'BrowserError';
  if (!e.details && foreign) opts.details = { error_name: e.name };
  let message = foreign ? `${e.name}: ${e.message}` : e.message;
  // Where in the caller's code it happened (line 1 = the first line of `code`).
  const at = e.code === 'script_error' ? /browser-run-\d+\.js:(\d+):(\d+)/.exec(e.stack ?? '') : null;
  if (at) message += ` (code line ${at[1]}, column ${at[2]})`;
  return new BrowserError(e.code, message, opts);
}
