#!/usr/bin/env node
// Where the time of a full snapshot of the 3,000-row table goes, stage by stage, and what a
// click with its effect costs there. Uses the built core (run `node scripts/build.mjs` first):
//
//   node bench/dev/snapshot-profile.mjs [--runs N] [--page table|big|form]
//
// Stages (medians of N runs, the 1-minute load average beside each; the machine is shared):
//   walk in page            api.walk() timed inside the page, nothing serialised
//   walk + encode in page   a second walk turned into the text that leaves the page: the compact
//                           wire (walkWire) when the page script has it, else JSON of the walk
//   transfer                Runtime.evaluate of that text, already built in the page
//   parse                   JSON.parse of it in Node
//   decode, refs            wire → outline nodes; page refs for a fresh registry (wire only)
//   build + refs            without the wire: takeSnapshot minus walk+encode, transfer, parse
//   snapshot (core)         takeSnapshot(): all of the above in one call
//   render                  scope, lines, reading order and the first page of a full answer
//   list_elements           the whole capability through invoke() (what every door runs), scope
//                           full, 2,000,000-char budget
//   click + effect          browser_click on the probe button (its text changes), effect included
//   click, no change        browser_click on a row link (a hash change: nothing in the outline moves)
//
// Run it against an older build by copying it into that checkout's bench/dev/.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startPageServer } from '../pages.mjs';

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const RUNS = Number(flag('--runs', '7'));
const PAGE = flag('--page', 'table');

const dist = new URL('../../dist/', import.meta.url);
const { BrowRuntime } = await import(new URL('runtime/runtime.js', dist));
const snapshotMod = await import(new URL('core/snapshot/snapshot.js', dist));
const { evaluateIn, ensureInstalled } = await import(new URL('core/snapshot/page-script.js', dist));
const { selectScope } = await import(new URL('core/snapshot/scope.js', dist));
const { renderLines } = await import(new URL('core/snapshot/render-lines.js', dist));
const { readingOrder, takePage } = await import(new URL('core/snapshot/budget.js', dist));

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms`;

const server = await startPageServer();
const rt = new BrowRuntime({});
const results = new Map(); // stage → { times: [], loads: [] }
const record = (stage, ms) => {
  const r = results.get(stage) ?? { times: [], loads: [] };
  r.times.push(ms);
  r.loads.push(Number(load().split(' ')[0]));
  results.set(stage, r);
};

try {
  const open = await rt.invoke('browser_open_page', { url: server.url(PAGE) });
  if (!open.ok) throw new Error(open.content);
  const pageId = open.data.page_id;
  const page = rt.core.findPage(pageId);
  const frame = page.raw.mainFrame();
  await ensureInstalled(frame);
  console.log(`loadavg at start: ${load()}`);

  // The walk alone; then the walk in the form the core reads (the compact wire when the page script
  // has it, else JSON of the walk), kept in the page so that its transfer is timed on its own.
  const hasWire = await evaluateIn(
    frame,
    `typeof globalThis[Symbol.for('brow.page')].walkWire === 'function'`,
  );
  const wireMod = hasWire ? await import(new URL('core/snapshot/wire.js', dist)) : null;
  const { RefRegistry } = await import(new URL('core/snapshot/ref-registry.js', dist));
  const encode = hasWire ? 'api.walkWire(o)' : 'JSON.stringify({ value: api.walk(o) })';
  const inPage = `(() => { const api = globalThis[Symbol.for('brow.page')]; const o = { maxNodes: 200000 };
    const t0 = performance.now(); const r = api.walk(o); const t1 = performance.now();
    const s = ${encode}; const t2 = performance.now();
    globalThis.__browProfile = s;
    return { walk: t1 - t0, encoded: t2 - t1, nodes: r.nodes.length, chars: s.length }; })()`;
  const stage = hasWire ? 'wire' : 'JSON';

  let info = null;
  for (let i = 0; i <= RUNS; i++) {
    const warm = i === 0;
    const a = await evaluateIn(frame, inPage);
    info = a;
    const t0 = performance.now();
    const text = await evaluateIn(frame, `globalThis.__browProfile`);
    const t1 = performance.now();
    const parsed = JSON.parse(text);
    const t2 = performance.now();
    let t3 = t2;
    let t4 = t2;
    if (wireMod) {
      const fw = wireMod.decodeWalk(parsed, 'main', 0, [0, 0], true);
      t3 = performance.now();
      const refs = new RefRegistry();
      for (let j = 0; j < fw.nodes.length; j++) {
        const id = fw.localIds[j];
        if (id) refs.refFor(frame, 'main', fw.docKey, id, fw.nodes[j].role, fw.nodes[j].name);
      }
      t4 = performance.now();
    }
    if (!warm) {
      record('walk in page', a.walk);
      // the encoding call walks again: compare it with the walk alone for the encoding's cost
      record(`walk + encode in page (${stage})`, a.encoded);
      record(`transfer (${stage} string)`, t1 - t0);
      record(`parse (${stage})`, t2 - t1);
      if (wireMod) {
        record('decode into nodes', t3 - t2);
        record('refs (first sight, fresh registry)', t4 - t3);
      }
    }

    const s0 = performance.now();
    const snap = await snapshotMod.takeSnapshot(page);
    const s1 = performance.now();
    if (!warm) record('snapshot (core, all of the above)', s1 - s0);
    if (!warm && !wireMod)
      record('build + refs (core − walk+encode − transfer − parse)', s1 - s0 - a.encoded - (t2 - t0));

    const r0 = performance.now();
    const indexes = selectScope(snap.nodes, 'full');
    const lines = renderLines(snap.nodes, indexes);
    const order = readingOrder(indexes.map((j) => snap.nodes[j].inView));
    takePage(lines, order, 0, 2_000_000);
    const r1 = performance.now();
    if (!warm) record('render (scope, lines, order, page)', r1 - r0);

    const l0 = performance.now();
    const le = await rt.invoke('browser_list_elements', {
      page_id: pageId,
      scope: 'full',
      max_chars: 2_000_000,
    });
    const l1 = performance.now();
    if (!le.ok) throw new Error(le.content);
    if (!warm) record('list_elements full (invoke)', l1 - l0);
    if (i === RUNS) info.answerChars = le.content.length;
  }
  await evaluateIn(frame, `delete globalThis.__browProfile`);

  // Clicks: the probe button changes a text (a real diff); a row link changes nothing in the outline.
  const refs = (
    await rt.invoke('browser_list_elements', { page_id: pageId, scope: 'interactive', max_chars: 2_000_000 })
  ).data.snapshot.refs;
  const probe = refs.find((r) => r.role === 'button' && r.accessible_name === 'Reveal answer');
  const link = refs.find((r) => r.role === 'link');
  for (let i = 0; i <= RUNS; i++) {
    const c0 = performance.now();
    const c = await rt.invoke('browser_click', { page_id: pageId, ref: probe.ref });
    const c1 = performance.now();
    if (!c.ok) throw new Error(c.content);
    if (i > 0) record('click + effect (text changes)', c1 - c0);
    if (i === RUNS) info.clickAnswer = c.content.split('\n').slice(0, 4).join(' | ');
    if (link) {
      const d0 = performance.now();
      const d = await rt.invoke('browser_click', { page_id: pageId, ref: link.ref });
      const d1 = performance.now();
      if (!d.ok) throw new Error(d.content);
      if (i > 0) record('click + effect (no outline change)', d1 - d0);
    }
  }

  console.log(
    `page ${PAGE}: ${info.nodes} nodes, ${stage} ${info.chars.toLocaleString()} chars` +
      `, full answer ${info.answerChars?.toLocaleString()} chars; ${RUNS} runs; cores ${
        (await import('node:os')).cpus().length
      }`,
  );
  for (const [stage, r] of results) {
    console.log(
      `${stage.padEnd(46)} ${fmt(median(r.times))}  (min ${r.times.reduce((a, b) => Math.min(a, b)).toFixed(0)}, max ${r.times
        .reduce((a, b) => Math.max(a, b))
        .toFixed(0)})  load ${median(r.loads).toFixed(2)}`,
    );
  }
  console.log(`last click answer: ${info.clickAnswer}`);
  console.log(`loadavg at end: ${load()}`);
} finally {
  await rt.close();
  await server.close();
}
