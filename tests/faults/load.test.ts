/**
 * Load and clean exit: 16 sessions × 50 actions at once, every final value checked; then brow
 * stops and no Chromium process of its own is left (descendants of this process counted in /proc).
 */
import { describe, expect, it } from 'vitest';
import { chromiumUnder } from '../chromium-process.js';
import { harness, refOf } from '../helpers.js';
import { eventually } from '../scale.js';

const chromiumDescendants = (): number[] => chromiumUnder(process.pid);

describe('16 sessions × 50 actions at once', () => {
  it('every final value is right, and brow leaves no Chromium behind', async () => {
    // the product's load stretch on: this test is the load it exists for
    const h = await harness({ max_sessions: 16, script_watchdog_max_stretch: 5 });
    try {
      const SESSIONS = 16;
      const ROUNDS = 25; // a fill and a click each: 50 actions per session
      const runs = Array.from({ length: SESSIONS }, async (_, s) => {
        const sessionId = (await h.ok('browser_start_session')).session_id;
        const pageId = await h.open('faults/counter.html', { session_id: sessionId });
        const refs = await h.refs(pageId);
        const amount = refOf(refs, 'spinbutton', 'Amount');
        const add = refOf(refs, 'button', 'Add');
        let expected = 0;
        for (let i = 1; i <= ROUNDS; i++) {
          const value = s * 100 + i;
          expected += value;
          const filled = await h.call('browser_fill', { page_id: pageId, ref: amount, value: String(value) });
          expect(filled.ok, filled.content).toBe(true);
          const clicked = await h.call('browser_click', { page_id: pageId, ref: add });
          expect(clicked.ok, clicked.content).toBe(true);
        }
        const totals = await h.ok('browser_evaluate', {
          page_id: pageId,
          expression: `[document.getElementById('total').textContent, document.getElementById('adds').textContent]`,
        });
        return { expected, got: totals.value as string[] };
      });
      const results = await Promise.all(runs);
      for (const r of results) expect(r.got).toEqual([String(r.expected), String(ROUNDS)]);
      expect(chromiumDescendants().length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
    // Chromium's helpers may take a moment to go after the browser process
    let left = chromiumDescendants();
    await eventually(() => (left = chromiumDescendants()).length === 0, 5000, 100);
    expect(left).toEqual([]);
  }, 300_000);
});
