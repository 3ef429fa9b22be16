/** One table from error codes to each door's dialect: HTTP status, CLI exit code, bus error code. */
import type { ErrorCode } from '../core/errors.js';

export interface DoorCodes {
  /** HTTP status for the REST dialect (the tool API itself answers 200 with ok:false). */
  http: number;
  /** CLI process exit code. */
  exit: number;
}

export const ERROR_TABLE: Record<ErrorCode, DoorCodes> = {
  invalid_request: { http: 400, exit: 2 },
  invalid_config: { http: 400, exit: 2 },
  stale_ref: { http: 409, exit: 3 },
  ref_not_found: { http: 404, exit: 3 },
  page_not_found: { http: 404, exit: 4 },
  page_closed: { http: 410, exit: 4 },
  page_expired: { http: 410, exit: 4 },
  session_not_found: { http: 404, exit: 4 },
  session_closed: { http: 410, exit: 4 },
  navigation_failed: { http: 502, exit: 5 },
  url_blocked: { http: 403, exit: 6 },
  not_interactable: { http: 409, exit: 3 },
  action_failed: { http: 500, exit: 1 },
  snapshot_failed: { http: 500, exit: 1 },
  screenshot_failed: { http: 500, exit: 1 },
  timeout: { http: 504, exit: 7 },
  dialog_blocking: { http: 409, exit: 8 },
  handoff_pending: { http: 409, exit: 8 },
  resource_limit: { http: 429, exit: 9 },
  capability_unavailable: { http: 501, exit: 10 },
  read_only: { http: 403, exit: 6 },
  attach_disabled: { http: 403, exit: 6 },
  path_not_allowed: { http: 403, exit: 6 },
  browser_crashed: { http: 503, exit: 11 },
  connection_failed: { http: 503, exit: 11 },
  backend_unavailable: { http: 503, exit: 11 },
  version_mismatch: { http: 409, exit: 2 },
  script_error: { http: 422, exit: 1 },
  script_injection_failed: { http: 422, exit: 1 },
  script_not_found: { http: 404, exit: 3 },
  unexpected_error: { http: 500, exit: 1 },
};
