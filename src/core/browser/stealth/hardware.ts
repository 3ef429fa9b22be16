/** navigator.hardwareConcurrency of a common desktop (a 1- or 2-core headless server stands out). */
import type { StealthPatch } from './types.js';

export const hardware: StealthPatch = (u, o, win) => {
  u.replaceGetter(win.Navigator.prototype, 'hardwareConcurrency', () => o.hardwareConcurrency);
};
