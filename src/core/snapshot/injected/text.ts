/** Text helpers that use no tamperable builtins: whitespace collapsing, caps, token lists. */
import { strSlice } from './natives.js';

/** Longest name, text or attribute value we emit. */
export const CAP = 200;

/**
 * Whether a one-char string is whitespace a name should not keep: ASCII controls and space, NBSP
 * and the other Unicode spaces. Strings are indexed (s[i]) rather than read with charCodeAt: no
 * call per character, and nothing a page could patch.
 */
function isSpace(ch: string): boolean {
  if (ch <= ' ') return true;
  if (ch <= '~') return false;
  return (
    ch === '\u00a0' ||
    (ch >= '\u2000' && ch <= '\u200a') ||
    ch === '\u2028' ||
    ch === '\u2029' ||
    ch === '\u202f' ||
    ch === '\u3000' ||
    ch === '\ufeff'
  );
}

/** Collapse runs of whitespace to one space and trim both ends; stop after `max` output chars. */
export function collapse(s: string, max = CAP): string {
  const n = s.length;
  let start = 0;
  while (start < n && isSpace(s[start]!)) start++;
  let out = '';
  let pendingSpace = false;
  let runStart = start;
  let i = start;
  for (; i < n; i++) {
    if (isSpace(s[i]!)) {
      if (!pendingSpace) {
        out += strSlice(s, runStart, i);
        if (out.length >= max) return strSlice(out, 0, max);
        pendingSpace = true;
      }
    } else if (pendingSpace) {
      out += ' ';
      pendingSpace = false;
      runStart = i;
    }
  }
  if (!pendingSpace) out += strSlice(s, runStart, i);
  return out.length > max ? strSlice(out, 0, max) : out;
}

/** Whether the string has any non-whitespace character. */
export function hasText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s[i]!)) return true;
  return false;
}

/** Split on whitespace (role tokens, id references). */
export function tokens(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const space = i === s.length || isSpace(s[i]!);
    if (space) {
      if (start >= 0) out[out.length] = strSlice(s, start, i);
      start = -1;
    } else if (start < 0) start = i;
  }
  return out;
}

/** Cap an attribute value. */
export function cap(s: string, max = CAP): string {
  return s.length > max ? strSlice(s, 0, max) : s;
}

/** Join pieces with a separator, skipping empty ones. */
export function joinNonEmpty(parts: string[], sep: string): string {
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p) continue;
    out = out ? out + sep + p : p;
  }
  return out;
}
