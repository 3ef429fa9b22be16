/** browser_read_styles / browser_write_styles: computed styles of one element, and inline style edits. */
import { locate } from '../actions/locate.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { BrowPageApi } from '../snapshot/injected/types.js';
import { withApi } from '../snapshot/page-script.js';
import { sendRacingDialog } from '../scripts/evaluate.js';
import { DEFAULT_PROPERTIES } from './style-properties.js';

const PROPERTY = /^(--[\w-]+|-?[a-z][a-z0-9-]*)$/i;

type StyleRead = { gone: true } | { properties: { name: string; value: string }[]; inline_style: string };

/** Computed values of `names` (or all with "*") and the element's inline style. */
export async function readStyles(page: BrowPage, ref: string, properties: string[] | undefined) {
  const names = properties && properties.length > 0 ? properties : DEFAULT_PROPERTIES;
  const bad = names.filter((n) => n !== '*' && !PROPERTY.test(n));
  if (bad.length > 0) {
    throw new BrowserError('invalid_request', `Not CSS property names: ${bad.join(', ')}.`, {
      hint: 'Use property names such as "color" or "margin-top", or ["*"] for every computed property.',
    });
  }
  const loc = await sendRacingDialog(page, locate(page, ref));
  const res = await sendRacingDialog(
    page,
    withApi(
      loc.frame,
      (api: BrowPageApi, id: number, wanted: string[]): StyleRead => {
        const el = api.element(id) as HTMLElement | null;
        if (!el) return { gone: true };
        const cs = getComputedStyle(el);
        const list = wanted.includes('*') ? Array.from(cs) : wanted;
        return {
          properties: list.map((name) => ({ name, value: cs.getPropertyValue(name) })),
          inline_style: el.getAttribute('style') ?? '',
        };
      },
      loc.entry.localId,
      names,
    ),
  );
  if ('gone' in res)
    throw new BrowserError('stale_ref', `${ref} is no longer in the page.`, {
      details: { ref, reason: 'detached' },
    });
  return { ref, ...res };
}

type StyleWrite = { gone: true } | { rejected: true } | { inline_style: string; value: string };

/** Set (or with value "" remove) one inline style property; gone with the next navigation. */
export async function writeStyle(
  page: BrowPage,
  input: { ref: string; property: string; value: string; important: boolean },
): Promise<{ ok: true; ref: string; property: string; value: string; inline_style: string }> {
  if (!PROPERTY.test(input.property)) {
    throw new BrowserError('invalid_request', `"${input.property}" is not a CSS property name.`, {
      hint: 'Use a property name such as "background-color" or "--my-var".',
    });
  }
  const loc = await sendRacingDialog(page, locate(page, input.ref));
  const res = await sendRacingDialog(
    page,
    withApi(
      loc.frame,
      (api: BrowPageApi, id: number, prop: string, value: string, important: boolean): StyleWrite => {
        const el = api.element(id) as HTMLElement | null;
        if (!el) return { gone: true };
        if (value === '') el.style.removeProperty(prop);
        else {
          const prev = el.style.getPropertyValue(prop);
          const prevPriority = el.style.getPropertyPriority(prop);
          el.style.removeProperty(prop);
          el.style.setProperty(prop, value, important ? 'important' : '');
          // an invalid value is ignored by the browser: say so (and leave the old value) instead of pretending
          if (el.style.getPropertyValue(prop) === '') {
            if (prev) el.style.setProperty(prop, prev, prevPriority);
            return { rejected: true };
          }
        }
        return {
          inline_style: el.getAttribute('style') ?? '',
          value: getComputedStyle(el).getPropertyValue(prop),
        };
      },
      loc.entry.localId,
      input.property,
      input.value,
      input.important,
    ),
  );
  if ('gone' in res) {
    throw new BrowserError('stale_ref', `${input.ref} is no longer in the page.`, {
      details: { ref: input.ref, reason: 'detached' },
    });
  }
  if ('rejected' in res) {
    throw new BrowserError('invalid_request', `Chromium does not accept ${input.property}: ${input.value}.`, {
      hint: 'Check the value (units, spelling); the inline style is unchanged.',
    });
  }
  return {
    ok: true,
    ref: input.ref,
    property: input.property,
    value: res.value,
    inline_style: res.inline_style,
  };
}
