/** Headful sessions under Xvfb: a real window a person could take over, watched and recorded like any page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOf } from '../../src/core/live/page-live.js';
import type { ScreencastFrame } from '../../src/core/live/screencast.js';
import { harness, type Harness } from '../helpers.js';
import { startXvfb, type Xvfb } from '../xvfb.js';
import { corePage, until } from './helpers.js';

let xvfb: Xvfb | null = null;
let h: Harness;
let savedDisplay: string | undefined;

beforeAll(async () => {
  savedDisplay = process.env.DISPLAY;
  xvfb = await startXvfb();
  // the runtime's launch inherits this process's environment
  process.env.DISPLAY = xvfb.display;
  h = await harness();
});
afterAll(async () => {
  await h?.close();
  if (savedDisplay === undefined) delete process.env.DISPLAY;
  else process.env.DISPLAY = savedDisplay;
  xvfb?.stop();
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('headful sessions', () => {
  it('opens a window on the display, streams it, takes input, and closes its browser with the session', async () => {
    const s = await h.ok('browser_start_session', { headless: false });
    expect(s.headless).toBe(false);
    const opened = await h.ok('browser_open_page', {
      session_id: s.session_id,
      url: h.server.url('live/form.html'),
    });
    const page = corePage(h.rt, opened.page_id);
    const proc = page.raw.browser().process()!;
    expect(proc.spawnargs.some((a) => a.startsWith('--headless'))).toBe(false);
    expect(page.raw.browser()).not.toBe(await h.rt.core.sharedBrowser());
    const frames: ScreencastFrame[] = [];
    const stop = liveOf(page).screencast.subscribe({ frame: (f) => frames.push(f) });
    try {
      await until(() => frames.length > 0, 10_000, 'a frame from the window');
      expect(frames[0]!.width).toBeGreaterThan(100);
      const refs = await h.refs(opened.page_id);
      await h.ok('browser_fill', {
        page_id: opened.page_id,
        ref: refs.find((r) => r.role === 'textbox').ref,
        value: 'window',
      });
      expect(await page.raw.$eval('#name', (el) => (el as HTMLInputElement).value)).toBe('window');
    } finally {
      stop();
    }
    await h.ok('browser_stop_session', { session_id: s.session_id });
    await until(() => !alive(proc.pid!), 10_000, 'the headful browser to close');
  });

  it('a config flipped to headful: new sessions share one headful browser (not one each)', async () => {
    h.rt.updateConfig({ headless: false });
    try {
      const a = (await h.ok('browser_start_session')).session_id;
      const b = (await h.ok('browser_start_session')).session_id;
      expect(h.rt.core.session(a).options.headless).toBe(false);
      expect(h.rt.core.session(a).host).toBe(h.rt.core.session(b).host);
      await h.ok('browser_stop_session', { session_id: a });
      await h.ok('browser_stop_session', { session_id: b });
    } finally {
      h.rt.updateConfig({ headless: true });
    }
  });

  it('answers capability_unavailable without a display', async () => {
    delete process.env.DISPLAY;
    try {
      expect((await h.err('browser_start_session', { headless: false })).code).toBe('capability_unavailable');
    } finally {
      process.env.DISPLAY = xvfb!.display;
    }
  });
});
