/** What brow records about a page: console entries, requests, dialogs, downloads. */

export type ConsoleLevel = 'log' | 'info' | 'warning' | 'error' | 'debug' | 'exception';

export interface ConsoleEntry {
  seq: number;
  page_id: string;
  timestamp: number;
  level: ConsoleLevel;
  text: string;
  /** `url:line` where the page said it, when known. */
  source?: string;
}

export interface NetworkEntry {
  seq: number;
  page_id: string;
  timestamp: number;
  method: string;
  url: string;
  resource_type: string;
  status?: number;
  mime_type?: string;
  failed: boolean;
  error?: string;
  duration_ms?: number;
  /** Still waiting for a response. */
  pending: boolean;
  /** Refused by brow's network policy: `route "<pattern>"`, `blocked_origins` or `allowed_origins`. */
  blocked_by?: string;
  /** Answered by a brow route (`route "<pattern>"`) instead of the server. */
  fulfilled_by?: string;
}

export interface DialogRecord {
  page_id: string;
  type: string;
  message: string;
  default_value?: string;
  /** What happened to it: accepted / dismissed by policy, or waiting for browser_handle_dialog. */
  handled: 'accepted' | 'dismissed' | 'pending';
  timestamp: number;
}

export interface DownloadRecord {
  page_id: string;
  url: string;
  suggested_filename: string;
  path: string;
  state: 'in_progress' | 'completed' | 'canceled';
  /** Why brow cancelled it (resource_limit: larger than max_download_bytes). */
  error_code?: 'resource_limit';
  error?: string;
  size?: number;
  mime_type?: string;
  sha256?: string;
  timestamp: number;
}
