/** Key syntax "Control+Shift+A" → modifiers and a key puppeteer knows. */
import type { KeyInput } from 'puppeteer-core';
import { BrowserError } from '../errors.js';

const MODIFIERS: Record<string, KeyInput> = {
  control: 'Control',
  ctrl: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  controlormeta: process.platform === 'darwin' ? 'Meta' : 'Control',
};

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  space: ' ',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
};

const NAMED = new Set([
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'NumLock',
  'ScrollLock',
  'ContextMenu',
  'Pause',
  'PrintScreen',
  'NumpadEnter',
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
]);

/** Is this a key name brow can press? */
export const isKnownKey = (k: string): boolean => k.length === 1 || NAMED.has(k);

export interface KeyCombo {
  modifiers: KeyInput[];
  key: KeyInput;
}

/** Parse "Control+Enter"; a lone "+" is the plus key. */
export function parseKeyCombo(spec: string, known: (k: string) => boolean = isKnownKey): KeyCombo {
  const trimmed = spec.trim();
  const parts = trimmed === '+' ? ['+'] : trimmed.split(/\+(?!$)/);
  const keyPart = parts.pop() ?? '';
  const modifiers = parts.map((p) => {
    const m = MODIFIERS[p.toLowerCase()];
    if (!m) throw badKey(spec, `"${p}" is not a modifier`);
    return m;
  });
  const alias = ALIASES[keyPart.toLowerCase()];
  const key = alias ?? (keyPart.length === 1 ? keyPart : (MODIFIERS[keyPart.toLowerCase()] ?? keyPart));
  if (!known(key)) throw badKey(spec, `"${keyPart}" is not a key name`);
  return { modifiers, key: key as KeyInput };
}

function badKey(spec: string, why: string): BrowserError {
  return new BrowserError('invalid_request', `Cannot press "${spec}": ${why}.`, {
    hint: 'Use key names like Enter, Tab, Escape, ArrowDown, a single character, or combos like Control+A.',
  });
}
