/** Fill a whole form in one call, with one effect for all of it. */
import { z } from 'zod';
import { actionOut, onPage, pageIdField, sessionIdField } from './common.js';
import { ACTS, defineCapability } from './define.js';

export const fillFormCap = defineCapability({
  name: 'browser_fill_form',
  title: 'Fill a form',
  description:
    'Fill several fields by ref in one call: text (string), select (label or value; array if multiple), checkbox/radio (boolean). One effect.',
  group: 'actions',
  tier: 'core',
  replay: { log: true },
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  gates: ACTS,
  output: actionOut,
  input: z.object({
    page_id: pageIdField,
    session_id: sessionIdField,
    fields: z
      .array(
        z
          .object({
            ref: z.string().min(1).describe('Ref'),
            value: z
              .union([z.string(), z.boolean(), z.array(z.string())])
              .describe('Text, option(s), or checked'),
          })
          .strict(),
      )
      .min(1)
      .max(100)
      .describe('In order'),
  }),
  handle: (input, ctx) =>
    onPage(ctx, input, async (page) => {
      const { fillForm } = await import('../core/forms/fill-form.js');
      const { renderEffect } = await import('../core/actions/effect.js');
      // "@e12" as the CLI writes refs: nested refs are not rewritten by its parser
      const fields = input.fields.map((f) => ({ ...f, ref: f.ref.replace(/^@/, '') }));
      const e = await fillForm(page, fields);
      return {
        text: renderEffect(e, `(${input.fields.length} fields)`),
        data: { page_id: page.id, action: { ok: e.outcome !== 'failed', page_id: page.id, ...e } },
      };
    }),
});
