/**
 * A screen at least as large as the window and a window frame around the viewport: headless
 * reports an 800×600 screen and outer size equal to inner size. devicePixelRatio stays the
 * viewport's own (set with the tab's viewport scale).
 */
import type { StealthPatch } from './types.js';

export const screen: StealthPatch = (u, o, win) => {
  const FRAME_HEIGHT = 85;
  const proto = win.Screen.prototype;
  const width = () => Math.max(o.screen.width, win.innerWidth);
  const height = () => Math.max(o.screen.height, win.innerHeight + FRAME_HEIGHT);
  u.replaceGetter(proto, 'width', width);
  u.replaceGetter(proto, 'height', height);
  u.replaceGetter(proto, 'availWidth', width);
  u.replaceGetter(proto, 'availHeight', height);
  u.replaceGetter(proto, 'colorDepth', () => 24);
  u.replaceGetter(proto, 'pixelDepth', () => 24);
  // outerWidth/outerHeight are own accessors of the window.
  u.replaceGetter(win, 'outerWidth', (_self, native) => Math.max(native() as number, win.innerWidth));
  u.replaceGetter(win, 'outerHeight', (_self, native) => {
    const n = native() as number;
    return n > win.innerHeight ? n : win.innerHeight + FRAME_HEIGHT;
  });
};
