/**
 * Console links across the cluster. A worker serves no web console: the person opens the console
 * of the gateway the agent called, which the worker cannot know (several gateways, each its own).
 * So a worker names a placeholder console (`brow-console://gateway/?page=…`) wherever a handoff,
 * a pick or the doctor names the console, and each gateway fills in its own address, in the answer
 * and in the progress lines, before its door sees them. A gateway serving no console turns the
 * sentences back into the ones a brow without a console says.
 */

/** The console base URL a worker records for its core. */
export const GATEWAY_CONSOLE = 'brow-console://gateway/';

const MARK = String.raw`brow-console://gateway/(?:\?[\w%=&.~+-]*)?`;
const mark = new RegExp(MARK, 'g');
const whole = new RegExp(`^${MARK}$`);

/** With no console at the gateway: the capabilities' own wording for "no console here". */
const WITHOUT: [RegExp, string][] = [
  [
    new RegExp(String.raw`open the brow console at ${MARK} and click Continue there \(or in the page\)`, 'g'),
    'click Continue in the page (brow serves no web console here)',
  ],
  [
    new RegExp(
      String.raw`open the brow console at ${MARK} and click Pick, then the element \(or click it in the page\)`,
      'g',
    ),
    'click it in the page (brow serves no web console here)',
  ],
  [new RegExp(String.raw`\n?Web console \(the person's view of this page\): ${MARK}`, 'g'), ''],
  [new RegExp(String.raw`Web console: ${MARK}`, 'g'), 'Web console: not served by this gateway'],
];

/** The placeholder's query (the page) on the gateway's console URL (which may carry its token). */
function onBase(link: string, base: string): string {
  const u = new URL(base);
  new URL(link).searchParams.forEach((v, k) => u.searchParams.set(k, v));
  return u.toString();
}

/** A text with the worker's placeholder links made the gateway's (or its "no console" wording). */
export function fillLinks(text: string, base: string | null): string {
  if (!text.includes(GATEWAY_CONSOLE)) return text;
  if (base) return text.replace(mark, (link) => onBase(link, base));
  let out = text;
  for (const [re, to] of WITHOUT) out = out.replace(re, to);
  return out.replace(mark, '(no web console)');
}

/** An answer with its links filled in: strings that are a link become the URL (or null), texts are rewritten. */
export function fillAnswer<T>(value: T, base: string | null): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!v.includes(GATEWAY_CONSOLE)) return v;
      if (whole.test(v)) return base ? onBase(v, base) : null;
      return fillLinks(v, base);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = walk(x);
      return o;
    }
    return v;
  };
  return walk(value) as T;
}
