/** WebGL's unmasked vendor and renderer name a desktop GPU, not SwiftShader. */
import type { StealthPatch } from './types.js';

export const webgl: StealthPatch = (u, o, win) => {
  const UNMASKED_VENDOR_WEBGL = 0x9245;
  const UNMASKED_RENDERER_WEBGL = 0x9246;
  for (const ctor of [win.WebGLRenderingContext, win.WebGL2RenderingContext]) {
    if (!ctor) continue;
    u.replaceMethod(ctor.prototype, 'getParameter', (native, self, args) => {
      if (args[0] === UNMASKED_VENDOR_WEBGL) return o.webgl.vendor;
      if (args[0] === UNMASKED_RENDERER_WEBGL) return o.webgl.renderer;
      return u.apply(native, self, args);
    });
  }
};
