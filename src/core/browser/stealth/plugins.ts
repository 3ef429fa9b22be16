/**
 * navigator.plugins / navigator.mimeTypes with Chrome's five built-in PDF viewers when the
 * browser reports none. Left alone when real entries exist (current headless has them).
 */
import type { StealthPatch } from './types.js';

export const plugins: StealthPatch = (u, _o, win) => {
  const PDF_PLUGINS = [
    'PDF Viewer',
    'Chrome PDF Viewer',
    'Chromium PDF Viewer',
    'Microsoft Edge PDF Viewer',
    'WebKit built-in PDF',
  ];
  const MIME_TYPES = [
    { type: 'application/pdf', suffixes: 'pdf', description: 'Portable Document Format' },
    { type: 'text/pdf', suffixes: 'pdf', description: 'Portable Document Format' },
  ];
  const nav = win.navigator;
  if (!win.PluginArray || !win.MimeTypeArray || nav.plugins?.length > 0) return;
  const define = (obj: object, props: Record<string, unknown>): Record<string, unknown> => {
    for (const [k, v] of Object.entries(props)) {
      Object.defineProperty(obj, k, { value: v, enumerable: !/^(item|namedItem|refresh)$/.test(k) });
    }
    return obj as Record<string, unknown>;
  };
  const list = (proto: object, items: Array<Record<string, unknown>>, key: string) => {
    const arr = Object.create(proto) as Record<string | number, unknown>;
    items.forEach((item, i) => Object.defineProperty(arr, i, { value: item, enumerable: true }));
    define(arr, {
      length: items.length,
      item: u.fabricate('item', (_s, a) => items[Number(a[0])] ?? null),
      namedItem: u.fabricate('namedItem', (_s, a) => items.find((x) => x[key] === a[0]) ?? null),
    });
    return arr;
  };
  const mimes = MIME_TYPES.map((m) => define(Object.create(win.MimeType.prototype), m));
  const plugs = PDF_PLUGINS.map((name) => {
    const p = list(win.Plugin.prototype, mimes, 'type');
    return define(p, { name, filename: 'internal-pdf-viewer', description: 'Portable Document Format' });
  });
  const pluginArray = list(win.PluginArray.prototype, plugs, 'name');
  define(pluginArray, { refresh: u.fabricate('refresh', () => undefined) });
  const mimeArray = list(win.MimeTypeArray.prototype, mimes, 'type');
  for (const m of mimes) define(m, { enabledPlugin: plugs[0] });
  u.replaceGetter(win.Navigator.prototype, 'plugins', () => pluginArray);
  u.replaceGetter(win.Navigator.prototype, 'mimeTypes', () => mimeArray);
  u.replaceGetter(win.Navigator.prototype, 'pdfViewerEnabled', () => true);
};
