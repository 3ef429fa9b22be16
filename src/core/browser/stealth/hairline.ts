/**
 * Modernizr's hairline test: a div with a 0.5px border is 1px tall on a display that draws half
 * pixels (a laptop at scale 2); headless at scale 1 rounds each border up and answers 2. The
 * test's own element (id "modernizr") answers 1, as on such a display.
 */
import type { StealthPatch } from './types.js';

export const hairline: StealthPatch = (u, _o, win) => {
  u.replaceGetter(win.HTMLElement.prototype, 'offsetHeight', (self, native) => {
    const h = native() as number;
    return h <= 2 && (self as { id?: string }).id === 'modernizr' ? 1 : h;
  });
};
