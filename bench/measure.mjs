// The measurements. Every number is wall-clock time in the bench process around one
// call of the system's own interface (an MCP tool call or a CLI command), so it holds
// what an agent host pays: transport, serialisation, the work itself.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANSWER_BEFORE, PAGES, PROBE_LABEL, answerAfter } from './pages.mjs';
import { quantile } from './lib/stats.mjs';
import { alive, sleep, treeMemory, withTimeout } from './lib/proc.mjs';
import { BENCH_DIR } from './systems/common.mjs';
import { SYSTEMS } from './systems/index.mjs';

const OUT_DIR = join(BENCH_DIR, 'out');
/** How long the bench "thinks" between a navigation and the first look (brow's after-pause answer). */
const PAUSE_MS = 1000;

// ------------------------------------------------------------------ tokens

let tokenizer = null;
export async function loadTokenizer() {
  try {
    const m = await import('gpt-tokenizer/encoding/o200k_base');
    tokenizer = { name: 'o200k_base (gpt-tokenizer)', count: (s) => m.countTokens(s), estimate: false };
  } catch (e) {
    tokenizer = {
      name: `chars/4 estimate (no tokenizer: ${e.message.split('\n')[0]})`,
      count: (s) => Math.round(s.length / 4),
      estimate: true,
    };
  }
  return tokenizer;
}
const countTokens = (s) => tokenizer.count(s);

const now = () => performance.now();
async function timed(fn) {
  const t = now();
  const value = await fn();
  return { ms: now() - t, value };
}

const log = (...a) => console.error(...a);

/**
 * Characters of an answer's structured copy (MCP `structuredContent`, JSON): what a client that
 * forwards it to the model pays beside (or instead of) the text. null when the system sends none.
 */
function structuredChars(v) {
  if (v?.structured_chars != null) return v.structured_chars;
  return v?.structured ? JSON.stringify(v.structured).length : null;
}

/** Bytes of an MCP system's tools/list result (JSON), as a client receives it; null for a CLI. */
async function toolListBytes(inst) {
  if (!inst.mcp?.listTools) return null;
  const tools = await inst.mcp.listTools();
  return Buffer.byteLength(JSON.stringify({ tools }));
}

// ------------------------------------------------------------------ system lifecycle

/** Start one system; returns { inst } or { error }. */
export async function startSystem(name, opts) {
  const inst = SYSTEMS[name](opts);
  try {
    await withTimeout(inst.start(), 60_000, `${name}: start`);
    return { inst };
  } catch (e) {
    try {
      await inst.stop();
    } catch {
      /* ignore */
    }
    return { error: e.message, inst };
  }
}

function isAlive(inst) {
  const pids = inst.rootPids?.() ?? [];
  return pids.length === 0 || pids.every((p) => alive(p));
}

// ------------------------------------------------------------------ per page × system × run

function coverageOf(text, markers) {
  if (!markers) return null;
  const out = {};
  for (const [where, label] of Object.entries(markers)) out[where] = text.includes(label);
  return out;
}

function push(obj, key, v) {
  (obj[key] ??= []).push(v);
}

/** One run of one system on one page. Mutates rec; throws on the first failing step. */
async function oneRun(inst, url, page, rec, measured, floorOut) {
  const step = { name: 'navigate' };
  try {
    await oneRunSteps(inst, url, page, rec, measured, floorOut, step);
  } catch (e) {
    throw new Error(`${step.name}: ${e.message}`);
  }
}

async function oneRunSteps(inst, url, page, rec, measured, floorOut, step) {
  const nav = await timed(() => inst.navigate(url));
  if (measured) push(rec, 'navigate_ms', nav.ms);

  step.name = 'snapshot';
  const snap = await timed(() => inst.snapshot());
  const text = snap.value.text;
  if (measured) {
    push(rec, 'snapshot_ms', snap.ms);
    push(rec, 'snapshot_chars', text.length);
    const sc = structuredChars(snap.value);
    if (sc != null) push(rec, 'snapshot_structured_chars', sc);
    if (snap.value.calls) push(rec, 'snapshot_calls', snap.value.calls);
    const cov = coverageOf(text, PAGES[page].markers);
    if (cov) push(rec, 'coverage_runs', cov);
    if (rec.tokens == null) {
      rec.tokens = countTokens(text);
      rec.has_answer_text = text.includes(ANSWER_BEFORE);
      mkdirSync(OUT_DIR, { recursive: true });
      writeFileSync(join(OUT_DIR, `${inst.name}-${page}.snapshot.txt`), text);
    }
  }

  // The same snapshot again with nothing changed in between: what an agent pays to look twice.
  step.name = 'repeat snapshot';
  const again = await timed(() => inst.snapshot());
  if (measured) push(rec, 'snapshot_repeat_ms', again.ms);

  if (inst.name === 'brow') {
    step.name = 'brow extras';
    // brow extras, all on the page as loaded (nothing mutated since the snapshot).
    // Interactive first, then full: the click's follow-up (scope changes) then diffs
    // against a full outline, and `changes` here runs right after a full snapshot.
    const x = (rec.extras ??= {});
    const tryExtra = async (key, fn) => {
      try {
        return await timed(fn);
      } catch (e) {
        if (measured) (x.errors ??= {})[key] ??= e.message;
        return null;
      }
    };
    const di = await tryExtra('default_interactive', () => inst.defaultAnswer('interactive'));
    const df = await tryExtra('default_full', () => inst.defaultAnswer('full'));
    const ch = await tryExtra('changes', () => inst.changes());
    const rp = await tryExtra('read_page', () => inst.readPage());
    const fd = await tryExtra('find', () => inst.find());
    if (measured) {
      mkdirSync(OUT_DIR, { recursive: true });
      if (ch) {
        push(x, 'changes_ms', ch.ms);
        push(x, 'changes_chars', ch.value.text.length);
        x.changes_text ??= ch.value.text.slice(0, 300);
      }
      if (df) {
        push(x, 'default_full_ms', df.ms);
        push(x, 'default_full_chars', df.value.text.length);
        const fc = structuredChars(df.value);
        if (fc != null) push(x, 'default_full_structured_chars', fc);
        x.default_full_truncated ??= df.value.truncated;
        if (x.default_full_tokens == null) {
          x.default_full_tokens = countTokens(df.value.text);
          writeFileSync(join(OUT_DIR, `brow-${page}.default-full.txt`), df.value.text);
        }
      }
      if (di) {
        push(x, 'default_interactive_ms', di.ms);
        push(x, 'default_interactive_chars', di.value.text.length);
        const dc = structuredChars(di.value);
        if (dc != null) push(x, 'default_interactive_structured_chars', dc);
        x.default_interactive_truncated ??= di.value.truncated;
      }
      if (fd) {
        push(x, 'find_chars', fd.value.text.length);
        const c = structuredChars(fd.value);
        if (c != null) push(x, 'find_structured_chars', c);
      }
      if (rp) {
        push(x, 'read_page_ms', rp.ms);
        push(x, 'read_page_chars', rp.value.text.length);
        if (x.read_page_tokens == null) {
          x.read_page_tokens = countTokens(rp.value.text);
          writeFileSync(join(OUT_DIR, `brow-${page}.read-page.md`), rp.value.text);
        }
      }
    }
  }

  step.name = 'find probe';
  const ref = inst.findRef(text, PROBE_LABEL);
  if (!ref) throw new Error(`probe button "${PROBE_LABEL}" not found in the snapshot`);

  step.name = 'click';
  const expected = answerAfter(1);
  const click = await timed(() => inst.click(ref));
  let answerMs = null;
  let inClick = click.value.text.includes(expected);
  let seen = inClick;
  let followMs = null;
  if (inClick) {
    answerMs = click.ms;
  } else {
    step.name = 'follow-up after click';
    const f = await timed(() => inst.followUp());
    followMs = f.ms;
    seen = f.value.text.includes(expected);
    if (seen) answerMs = click.ms + f.ms;
  }
  if (measured) {
    if (rec.click_ms == null)
      writeFileSync(join(OUT_DIR, `${inst.name}-${page}.click-reply.txt`), click.value.text);
    push(rec, 'click_ms', click.ms);
    push(rec, 'click_chars', click.value.text.length);
    const cc = structuredChars(click.value);
    if (cc != null) push(rec, 'click_structured_chars', cc);
    if (followMs != null) push(rec, 'followup_ms', followMs);
    if (answerMs != null) push(rec, 'answer_ms', answerMs);
    push(rec, 'answer_in_click', inClick);
    push(rec, 'answer_seen', seen);
  }

  // brow walks a loaded page ahead (config walk_ahead): the first listing an agent asks for after
  // thinking for a moment is answered from that walk. Measured on a fresh document of the page:
  // navigate, pause as an agent's model would, then the default answer.
  if (inst.name === 'brow') {
    step.name = 'default answer after a pause';
    await inst.navigate(url);
    await sleep(PAUSE_MS);
    const first = await timed(() => inst.defaultAnswer('interactive'));
    if (measured) push((rec.extras ??= {}), 'after_pause_ms', first.ms);
    // and with no pause: a script (not a model) that asks the moment the navigation answers
    step.name = 'default answer right after a navigation';
    await inst.navigate(url);
    const now = await timed(() => inst.defaultAnswer('interactive'));
    if (measured) push((rec.extras ??= {}), 'at_once_ms', now.ms);
  }

  if (floorOut && typeof inst.floor === 'function') {
    try {
      const f = await inst.floor();
      if (measured) {
        push(floorOut, 'ms', f.ms);
        floorOut.nodes = f.nodes;
        floorOut.chars = f.chars;
      }
    } catch (e) {
      floorOut.error = e.message;
    }
  }
}

/**
 * Systems × pages × runs. Run 0 is the warm-up (not counted). Within each run the
 * systems take turns in a rotated order, so slow drift of the machine lands on all.
 */
export async function measurePages({ systems, pages, runs, server, results, floors, status }) {
  const live = new Map(); // name → inst
  for (const name of systems) {
    const r = await startSystem(name);
    if (r.error) {
      status[name] = { available: false, reason: r.error, ...safeDescribe(r.inst) };
      log(`${name}: not available (${r.error})`);
    } else {
      status[name] = { available: true, ...safeDescribe(r.inst) };
      try {
        status[name].tool_list_bytes = await toolListBytes(r.inst);
      } catch (e) {
        status[name].tool_list_error = e.message;
      }
      live.set(name, r.inst);
      log(`${name}: started`);
    }
  }
  const restarts = {};
  for (const page of pages) {
    const url = server.url(page);
    for (let run = 0; run <= runs; run++) {
      const names = [...live.keys()];
      const order = names.map((_, i) => names[(i + run) % names.length]);
      for (const name of order) {
        const inst = live.get(name);
        const rec = ((results[name] ??= {})[page] ??= { errors: [] });
        const floorOut = name === 'chrome-devtools-mcp' ? (floors[page] ??= {}) : null;
        const t = now();
        try {
          await withTimeout(oneRun(inst, url, page, rec, run > 0, floorOut), 600_000, `${name} on ${page}`);
        } catch (e) {
          rec.errors.push({ run, message: e.message });
          log(`  ${name} ${page} run ${run}: ERROR ${e.message}`);
          if (!isAlive(inst) || /timeout|closed/i.test(e.message)) {
            // Restart a dead or stuck system once per page; give up on it after 3 restarts.
            await inst.stop().catch(() => {});
            restarts[name] = (restarts[name] ?? 0) + 1;
            const r = restarts[name] <= 3 ? await startSystem(name) : { error: 'too many restarts' };
            if (r.error) {
              live.delete(name);
              status[name].stopped_early = `after ${page} run ${run}: ${r.error}`;
              log(`  ${name}: dropped (${r.error})`);
            } else {
              live.set(name, r.inst);
            }
          }
        }
        log(`  ${page} run ${run}${run === 0 ? ' (warm-up)' : ''} ${name}: ${Math.round(now() - t)} ms`);
      }
    }
  }
  for (const [name, inst] of live) {
    status[name] = { ...status[name], ...safeDescribe(inst) };
    await inst.stop().catch(() => {});
  }
}

function safeDescribe(inst) {
  try {
    const d = inst.describe();
    return { version: d.version, command: d.command, notes: d.notes };
  } catch {
    return {};
  }
}

// ------------------------------------------------------------------ cold start

/** Fresh process → navigate to the small form → first snapshot. Also memory with that one page. */
export async function measureColdStart({ systems, runs, server, cold, status }) {
  const names = systems.filter((n) => status[n]?.available !== false);
  const url = server.url('form');
  for (let run = 0; run <= runs; run++) {
    const order = names.map((_, i) => names[(i + run) % names.length]);
    for (const name of order) {
      const rec = (cold[name] ??= { ms: [], rss: [], pss: [], processes: null, errors: [] });
      const inst = SYSTEMS[name]();
      try {
        const t = now();
        await withTimeout(
          (async () => {
            await inst.start();
            await inst.navigate(url);
            await inst.snapshot();
          })(),
          120_000,
          `${name}: cold start`,
        );
        const ms = now() - t;
        await sleep(500);
        const mem = inst.rootPids().reduce(
          (a, pid) => {
            const m = treeMemory(pid);
            return { rss: a.rss + m.rss, pss: a.pss + m.pss, processes: a.processes + m.processes };
          },
          { rss: 0, pss: 0, processes: 0 },
        );
        if (run > 0) {
          rec.ms.push(ms);
          rec.rss.push(mem.rss);
          rec.pss.push(mem.pss);
          rec.processes = mem.processes;
        }
        log(
          `  cold start run ${run}${run === 0 ? ' (warm-up)' : ''} ${name}: ${Math.round(ms)} ms, RSS ${(mem.rss / 2 ** 20).toFixed(0)} MiB`,
        );
      } catch (e) {
        rec.errors.push({ run, message: e.message });
        log(`  cold start ${name} run ${run}: ERROR ${e.message}`);
      } finally {
        await inst.stop().catch(() => {});
      }
    }
  }
}

// ------------------------------------------------------------------ brow at scale

/**
 * brow only: one brow process, sessions added up to 16 (memory of brow + its Chromium
 * processes at 1, 4, 16), then all 16 sessions click concurrently.
 */
export async function measureBrowScale({ server, scale, clicksPerSession = 10 }) {
  const levels = [1, 4, 16];
  const r = await startSystem('brow', { sessions: 16 });
  if (r.error) {
    scale.error = r.error;
    return;
  }
  const brow = r.inst;
  scale.command = brow.describe().command;
  scale.memory = [];
  scale.session_start_ms = [];
  scale.open_page_ms = [];
  const sessions = [];
  const url = server.url('form');
  try {
    for (const level of levels) {
      while (sessions.length < level) {
        const s = await timed(() => brow.startSession());
        const p = await timed(() => brow.openPage(url, s.value));
        scale.session_start_ms.push(s.ms);
        scale.open_page_ms.push(p.ms);
        sessions.push({ id: s.value, pageId: p.value.pageId });
      }
      await sleep(1000);
      const m = treeMemory(brow.rootPids()[0]);
      scale.memory.push({ sessions: level, rss: m.rss, pss: m.pss, processes: m.processes });
      log(
        `  brow ${level} sessions: RSS ${(m.rss / 2 ** 20).toFixed(0)} MiB, PSS ${(m.pss / 2 ** 20).toFixed(0)} MiB`,
      );
    }

    // 16 sessions act at once: each clicks its probe clicksPerSession times, in sequence.
    for (const s of sessions) {
      const list = await brow.call('browser_list_elements', { page_id: s.pageId, scope: 'interactive' });
      s.ref = brow.findRef(list.text, PROBE_LABEL);
      if (!s.ref) throw new Error(`probe not found in session ${s.id}`);
    }
    const lat = [];
    let seen = 0;
    const errors = [];
    const t0 = now();
    await Promise.all(
      sessions.map(async (s) => {
        for (let k = 1; k <= clicksPerSession; k++) {
          try {
            const c = await timed(() => brow.click(s.ref, s.pageId));
            lat.push(c.ms);
            if (c.value.text.includes(answerAfter(k))) seen++;
          } catch (e) {
            errors.push(e.message);
          }
        }
      }),
    );
    scale.concurrency = {
      sessions: sessions.length,
      actions: lat.length,
      wall_ms: now() - t0,
      p50_ms: quantile(lat, 0.5),
      p95_ms: quantile(lat, 0.95),
      max_ms: Math.max(...lat),
      answer_in_effect: seen,
      errors: errors.slice(0, 5),
      error_count: errors.length,
    };
  } catch (e) {
    scale.error = `${e.message} (after ${sessions.length} sessions)`;
  } finally {
    for (const s of sessions) await brow.stopSession(s.id).catch(() => {});
    await brow.stop().catch(() => {});
  }
}
