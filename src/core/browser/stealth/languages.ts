/** navigator.languages / navigator.language as configured (the same frozen array on every read). */
import type { StealthPatch } from './types.js';

export const languages: StealthPatch = (u, o, win) => {
  const proto = win.Navigator.prototype;
  const list = Object.freeze([...o.languages]);
  const same = (native: unknown) =>
    Array.isArray(native) && native.length === list.length && native.every((l, i) => l === list[i]);
  let nativeList: unknown;
  try {
    nativeList = win.navigator.languages;
  } catch {
    nativeList = undefined;
  }
  if (same(nativeList)) return;
  u.replaceGetter(proto, 'languages', () => list);
  u.replaceGetter(proto, 'language', () => list[0]);
};
