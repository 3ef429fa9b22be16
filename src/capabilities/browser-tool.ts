/** Seed 000's `browser` tool: named tabs you open, close, and script with JavaScript in a killable worker. */
import { z } from 'zod';
import { browserToolInput } from '../core/tool/schema.js';
import { defineCapability } from './define.js';

export const browserCap = defineCapability({
  name: 'browser',
  title: 'Browser (scriptable tabs)',
  description: [
    'Drive named Chromium tabs with JavaScript: "open" a tab (or app.path / app.cdp_url), "run" code in it, "close" it.',
    '`code`: async function body with page (puppeteer), browser, tab, display(v), assert(c, msg), wait(ms), console.',
    'tab: url(), title(), goto(url), observe({includeAll?, viewportOnly?}) → {elements:[{id, role, name, value?, states}]…}, id(n),',
    'click/type/fill/press/scrollIntoView/select/uploadFile(target, …), scroll(dx, dy), drag(from, to), waitFor(selector), waitForUrl(p),',
    'waitForResponse(p: URL part, RegExp, or predicate given the response: r.url(), r.status()), evaluate(fn, …args), screenshot({selector?, fullPage?, save?}), extract("markdown"|"text").',
    'A target: CSS selector, "text/…", "aria/…", "xpath/…", "pierce/…", or an observe() id (ids die with their element: observe again).',
    "Output: each display(), then the returned value. Not sandboxed: the code has full Node access in brow's process.",
  ].join(' '),
  group: 'tool',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  output: z.looseObject({}).describe('Details: tab, url, title, values'),
  input: browserToolInput,
  async handle(input, ctx) {
    const { browserTool } = await import('../core/tool/browser-tool.js');
    const r = await browserTool(ctx.core, input, ctx.signal);
    return { text: r.text, data: r.details, ...(r.images.length > 0 ? { images: r.images } : {}) };
  },
});
