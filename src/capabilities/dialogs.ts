/** JavaScript dialogs (alert, confirm, prompt) left open by the session policy "report". */
import { z } from 'zod';
import { pageIdField, pageIdOut, pageRecord, sessionIdField } from './common.js';
import { defineCapability } from './define.js';

export const handleDialogCap = defineCapability({
  name: 'browser_handle_dialog',
  title: 'Answer a dialog',
  description:
    'Accept or dismiss the alert/confirm/prompt a page waits on (dialog_policy "report"); prompt_text answers a prompt.',
  group: 'dialogs',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  output: z
    .looseObject({
      page_id: pageIdOut,
      dialog: z.looseObject({}).describe('The dialog: type, message, handled'),
    })
    .describe('Answered'),
  positional: ['accept'],
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    accept: z.boolean().describe('true: OK; false: Cancel'),
    prompt_text: z.string().optional().describe('Answer to a prompt()'),
  }),
  async handle(input, ctx) {
    // no page lock: whatever holds it may be the call that opened the dialog
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    const { answerDialog } = await import('../core/scripts/dialogs.js');
    const record = await answerDialog(page, input.accept, input.prompt_text);
    const answer =
      record.type === 'prompt' && input.accept
        ? ` with "${input.prompt_text ?? record.default_value ?? ''}"`
        : '';
    return {
      text: `${input.accept ? 'Accepted' : 'Dismissed'} the ${record.type} "${record.message}"${answer}.`,
      data: {
        page_id: page.id,
        dialog: record,
        ...(record.type === 'prompt' && input.accept
          ? { prompt_text: input.prompt_text ?? record.default_value ?? '' }
          : {}),
        page: pageRecord(page),
      },
    };
  },
});
