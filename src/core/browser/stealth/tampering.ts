/**
 * Function.prototype.toString answers "[native code]" for every patched function, in every
 * frame. Called with the tab's secret as `this`, it hands a child frame the shared helpers.
 */
import type { StealthPatch } from './types.js';

export const tampering: StealthPatch = (u, o, win) => {
  const proto = win.Function.prototype;
  const nativeToString = proto.toString as (this: unknown) => string;
  u.replaceMethod(proto, 'toString', (_native, self) => {
    if (self === o.secret) return u;
    const name = typeof self === 'function' ? u.named.get(self) : undefined;
    if (name !== undefined) return `function ${name}() { [native code] }`;
    // One WeakMap for all frames: a top-level function stringified by a frame's toString is masked too.
    const target = (typeof self === 'function' && u.masked.get(self)) || self;
    return u.apply(nativeToString, target, []);
  });
};
