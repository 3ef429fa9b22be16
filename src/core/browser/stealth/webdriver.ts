/** navigator.webdriver reads false, as in a browser no one automates (the getter stays on the prototype). */
import type { StealthPatch } from './types.js';

export const webdriver: StealthPatch = (u, _o, win) => {
  u.replaceGetter(win.Navigator.prototype, 'webdriver', () => false);
};
