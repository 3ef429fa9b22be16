#!/usr/bin/env node
// The first default answer right after a navigation, in process, on each bench page: navigate, then
// at once `browser_list_elements` with no budget given (what an agent gets when it just asks), then
// the same listing again once the page has been walked whole. Prints medians and checks that the
// first answer's lines are the whole walk's lines (a first look must not change what is shown).
// Uses the built core (`node scripts/build.mjs` first):
//
//   node bench/dev/first-look.mjs [--runs N] [--pages table,big,form] [--scope interactive|full]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startPageServer } from '../pages.mjs';

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const RUNS = Number(flag('--runs', '7'));
const PAGES = flag('--pages', 'table,big,form,article').split(',');
const SCOPE = flag('--scope', 'interactive');

const dist = new URL('../../dist/', import.meta.url);
const { BrowRuntime } = await import(new URL('runtime/runtime.js', dist));

const load = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** The answer's lines between the page-content tags: what the agent reads of the page. */
const body = (text) => {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('<page-content>') + 1, lines.indexOf('</page-content>')).join('\n');
};

const server = await startPageServer();
const rt = new BrowRuntime({});
try {
  const open = await rt.invoke('browser_open_page', { url: 'about:blank' });
  if (!open.ok) throw new Error(open.content);
  const pageId = open.data.page_id;
  const loads = [];
  for (const name of PAGES) {
    const first = [];
    const again = [];
    let partial = 0;
    let differs = 0;
    for (let i = 0; i <= RUNS; i++) {
      const nav = await rt.invoke('browser_navigate', { page_id: pageId, url: server.url(name) });
      if (!nav.ok) throw new Error(nav.content);
      const t0 = performance.now();
      const a = await rt.invoke('browser_list_elements', { page_id: pageId, scope: SCOPE });
      const t1 = performance.now();
      if (!a.ok) throw new Error(a.content);
      const whole = await rt.invoke('browser_list_elements', {
        page_id: pageId,
        scope: 'full',
        max_chars: 2_000_000,
      });
      if (!whole.ok) throw new Error(whole.content);
      const t2 = performance.now();
      const b = await rt.invoke('browser_list_elements', { page_id: pageId, scope: SCOPE });
      const t3 = performance.now();
      if (i === 0) continue; // the first navigation warms the server and the page script's compile
      loads.push(load());
      first.push(t1 - t0);
      again.push(t3 - t2);
      if (a.data.snapshot.partial) partial++;
      if (body(a.content) !== body(b.content)) differs++;
    }
    console.log(
      `${name.padEnd(8)} first answer ${median(first).toFixed(0).padStart(5)} ms (${Math.min(...first).toFixed(0)}–${Math.max(...first).toFixed(0)})` +
        `  after a whole walk ${median(again).toFixed(0).padStart(4)} ms  first looks ${partial}/${RUNS}  lines differ ${differs}/${RUNS}`,
    );
  }
  console.log(`scope ${SCOPE}, ${RUNS} runs each, load median ${median(loads).toFixed(1)}`);
} finally {
  await rt.close();
  await server.close();
}
