/** Pick: the element at a point, through shadow roots and frames, as a ref the agent acts on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSurface } from '../../src/capabilities/live-surface.js';
import { harness, type Harness } from '../helpers.js';
import { corePage, nextEvent } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

const center = (r: { x: number; y: number; width: number; height: number }) =>
  [r.x + r.width / 2, r.y + r.height / 2] as const;

describe('pick', () => {
  it('resolves an element inside an open shadow root and emits picked', async () => {
    const pageId = await h.open('live/nested.html');
    const page = corePage(h.rt, pageId);
    await h.ok('browser_evaluate', { page_id: pageId, expression: 'console.log("before the pick")' });
    const rect = await page.raw.evaluate(() =>
      document
        .querySelector('x-card')!
        .shadowRoot!.getElementById('shadow-btn')!
        .getBoundingClientRect()
        .toJSON(),
    );
    const picked = nextEvent(h.rt, 'picked');
    const el = await liveSurface(h.rt.core).pick(pageId, ...center(rect));
    expect(el).toMatchObject({
      tag: 'button',
      role: 'button',
      name: 'Shadow action',
      attributes: { id: 'shadow-btn', type: 'button' },
    });
    const e = await picked;
    expect(e).toMatchObject({ session_id: page.session.id, page_id: pageId });
    expect((e.element as any).ref).toBe(el.ref);
    expect((e.element as any).console_recent.map((c: any) => c.text)).toContain('before the pick');
    const out = await h.ok('browser_click', { page_id: pageId, ref: el.ref });
    expect(out.action.ok).toBe(true);
    expect(out.__content).toMatch(/Shadow action/);
  });

  it('resolves an element inside an iframe, with page bounds, and the ref acts there', async () => {
    const pageId = await h.open('live/nested.html');
    const page = corePage(h.rt, pageId);
    const frame = page.raw.frames().find((f) => f.url().endsWith('frame-inner.html'))!;
    await frame.waitForSelector('#inner-btn');
    const frameBox = (await (await frame.frameElement())!.boundingBox())!;
    const inner = await frame.$eval('#inner-btn', (b) => b.getBoundingClientRect().toJSON());
    // the content box starts after the 4px border and 6px padding
    const x = frameBox.x + 10 + inner.x + inner.width / 2;
    const y = frameBox.y + 10 + inner.y + inner.height / 2;
    const el = await liveSurface(h.rt.core).inspect(pageId, x, y);
    expect(el).toMatchObject({ tag: 'button', name: 'Inner button' });
    expect(el.frame_url).toBe(h.server.url('live/frame-inner.html'));
    expect(Math.abs(el.bounds.x - (frameBox.x + 10 + inner.x))).toBeLessThanOrEqual(1);
    await h.ok('browser_click', { page_id: pageId, ref: el.ref });
    expect(await frame.$eval('p', (p) => p.textContent)).toBe('inner clicked');
  });

  it('answers page_not_found for a page that is not open', async () => {
    await expect(liveSurface(h.rt.core).pick('p-nope-1', 1, 1)).rejects.toMatchObject({
      code: 'page_not_found',
    });
  });
});
