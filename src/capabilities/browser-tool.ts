/** Seed 000's `browser` tool: named tabs you open, close, and script with JavaScript in a killable worker. */
import { browserToolInput } from '../core/tool/schema.js';
import { defineCapability } from './define.js';

export const browserCap = defineCapability({
  name: 'browser',
  title: 'Browser (scriptable tabs)',
  description: [
    'Drive named Chromium tabs with JavaScript. Three actions only: "open" a tab (brow\'s headless Chromium, or app.path / app.cdp_url),',
    '"run" code in it, "close" it. Open before run. For reading a static page prefer browser_read_page.',
    'run `code` is an async function body with page (puppeteer Page), browser, tab, display(value), assert(cond, msg), wait(ms), console (logged, not shown).',
    'tab: url(), title(), goto(url), observe({includeAll?, viewportOnly?}) → {url, title, viewport, scroll, elements:[{id, role, name, value?, states}]},',
    'id(n) → element handle, click/type/fill/press/scrollIntoView/select/uploadFile(target, …), scroll(dx, dy), drag(from, to), waitFor(selector),',
    'waitForUrl(pattern), waitForResponse(pattern), evaluate(fn, …args), screenshot({selector?, fullPage?, save?, silent?}), extract("markdown"|"text").',
    'A target is a CSS selector, "text/…", "aria/…", "xpath/…", "pierce/…", or an id from observe(). Ids die when their element or document goes; observe again.',
    'Output: every display() in order, then the returned value (JSON unless a string). Take screenshots only when you need to see pixels.',
    "The code has full Node access in brow's process: it is not sandboxed.",
  ].join(' '),
  group: 'tool',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  input: browserToolInput,
  async handle(input, ctx) {
    const { browserTool } = await import('../core/tool/browser-tool.js');
    const r = await browserTool(ctx.core, input, ctx.signal);
    return { text: r.text, data: r.details, ...(r.images.length > 0 ? { images: r.images } : {}) };
  },
});
