/**
 * Same-origin frames get the same patches the moment a script reaches their window
 * (iframe.contentWindow / contentDocument): a fresh about:blank or srcdoc frame is otherwise
 * a clean, unpatched realm — `iframe.contentWindow.chrome` and `.navigator.webdriver` tell.
 */
import type { StealthPatch } from './types.js';

export const iframe: StealthPatch = (u, _o, win) => {
  const proto = win.HTMLIFrameElement?.prototype;
  if (!proto) return;
  const patchFrame = (child: unknown) => {
    try {
      // Reading Function throws for a cross-origin window: that frame is its own document, patched at its start.
      if (child && (child as { Function?: unknown }).Function) u.applyAll(child);
    } catch {
      // cross-origin
    }
  };
  u.replaceGetter(proto, 'contentWindow', (_self, native) => {
    const child = native();
    patchFrame(child);
    return child;
  });
  u.replaceGetter(proto, 'contentDocument', (_self, native) => {
    const doc = native() as Document | null;
    if (doc) patchFrame(doc.defaultView);
    return doc;
  });
};
