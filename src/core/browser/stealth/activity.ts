/**
 * A tab that looks in use: headless pages can report themselves hidden and unfocused (a tab
 * behind another, or a window never shown), which a person's open tab never is.
 */
import type { StealthPatch } from './types.js';

export const activity: StealthPatch = (u, _o, win) => {
  const doc = win.Document.prototype;
  u.replaceGetter(doc, 'hidden', () => false);
  u.replaceGetter(doc, 'visibilityState', () => 'visible');
  u.replaceGetter(doc, 'webkitHidden', () => false);
  u.replaceGetter(doc, 'webkitVisibilityState', () => 'visible');
  u.replaceMethod(doc, 'hasFocus', () => true);
};
