/**
 * Shared types of the stealth patches. Every patch is a self-contained function that is
 * serialised into one document-start script: it may use only its parameters and page globals.
 */

/** What the patches make the page report. Chosen in Node, passed to the page as JSON. */
export interface StealthOptions {
  /** The platform the tab claims: 'windows' as seed 000 does, or the host's own ('native'). */
  platform: 'windows' | 'native';
  /** navigator.languages; navigator.language is the first. */
  languages: string[];
  /** navigator.hardwareConcurrency. */
  hardwareConcurrency: number;
  /** UNMASKED_VENDOR_WEBGL / UNMASKED_RENDERER_WEBGL. */
  webgl: { vendor: string; renderer: string };
  /** IANA timezone, applied with Emulation.setTimezoneOverride. */
  timezone: string;
  /** ICU locale, applied with Emulation.setLocaleOverride. */
  locale: string;
  /**
   * Random per tab. A frame's script asks its parent's patched toString for the shared helpers
   * with it, so one registry masks functions of every same-origin frame.
   */
  secret: string;
  /** screen.width / screen.height when the headless screen is smaller than a desktop's. */
  screen: { width: number; height: number };
}

/** A page global object (window of the top document or of a same-origin frame). */
export type StealthWindow = any;

/** Helpers built once per page (by makeUtils) and shared by every patch and every frame. */
export interface StealthUtils {
  /** patched function → the native it stands for (Function.prototype.toString answers the native's source). */
  masked: WeakMap<object, object>;
  /** fabricated function → the name its "[native code]" source shows. */
  named: WeakMap<object, string>;
  /** Windows already patched. */
  patched: WeakSet<object>;
  /** Reflect.apply as it was at document start (a page may replace the global one later). */
  apply: typeof Reflect.apply;
  /** Patch a same-origin child window (set by the script builder). */
  applyAll: (win: StealthWindow) => void;
  /** Give fake the name, length and toString of original. */
  mask<F extends object>(fake: F, original: object): F;
  /** A new function that prints as native code (for objects the browser left out). */
  fabricate(name: string, impl: (self: unknown, args: unknown[]) => unknown): (...args: unknown[]) => unknown;
  /** Replace the getter of obj[key] (an accessor); get receives the receiver and the native getter. */
  replaceGetter(obj: object, key: string, get: (self: unknown, native: () => unknown) => unknown): boolean;
  /** Replace the method obj[key]; impl receives the native, the receiver and the arguments. */
  replaceMethod(
    obj: object,
    key: string,
    impl: (native: (...args: any[]) => unknown, self: unknown, args: unknown[]) => unknown,
  ): boolean;
}

/** One surface: patches win using the shared helpers and options. Must not throw on a missing API. */
export type StealthPatch = (u: StealthUtils, o: StealthOptions, win: StealthWindow) => void;
