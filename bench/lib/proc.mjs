// Process bookkeeping: every process the bench starts is recorded by pid, and at the
// end (or on a crash / Ctrl-C) the bench kills what it started, by pid, including the
// Chromium processes those children launched (found through /proc parent links).

import { readFileSync, readdirSync } from 'node:fs';

const tracked = new Set();
/** Every pid ever seen in the tree of a process we started (for the leftover check). */
const seen = new Set();

export function track(pid) {
  if (pid) tracked.add(pid);
}

export function untrack(pid) {
  tracked.delete(pid);
}

function readStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...  — comm may contain spaces/parens, so split after the last ')'.
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

/** Map ppid → [pid] for every live (non-zombie) process. */
function childrenMap() {
  const map = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (!st || st.state === 'Z') continue;
    if (!map.has(st.ppid)) map.set(st.ppid, []);
    map.get(st.ppid).push(Number(name));
  }
  return map;
}

/** pid plus all of its live descendants. */
export function processTree(pid) {
  const map = childrenMap();
  const out = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    if (!readStat(p) || readStat(p).state === 'Z') continue;
    out.push(p);
    seen.add(p);
    for (const c of map.get(p) ?? []) stack.push(c);
  }
  return out;
}

function comm(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Processes that descended from ours and still live: [{pid, comm}]. */
export function leftovers() {
  return [...seen].filter((p) => alive(p)).map((pid) => ({ pid, comm: comm(pid) }));
}

export function alive(pid) {
  const st = readStat(pid);
  return !!st && st.state !== 'Z';
}

/** Memory of a process tree: sum of RSS and of PSS (PSS shares shared pages fairly). */
export function treeMemory(pid) {
  let rss = 0;
  let pss = 0;
  const pids = processTree(pid);
  for (const p of pids) {
    try {
      const roll = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(roll)?.[1] ?? 0) * 1024;
      pss += Number(/^Pss:\s+(\d+)/m.exec(roll)?.[1] ?? 0) * 1024;
    } catch {
      /* gone */
    }
  }
  return { rss, pss, processes: pids.length };
}

export function killTree(pid, signal = 'SIGKILL') {
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Kill every tracked process tree (used at exit). */
export function killAllTracked() {
  for (const pid of [...tracked]) killTree(pid);
  tracked.clear();
}

let installed = false;
export function installExitHandlers() {
  if (installed) return;
  installed = true;
  process.on('exit', killAllTracked);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      killAllTracked();
      process.exit(130);
    });
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Reject after ms with a clear message; the underlying work is abandoned. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
