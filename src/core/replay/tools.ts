/**
 * The calls a session's action log keeps (browser_export_script turns them into a replay script).
 * Kept light (no imports): invoke reads it on every call to decide whether to log.
 */
export const LOGGED_TOOLS: ReadonlySet<string> = new Set([
  'browser_open_page',
  'browser_navigate',
  'browser_history',
  'browser_activate_page',
  'browser_close_page',
  'browser_click',
  'browser_hover',
  'browser_fill',
  'browser_type',
  'browser_press',
  'browser_scroll',
  'browser_select',
  'browser_check',
  'browser_drag',
  'browser_upload_file',
  'browser_fill_form',
  'browser_click_at',
  'browser_hover_at',
  'browser_wait',
  'browser_handle_dialog',
]);

/** Tools whose text input is typed into their target: a secret field's value is never logged. */
export const TEXT_INPUT: Readonly<Record<string, string>> = { browser_fill: 'value', browser_type: 'text' };
