/** browser_handle_dialog: answer the JavaScript dialog a page is waiting on (policy `report`). */
import { BrowserError } from '../errors.js';
import type { DialogRecord } from '../observe/records.js';
import type { BrowPage } from '../session/page.js';

/** Accept (with prompt text) or dismiss the pending dialog; never waits on the page. */
export async function answerDialog(
  page: BrowPage,
  accept: boolean,
  promptText?: string,
): Promise<DialogRecord> {
  const pending = page.pendingDialog;
  if (!pending) {
    throw new BrowserError('invalid_request', `No dialog is open on page ${page.id}.`, {
      hint: 'Dialogs are answered by the session policy unless it is "report"; read the last action\'s effect.dialogs to see what happened.',
    });
  }
  page.pendingDialog = null;
  const { record, dialog } = pending;
  try {
    if (accept)
      await dialog.accept(record.type === 'prompt' ? (promptText ?? record.default_value ?? '') : undefined);
    else await dialog.dismiss();
  } catch {
    // the dialog went away meanwhile (navigation, page closed): nothing is waiting any more
  }
  record.handled = accept ? 'accepted' : 'dismissed';
  page.session.events.emit('dialog', page.session.id, { page_id: page.id, dialog: record });
  return record;
}
