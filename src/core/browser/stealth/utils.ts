/** The in-page helpers every stealth patch uses: masking as native, replacing getters and methods. */
import type { StealthUtils } from './types.js';

/** Runs in the page (serialised): builds the helper object. */
export function makeUtils(): StealthUtils {
  const masked = new WeakMap<object, object>();
  const named = new WeakMap<object, string>();
  const patched = new WeakSet<object>();
  const defineProperty = Object.defineProperty;
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const apply = Reflect.apply;

  const mask = <F extends object>(fake: F, original: object): F => {
    masked.set(fake, original);
    try {
      defineProperty(fake, 'name', { value: (original as { name: string }).name, configurable: true });
      defineProperty(fake, 'length', { value: (original as { length: number }).length, configurable: true });
    } catch {
      // a frozen function keeps its own name
    }
    return fake;
  };

  return {
    masked,
    named,
    patched,
    apply,
    applyAll: () => undefined,
    mask,
    fabricate(name, impl) {
      const holder = {
        [name](...args: unknown[]) {
          return impl(this, args);
        },
      };
      const fake = holder[name]!;
      named.set(fake, name);
      defineProperty(fake, 'length', { value: 0, configurable: true });
      return fake;
    },
    replaceGetter(obj, key, get) {
      const desc = getDescriptor(obj, key);
      if (!desc || typeof desc.get !== 'function') return false;
      const nativeGet = desc.get;
      // An accessor written as `get key()` carries the native's name ("get key") and no prototype.
      const holder = {
        get [key]() {
          // eslint-disable-next-line @typescript-eslint/no-this-alias
          const self: unknown = this;
          return get(self, () => apply(nativeGet, self, []));
        },
      };
      const fake = getDescriptor(holder, key)!.get!;
      mask(fake, nativeGet);
      defineProperty(obj, key, { ...desc, get: fake });
      return true;
    },
    replaceMethod(obj, key, impl) {
      const desc = getDescriptor(obj, key);
      const original = desc?.value as unknown;
      if (!desc || typeof original !== 'function') return false;
      // A method shorthand, like natives, has no prototype and cannot be constructed.
      const holder = {
        [key](...args: unknown[]) {
          return impl(original as (...a: any[]) => unknown, this, args);
        },
      };
      const fake = holder[key]!;
      mask(fake, original);
      defineProperty(obj, key, { ...desc, value: fake });
      return true;
    },
  };
}
