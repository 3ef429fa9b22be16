/**
 * Load and clean exit: 16 sessions × 50 actions at once, every final value checked; then brow
 * stops and no Chromium process of its own is left (descendants of this process counted in /proc).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harness, refOf } from '../helpers.js';

/** Pids of this process's descendants whose command is Chromium. */
function chromiumDescendants(): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'
      const close = stat.lastIndexOf(')');
      comm.set(pid, stat.slice(stat.indexOf('(') + 1, close));
      parent.set(pid, Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid), i = 0; p !== undefined && p > 1 && i < 64; p = parent.get(p), i++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  return [...comm].filter(([pid, c]) => /chrom/i.test(c) && mine(pid)).map(([pid]) => pid);
}

describe('16 sessions × 50 actions at once', () => {
  it('every final value is right, and brow leaves no Chromium behind', async () => {
    const h = await harness({ max_sessions: 16 });
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
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = chromiumDescendants();
    }
    expect(left).toEqual([]);
  }, 300_000);
});
