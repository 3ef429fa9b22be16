/** Console test helpers: brow serve in-process with the console mounted, and a person's own browser. */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { consoleRoute } from '../../src/doors/console/routes.js';
import { startHttpServer, type RunningServer } from '../../src/doors/http/server.js';
import type { BrowRuntime } from '../../src/runtime/runtime.js';

/** brow serve in-process: the tool API plus the console. */
export function serveConsole(rt: BrowRuntime, token: string | null = null): Promise<RunningServer> {
  return startHttpServer(rt, { port: 0, token, extraRoutes: [consoleRoute(rt)] });
}

/** A person's own browser (not brow's), driven by the test. */
export async function personBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-gpu', '--no-first-run'],
    defaultViewport: { width: 1400, height: 1000 },
  });
}

/** Click a page point as seen in the console's viewport image (scaled like a person's click). */
export async function clickInViewport(console: Page, x: number, y: number): Promise<void> {
  const pt = await console.$eval(
    '#screen',
    (img, px, py) => {
      const r = img.getBoundingClientRect();
      const k = r.width / Number((img as HTMLImageElement).dataset.w || 0 || r.width);
      return { x: r.left + px * k, y: r.top + py * k };
    },
    x,
    y,
  );
  await console.mouse.click(pt.x, pt.y);
}
