/**
 * Typed errors: every failure carries a code, a one-line message and a hint for the model.
 * docs/errors.md says where each code happens (its table is generated from this file).
 * `invalid_config` (seed 001's code) is a bad brow configuration: file, BROW_* variables or flags.
 * Seed 001 also has `ambiguous_ref`, for when its registry re-finds an element by identity and
 * finds several; brow never re-finds (a gone element is `stale_ref`), so it has no such code.
 */

export const ERROR_CODES = [
  'invalid_request',
  'invalid_config',
  'stale_ref',
  'ref_not_found',
  'page_not_found',
  'page_closed',
  'page_expired',
  'session_not_found',
  'session_closed',
  'navigation_failed',
  'url_blocked',
  'not_interactable',
  'action_failed',
  'snapshot_failed',
  'screenshot_failed',
  'timeout',
  'dialog_blocking',
  'handoff_pending',
  'resource_limit',
  'capability_unavailable',
  'read_only',
  'attach_disabled',
  'path_not_allowed',
  'browser_crashed',
  'connection_failed',
  'backend_unavailable',
  'version_mismatch',
  'script_error',
  'script_injection_failed',
  'script_not_found',
  'unexpected_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const DEFAULT_HINTS: Record<ErrorCode, string> = {
  invalid_request: 'Fix the parameters named in the message and call again.',
  invalid_config:
    'Fix the configuration the message names (the config file, a BROW_* variable or a flag), then start brow again.',
  stale_ref: 'Take a fresh browser_list_elements snapshot and use a ref from it.',
  ref_not_found: 'Use a ref exactly as printed in the latest snapshot of this page.',
  page_not_found: 'Call browser_list_pages for live page ids, or browser_open_page for a new one.',
  page_closed: 'The page is closed; open a new one with browser_open_page.',
  page_expired:
    'The page expired with its session (idle_stop_ms or ttl_ms); open a new one with browser_open_page.',
  session_not_found: 'Call browser_list_sessions for live session ids, or start one.',
  session_closed: 'The session has ended; start a new one with browser_start_session or browser_open_page.',
  navigation_failed: 'Check the URL and that the site is reachable; the page is still usable.',
  url_blocked: 'Only the allowed URL schemes can be opened (http and https by default).',
  not_interactable: 'Dismiss or scroll past the covering element, or act on it instead.',
  action_failed: 'Take a fresh snapshot to see the current state, then try another approach.',
  snapshot_failed: 'The page could not be walked; reload it or read it with browser_read_page instead.',
  screenshot_failed: 'Chromium could not capture it; try the viewport, a smaller scale or a ref instead.',
  timeout: 'The condition did not happen in time; read the page to see what it shows now.',
  dialog_blocking: 'Answer the dialog with browser_handle_dialog first.',
  handoff_pending: 'A person has control of this page; wait for the handoff to finish.',
  resource_limit: 'Stop a session or page you no longer need, then try again.',
  capability_unavailable: 'This capability is not available in this setup; use another approach.',
  read_only: 'This session is read-only; start a session without read_only to act on pages.',
  attach_disabled: 'Attaching to a running browser is off; set allow_attach in the configuration.',
  path_not_allowed: 'Use a path inside the workspace root.',
  browser_crashed: 'The browser process died; start a new session.',
  connection_failed: 'Check that the browser endpoint is running and reachable.',
  backend_unavailable:
    'The browser could not be launched; run `brow doctor` to see what is missing, or set BROW_CHROME.',
  version_mismatch: 'The data was written by another version of brow; use that version or write it again.',
  script_error: 'Fix the script error shown in the message and run it again.',
  script_injection_failed: 'Fix the script so it parses, then add it again.',
  script_not_found:
    'Give the identifier browser_add_init_script returned (the script may be removed already).',
  unexpected_error: 'Try again; if it persists, take a fresh snapshot or start a new session.',
};

export interface BrowserErrorOptions {
  hint?: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type brow throws on purpose; doors turn it into their own dialect. */
export class BrowserError extends Error {
  override readonly name = 'BrowserError';
  readonly code: ErrorCode;
  readonly hint: string;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: BrowserErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint ?? DEFAULT_HINTS[code];
    this.details = options.details ?? {};
  }

  toJSON(): { error_code: ErrorCode; message: string; hint: string } & Record<string, unknown> {
    return { error_code: this.code, message: this.message, hint: this.hint, ...this.details };
  }
}

export const isBrowserError = (e: unknown): e is BrowserError => e instanceof BrowserError;

/**
 * Classify anything thrown by puppeteer, CDP or Node into a BrowserError. This is the one
 * place that knows driver error types; message matching is the last resort, each case tested.
 */
export function classifyError(e: unknown): BrowserError {
  if (e instanceof BrowserError) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  const msg = err.message;
  const name = err.name;
  if (name === 'TimeoutError') return new BrowserError('timeout', firstLine(msg), { cause: err });
  // a CDP command the browser did not answer within protocolTimeout (puppeteer's ProtocolError)
  if (/^[\w.]+ timed out\. Increase the 'protocolTimeout'/.test(msg)) {
    return new BrowserError('timeout', `The browser did not answer ${msg.split(' ')[0]} in time.`, {
      cause: err,
      hint: 'The page or browser may be busy: retry, or take a fresh snapshot; a page whose script never yields is stopped by the watchdog.',
    });
  }
  if (name === 'TargetCloseError' || /Target closed|Session closed|has been closed/i.test(msg)) {
    return new BrowserError('page_closed', 'The page was closed while the call ran.', { cause: err });
  }
  if (/Connection closed|WebSocket is not open|Protocol error.*Connection/i.test(msg)) {
    return new BrowserError('browser_crashed', 'The connection to the browser was lost.', { cause: err });
  }
  if (/Execution context was destroyed|Cannot find context with specified id|frame got detached/i.test(msg)) {
    return new BrowserError('stale_ref', 'The document changed while the call ran.', {
      cause: err,
      details: { reason: 'navigated' },
    });
  }
  if (/net::ERR_/.test(msg)) {
    return new BrowserError('navigation_failed', firstLine(msg), { cause: err });
  }
  return new BrowserError('unexpected_error', firstLine(msg) || 'Unexpected error.', { cause: err });
}

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? '').slice(0, 500);
}
