/**
 * What a computed CSS `content` value says in a name, read as Chromium does: strings, attr() and
 * quotes are text; an image (url(), image-set(), a gradient…) says only its alternative text, given
 * after `/`; counters say nothing (Chromium leaves their text out of names). Alternative text, when
 * given, stands for the whole value, so `/ ""` silences strings too. The value is tokenized (quoted
 * strings with escapes, nested parentheses), never matched with regexes: data URLs hold commas,
 * quotes and slashes.
 */
import { elGetAttribute, parseIntNative, strSlice, strToLower, table } from './natives.js';

const fromCodePoint = String.fromCodePoint;

/** Quote characters by language: open, close, then the nested open and close (Chromium 156). */
const QUOTES = table<string>({
  en: '“”‘’',
  de: '„“‚‘',
  cs: '„“‚‘',
  sk: '„“‚‘',
  hr: '„“‚‘',
  sl: '„“‚‘',
  et: '„“‚‘',
  bg: '„“„“',
  lt: '„“„“',
  fr: '«»«»',
  'fr-ca': '«»”“',
  'fr-ch': '«»‹›',
  fa: '«»‹›',
  it: '«»“”',
  el: '«»“”',
  ca: '«»“”',
  'pt-pt': '«»“”',
  ru: '«»„“',
  uk: '«»„“',
  nb: '«»‘’',
  nn: '«»‘’',
  pl: '„”«»',
  ro: '„”«»',
  hu: '„”»«',
  sr: '„”’’',
  sv: '””’’',
  fi: '””’’',
  he: '””’’',
  ar: '”“’‘',
  nl: '‘’‘’',
  ja: '「」『』',
  'zh-hant': '「」『』',
});

/** End of the string readString last read (one past its closing quote). */
let stringEnd = 0;

function isHex(ch: string): boolean {
  return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f';
}

/** The quoted CSS string starting at v[i], escapes decoded; its end is left in stringEnd. */
function readString(v: string, i: number): string {
  const q = v[i]!;
  let out = '';
  for (i++; i < v.length; i++) {
    const ch = v[i]!;
    if (ch === q) {
      stringEnd = i + 1;
      return out;
    }
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    i++;
    if (i >= v.length) break;
    const next = v[i]!;
    if (next === '\n' || next === '\r' || next === '\f') continue; // an escaped line break is nothing
    if (!isHex(next)) {
      out += next;
      continue;
    }
    let j = i;
    while (j < v.length && j - i < 6 && isHex(v[j]!)) j++;
    const code = parseIntNative(strSlice(v, i, j), 16);
    out +=
      code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ? '\ufffd' : fromCodePoint(code);
    // one whitespace after a hex escape belongs to it
    i = j < v.length && isSpace(v[j]!) ? j : j - 1;
  }
  stringEnd = v.length;
  return out;
}

/** Index just past the parenthesis that closes the one at v[i] (strings inside skipped). */
function closeParen(v: string, i: number): number {
  let depth = 0;
  while (i < v.length) {
    const ch = v[i]!;
    if (ch === '"' || ch === "'") {
      readString(v, i);
      i = stringEnd;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
    i++;
  }
  return v.length;
}

function isNameChar(ch: string): boolean {
  return (
    (ch >= 'a' && ch <= 'z') ||
    (ch >= 'A' && ch <= 'Z') ||
    (ch >= '0' && ch <= '9') ||
    ch === '-' ||
    ch === '_' ||
    ch > '\u007f'
  );
}

/** What one content value says. */
export interface ContentRead {
  /** Text of the part before `/` (an image between strings parts them with a space). */
  text: string;
  /** Alternative text after `/`, or null without a slash. */
  alt: string | null;
  /** Items before `/`, and how many of them are images. */
  items: number;
  images: number;
}

/** Quote nesting within one element's ::before and ::after (reset per element by the caller). */
let quoteDepth = 0;

export function resetQuotes(): void {
  quoteDepth = 0;
}

/** The quote pairs of a pseudo-element: its quotes property, else its language's. */
function quotePairs(cs: CSSStyleDeclaration): string[] {
  const q = cs.quotes;
  if (q === 'none') return [];
  if (q && q !== 'auto') {
    const out: string[] = [];
    for (let i = 0; i < q.length;) {
      const ch = q[i]!;
      if (ch === '"' || ch === "'") {
        out[out.length] = readString(q, i);
        i = stringEnd;
      } else i++;
    }
    return out;
  }
  let lang = (cs as CSSStyleDeclaration & { webkitLocale?: string }).webkitLocale ?? '';
  if (lang[0] === '"') lang = readString(lang, 0);
  lang = strToLower(lang);
  let pairs = QUOTES[lang];
  if (pairs === undefined) {
    let dash = 0;
    while (dash < lang.length && lang[dash] !== '-') dash++;
    pairs = QUOTES[strSlice(lang, 0, dash)] ?? QUOTES.en!;
  }
  return [pairs[0]!, pairs[1]!, pairs[2]!, pairs[3]!];
}

/** The quote an open-quote (open) or close-quote gives at the current depth. */
function quote(cs: CSSStyleDeclaration, open: boolean): string {
  if (!open && quoteDepth > 0) quoteDepth--;
  const level = quoteDepth;
  if (open) quoteDepth++;
  const pairs = quotePairs(cs);
  if (pairs.length < 2) return '';
  let at = level * 2;
  if (at + 1 >= pairs.length) at = ((pairs.length >> 1) - 1) * 2;
  return pairs[open ? at : at + 1] ?? '';
}

/**
 * Read a computed content value of `el` (or of its pseudo-element, whose style `cs` is, for
 * quotes; null on an element itself, where quotes do not apply).
 */
export function readContent(v: string, el: Element, cs: CSSStyleDeclaration | null): ContentRead {
  let text = '';
  let alt: string | null = null;
  let items = 0;
  let images = 0;
  let gap = false;
  let i = 0;
  while (i < v.length) {
    const ch = v[i]!;
    let piece = '';
    if (ch === '"' || ch === "'") {
      piece = readString(v, i);
      i = stringEnd;
    } else if (ch === '/') {
      alt = '';
      i++;
      continue;
    } else if (isNameChar(ch)) {
      let j = i;
      while (j < v.length && isNameChar(v[j]!)) j++;
      const name = strToLower(strSlice(v, i, j));
      if (v[j] === '(') {
        const end = closeParen(v, j);
        if (name === 'attr') {
          // Chromium resolves attr() in the computed value; read the attribute if it did not
          let k = j + 1;
          while (k < end && isSpace(v[k]!)) k++;
          let e = k;
          while (e < end && isNameChar(v[e]!)) e++;
          piece = elGetAttribute(el, strSlice(v, k, e)) ?? '';
        } else if (name !== 'counter' && name !== 'counters') {
          // url(), image-set(), gradients, cross-fade()…: an image, a gap between strings
          if (alt === null) images++;
          gap = true;
        }
        i = end;
      } else {
        if (cs && (name === 'open-quote' || name === 'close-quote')) piece = quote(cs, name === 'open-quote');
        else if (name === 'no-open-quote') quoteDepth++;
        else if (name === 'no-close-quote' && quoteDepth > 0) quoteDepth--;
        i = j;
      }
    } else {
      i++;
      continue;
    }
    if (alt === null) {
      items++;
      if (gap && piece && text) text += ' ';
      if (piece) gap = false;
      text += piece;
    } else alt += piece;
  }
  return { text, alt, items, images };
}

/** The text generated content adds to a name: its alternative text when given, else its text. */
export function generatedText(v: string, el: Element, cs: CSSStyleDeclaration): string {
  const r = readContent(v, el, cs);
  return r.alt ?? r.text;
}

/**
 * For `content` on an element itself: null when it does not replace the element (only a single
 * image does, as in Chromium), else the image's alternative text ('' without one).
 */
export function replacedText(v: string, el: Element): string | null {
  if (!v || v === 'normal' || v === 'none') return null;
  const r = readContent(v, el, null);
  return r.items === 1 && r.images === 1 ? (r.alt ?? '') : null;
}
