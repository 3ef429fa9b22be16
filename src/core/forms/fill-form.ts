/**
 * Fill a whole form in one call: text fields, selects, checkboxes and radios by ref. Every field is
 * checked first (its ref alive, its value the right kind for its control), then each goes through
 * the same action as browser_fill / browser_select / browser_check, inside one effect: the answer
 * is one outcome and one diff for the whole form.
 */
import * as act from '../actions/actions.js';
import { performAction, type Effect, type TargetState } from '../actions/effect.js';
import { locate } from '../actions/locate.js';
import { readState } from '../actions/prepare.js';
import { recordPageTimers } from '../actions/settle.js';
import { BrowserError, classifyError } from '../errors.js';
import type { BrowPage } from '../session/page.js';

export type FieldValue = string | boolean | string[];

export interface FormField {
  ref: string;
  value: FieldValue;
}

type Kind = 'fill' | 'select' | 'check';

interface Planned extends FormField {
  index: number;
  kind: Kind;
  role: string;
  name: string;
}

const kindOfValue = (v: FieldValue) =>
  typeof v === 'boolean' ? 'boolean' : Array.isArray(v) ? 'list' : 'text';

/** The same error, its message and details naming the field it is about. */
function forField(e: unknown, index: number, ref: string): BrowserError {
  const err = classifyError(e);
  return new BrowserError(err.code, `fields[${index}] (${ref}): ${err.message}`, {
    hint: err.hint,
    details: { ...err.details, field: index, ref },
    cause: err,
  });
}

/** Check every field before touching any: alive, a form control, and a value of the kind it takes. */
async function plan(page: BrowPage, fields: FormField[]): Promise<Planned[]> {
  const out: Planned[] = [];
  for (const [index, f] of fields.entries()) {
    let d: Awaited<ReturnType<typeof readState>>;
    try {
      d = await readState(page, await locate(page, f.ref));
    } catch (e) {
      throw forField(e, index, f.ref);
    }
    if (!d) {
      throw forField(
        new BrowserError('stale_ref', `${f.ref} is no longer in the page.`, {
          details: { reason: 'detached' },
        }),
        index,
        f.ref,
      );
    }
    const kind: Kind | null = d.actions.includes('select')
      ? 'select'
      : d.actions.includes('check')
        ? 'check'
        : d.actions.includes('fill')
          ? 'fill'
          : null;
    const what = `[${d.role}] ${d.name}`.trim();
    if (!kind) {
      // a disabled control takes no input: its own action says so with the usual code
      if (d.states.includes('disabled')) {
        out.push({
          ...f,
          index,
          kind: typeof f.value === 'boolean' ? 'check' : 'fill',
          role: d.role,
          name: d.name,
        });
        continue;
      }
      throw new BrowserError('invalid_request', `fields[${index}] (${f.ref}) ${what} is not a form field.`, {
        hint: 'Give refs of text fields, selects, checkboxes or radios; click buttons with browser_click.',
        details: { field: index, ref: f.ref, role: d.role },
      });
    }
    const got = kindOfValue(f.value);
    const wants = kind === 'check' ? ['boolean'] : kind === 'select' ? ['text', 'list'] : ['text'];
    if (!wants.includes(got)) {
      const take =
        kind === 'check'
          ? 'true or false'
          : kind === 'select'
            ? 'an option value or label (an array for a multi-select)'
            : 'a string';
      throw new BrowserError(
        'invalid_request',
        `fields[${index}] (${f.ref}) ${what} takes ${take}, not ${got === 'list' ? 'an array' : `a ${got}`}.`,
        { hint: `Pass ${take} as its value.`, details: { field: index, ref: f.ref, role: d.role } },
      );
    }
    out.push({ ...f, index, kind, role: d.role, name: d.name });
  }
  return out;
}

/** A field's final state in a few words; a password's value is never shown. */
function fieldWords(p: Planned, t: TargetState | null): string {
  const name = p.name || p.ref;
  if (!t) return `${name} set`;
  if (t.checked !== undefined) return `${name}: ${t.checked === true ? 'checked' : 'unchecked'}`;
  if (t.is_sensitive) return `${name}: (hidden)`;
  const v = t.value ?? '';
  return `${name}: "${v.length > 40 ? `${v.slice(0, 39)}…` : v}"`;
}

function runField(page: BrowPage, p: Planned): Promise<Effect> {
  if (p.kind === 'check') return act.check(page, p.ref, p.value as boolean);
  if (p.kind === 'select') return act.select(page, p.ref, p.value as string | string[]);
  return act.fill(page, p.ref, p.value as string);
}

/** Fill every field in order and report one effect for the whole form. */
export async function fillForm(page: BrowPage, fields: FormField[]): Promise<Effect> {
  if (fields.length === 0) {
    throw new BrowserError('invalid_request', 'fields is empty.', {
      hint: 'Pass fields: [{ref, value}], one per control.',
    });
  }
  const planned = await plan(page, fields);
  return performAction(page, {
    action: 'fill_form',
    async run() {
      const done: string[] = [];
      for (const p of planned) {
        let e: Effect;
        try {
          e = await runField(page, p);
        } catch (err) {
          const filled = done.length ? ` Fields before it were filled (${done.join('; ')}).` : '';
          const named = forField(err, p.index, p.ref);
          throw new BrowserError(named.code, `${named.message}${filled}`, {
            hint: named.hint,
            details: named.details,
            cause: err,
          });
        }
        done.push(fieldWords(p, e.target));
        if (e.navigation || page.pendingDialog || page.closed) {
          const why = page.pendingDialog
            ? 'a dialog opened'
            : page.closed
              ? 'the page closed'
              : 'the page navigated';
          const left = planned.length - done.length;
          return {
            message: `Filled ${done.length} of ${planned.length} field(s): ${done.join('; ')}. Stopped: ${why}${left ? `; ${left} field(s) not filled` : ''}.`,
          };
        }
      }
      // each field's action stopped noting the page's timers when it ended: note them again for the form's settle
      await recordPageTimers(page, true);
      return { message: `Filled ${done.length} field(s): ${done.join('; ')}.` };
    },
  });
}
