/**
 * CSS generated content in names: which elements of a document or shadow root its style sheets may
 * give ::before/::after (or element) `content`, read once per root and cached until the DOM or the
 * sheet list changes, and the text that content adds around an element's own (css-content.ts says
 * what a value reads as). Chromium puts this text in names from content.
 */
import { SafeWeakMap } from './collections.js';
import { generatedText, replacedText, resetQuotes } from './css-content.js';
import { mutationSeq } from './mutations.js';
import { computedStyle, elMatches, nodeGetRootNode, strIndexOf, strSlice } from './natives.js';
import { collapse, hasText, joinNonEmpty } from './text.js';
/** The rules with content of a document or shadow root: on ::before/::after, or on elements. */
export interface PseudoRules {
  seq: number;
  sheets: number;
  /**
   * A selector list matching the elements those rules may give generated content (the rules'
   * selectors without the pseudo-element); null when unknown: then every element is checked; ''
   * for none.
   */
  subjects: string | null;
  /** The same for rules setting content on elements themselves (an image there replaces them). */
  own: string | null;
}

/** Rules that may apply to any element (a sheet we cannot read, a selector we cannot reduce). */
export const ANY_PSEUDO: PseudoRules = { seq: -1, sheets: -1, subjects: null, own: null };

/** Marks a cached "no such rules" entry. */
const NO_SUBJECTS = '\u0000none';

const pseudoRulesCache = new SafeWeakMap<Node, PseudoRules>();

interface Collected {
  list: string[];
  /** Selectors of rules with content on elements themselves. */
  own: string[];
  unknown: boolean;
}

/** Remove every :before/::after/:after/::before from one selector (no regex: the page may patch it). */
function stripPseudo(sel: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const j = strIndexOf(sel, ':', i);
    if (j < 0) return out + strSlice(sel, i);
    const k = sel[j + 1] === ':' ? j + 2 : j + 1;
    const word = strSlice(sel, k, k + 6);
    const len = strSlice(word, 0, 5) === 'after' ? 5 : word === 'before' ? 6 : 0;
    if (len) {
      out += strSlice(sel, i, j);
      i = k + len;
    } else {
      out += strSlice(sel, i, k);
      i = k;
    }
  }
}

/** Split a selector list at its top-level commas. */
function splitSelectors(sel: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sel.length; i++) {
    const ch = sel[i]!;
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out[out.length] = strSlice(sel, start, i);
      start = i + 1;
    }
  }
  out[out.length] = strSlice(sel, start);
  return out;
}

function collectRules(rules: CSSRuleList, depth: number, out: Collected): void {
  for (let i = 0; i < rules.length && !out.unknown; i++) {
    const r = rules[i] as CSSStyleRule & { cssRules?: CSSRuleList };
    // content first: most rules have none, and their selectorText need not be serialized
    const c = r.style?.content;
    const sel = c && c !== 'none' && c !== 'normal' ? r.selectorText : undefined;
    if (typeof sel === 'string') {
      const parts = splitSelectors(sel);
      for (let k = 0; k < parts.length; k++) {
        const part = parts[k]!;
        if (strIndexOf(part, ':before') >= 0 || strIndexOf(part, ':after') >= 0) {
          const subject = collapse(stripPseudo(part));
          if (strIndexOf(subject, '&') >= 0) out.unknown = true;
          out.list[out.list.length] = subject || '*';
        } else if (strIndexOf(part, '::') < 0 && strIndexOf(part, ':first-l') < 0) {
          // content on the element itself (other pseudo-elements, ::marker…, do not name)
          const subject = collapse(part);
          if (strIndexOf(subject, '&') >= 0) out.unknown = true;
          out.own[out.own.length] = subject || '*';
        }
      }
    }
    if (r.cssRules && depth < 8) collectRules(r.cssRules, depth + 1, out);
  }
}

function collectSheets(sheets: ArrayLike<CSSStyleSheet> | undefined, out: Collected): void {
  if (!sheets) return;
  for (let i = 0; i < sheets.length && !out.unknown; i++) {
    let rules: CSSRuleList;
    try {
      rules = sheets[i]!.cssRules;
    } catch {
      out.unknown = true; // a cross-origin sheet we cannot read: it may have some
      return;
    }
    collectRules(rules, 0, out);
  }
}

/** A selector list for elMatches: '' for none, null when it does not parse (check every element). */
function selectorList(list: string[]): string | null {
  if (!list.length) return '';
  const sel = joinNonEmpty(list, ', ');
  try {
    elMatches(document.documentElement, sel);
  } catch {
    return null;
  }
  return sel;
}

/**
 * The rules with content of a document or shadow root, or null when it has none (cached until
 * the DOM or the sheet list changes). Pages without any pay nothing per element.
 */
export function pseudoRulesIn(root: Node): PseudoRules | null {
  if (root.nodeType !== 9 && root.nodeType !== 11) return null;
  const r = root as Document | ShadowRoot;
  const sheets = r.styleSheets.length + (r.adoptedStyleSheets?.length ?? 0);
  const seq = mutationSeq();
  const hit = pseudoRulesCache.get(root);
  if (hit && hit.seq === seq && hit.sheets === sheets) return hit.subjects === NO_SUBJECTS ? null : hit;
  const out: Collected = { list: [], own: [], unknown: false };
  collectSheets(r.styleSheets as unknown as CSSStyleSheet[], out);
  collectSheets(r.adoptedStyleSheets, out);
  let rules: PseudoRules | null = null;
  if (out.unknown) rules = { seq, sheets, subjects: null, own: null };
  else if (out.list.length || out.own.length)
    rules = { seq, sheets, subjects: selectorList(out.list), own: selectorList(out.own) };
  pseudoRulesCache.set(root, rules ?? { seq, sheets, subjects: NO_SUBJECTS, own: '' });
  return rules;
}

/** The text a ::before or ::after pseudo-element adds (css-content.ts says what counts). */
function pseudoText(el: Element, which: string): string {
  const cs = computedStyle(el, which);
  const c = cs.content;
  if (!c || c === 'none' || c === 'normal' || cs.display === 'none') return '';
  const out = generatedText(c, el, cs);
  // a separate word, as the accname tests (WPT comp_name_from_content) expect; Chromium 156 glues
  // inline generated text to the content. An image alone is a gap.
  return out ? ' ' + out + ' ' : '';
}

/** Whether a selector list from pseudoRulesIn may match the element. */
function mayMatch(el: Element, subjects: string | null): boolean {
  return subjects === null || (subjects !== '' && elMatches(el, subjects));
}

/**
 * Content text with the element's generated ::before and ::after text around it; for an element
 * that `content: <image>` replaces, only the image's alternative text.
 */
export function withPseudo(el: Element, content: string, rules: PseudoRules): string {
  if (mayMatch(el, rules.own)) {
    const alt = replacedText(computedStyle(el).content, el);
    if (alt !== null) return hasText(alt) ? ' ' + alt + ' ' : '';
  }
  if (!mayMatch(el, rules.subjects)) return content;
  resetQuotes();
  const before = pseudoText(el, '::before');
  const after = pseudoText(el, '::after');
  return before || after ? before + content + after : content;
}

/** withPseudo under the rules of the element's own tree (for single name computations). */
export function withPseudoIn(el: Element, content: string): string {
  const rules = pseudoRulesIn(nodeGetRootNode(el));
  return rules ? withPseudo(el, content, rules) : content;
}
