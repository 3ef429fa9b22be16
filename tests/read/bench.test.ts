/**
 * Timings of the reading capabilities (prints only; run with BROW_BENCH=1). Not a timed test:
 * numbers depend on the machine and its load.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { tablePageHtml } from './table-page.js';

const RUNS = Number(process.env.BROW_BENCH_RUNS ?? 7);
let h: Harness;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(name: string, input: Record<string, unknown>): Promise<{ ms: number; chars: number }> {
  const ms: number[] = [];
  let chars = 0;
  await h.ok(name, input); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const o = await h.call(name, input);
    ms.push(performance.now() - t0);
    if (!o.ok) throw new Error(o.content);
    chars = o.content.length;
  }
  return { ms: Math.round(median(ms)), chars };
}

describe.runIf(process.env.BROW_BENCH)('reading timings', () => {
  beforeAll(async () => {
    h = await harness();
    const table = tablePageHtml();
    h.server.route('/table', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(table);
    });
  });
  afterAll(() => h.close());

  it('prints medians', { timeout: 900_000 }, async () => {
    const table = await h.open('table');
    const article = await h.open('read/article.html');
    const rows: [string, { ms: number; chars: number }][] = [
      ['read_page table full', await time('browser_read_page', { page_id: table, scope: 'full' })],
      ['read_page table viewport', await time('browser_read_page', { page_id: table })],
      ['read_page article full', await time('browser_read_page', { page_id: article, scope: 'full' })],
      ['read_page article viewport', await time('browser_read_page', { page_id: article })],
      ['screenshot article viewport', await time('browser_screenshot', { page_id: article })],
      ['screenshot article labelled', await time('browser_screenshot', { page_id: article, labels: true })],
      ['screenshot table viewport', await time('browser_screenshot', { page_id: table })],
      ['screenshot table labelled', await time('browser_screenshot', { page_id: table, labels: true })],
    ];
    console.log(
      `median of ${RUNS} runs\n${rows.map(([n, r]) => `${n.padEnd(30)} ${String(r.ms).padStart(6)} ms ${String(r.chars).padStart(7)} chars`).join('\n')}`,
    );
  });
});
