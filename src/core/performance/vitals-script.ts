/**
 * The in-page half of a performance recording: PerformanceObservers for LCP, layout shifts, event
 * timing (INP), paint (FCP) and long tasks, installed on the current document and on every document
 * the page loads while recording. A string, not a function: it runs as written in any page.
 */

/** What readVitals answers (times in ms since the document's time origin). */
export interface PageVitals {
  url: string;
  lcp: { ms: number; element: string | null; size: number; url: string } | null;
  /** Largest session window of unexpected layout shifts (the CLS definition). */
  cls: number;
  shifts: number;
  /** Interactions (by interactionId) with their longest event. */
  interactions: { id: number; ms: number; type: string; target: string | null }[];
  fcp_ms: number | null;
  ttfb_ms: number | null;
  long_tasks: { start_ms: number; ms: number }[];
  /** false: the script was not there (a document that loaded before it could be installed). */
  installed: boolean;
}

const KEY = 'Symbol.for("brow.vitals")';

/** Installs the observers once per document (a second run is a no-op). */
export const INSTALL_VITALS = `(() => {
  const KEY = ${KEY};
  if (window[KEY]) return;
  const v = { lcp: null, cls: 0, shifts: 0, win: 0, winStart: 0, last: -1e9, inter: new Map(), fcp: null, long: [], observers: [] };
  Object.defineProperty(window, KEY, { value: v, enumerable: false });
  const describe = (el) => {
    if (!el || el.nodeType !== 1) return null;
    let s = el.localName;
    if (el.id) s += '#' + el.id;
    else if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\\s+/)[0];
    const text = (el.localName === 'img' ? el.getAttribute('alt') || el.currentSrc || '' : el.textContent || '')
      .replace(/\\s+/g, ' ').trim().slice(0, 60);
    return text ? s + ' "' + text + '"' : s;
  };
  const handlers = {
    'largest-contentful-paint': (e) => {
      v.lcp = { ms: e.startTime, element: describe(e.element), size: e.size, url: e.url || '' };
    },
    'layout-shift': (e) => {
      if (e.hadRecentInput) return;
      v.shifts++;
      if (e.startTime - v.last < 1000 && e.startTime - v.winStart < 5000) v.win += e.value;
      else { v.win = e.value; v.winStart = e.startTime; }
      v.last = e.startTime;
      if (v.win > v.cls) v.cls = v.win;
    },
    event: (e) => {
      if (!e.interactionId) return;
      const cur = v.inter.get(e.interactionId);
      if (!cur || e.duration > cur.ms)
        v.inter.set(e.interactionId, { id: e.interactionId, ms: e.duration, type: e.name, target: describe(e.target) });
    },
    paint: (e) => { if (e.name === 'first-contentful-paint') v.fcp = e.startTime; },
    longtask: (e) => { if (v.long.length < 500) v.long.push({ start_ms: e.startTime, ms: e.duration }); },
  };
  handlers['first-input'] = handlers.event;
  for (const [type, fn] of Object.entries(handlers)) {
    try {
      const o = new PerformanceObserver((list) => list.getEntries().forEach(fn));
      o.observe(type === 'event' ? { type, buffered: true, durationThreshold: 16 } : { type, buffered: true });
      v.observers.push([o, fn]);
    } catch {}
  }
})()`;

/**
 * Reads what the observers saw, after the next frames (event timing entries come after a paint) and
 * with takeRecords() (entries still queued for a callback).
 */
export const READ_VITALS = `(async () => {
  const v = window[${KEY}];
  const frame = () => new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 0)); setTimeout(r, 200); });
  await frame();
  await frame();
  const nav = performance.getEntriesByType('navigation')[0];
  const ttfb = nav ? Math.max(0, nav.responseStart - (nav.activationStart || 0)) : null;
  if (!v) return { url: location.href, lcp: null, cls: 0, shifts: 0, interactions: [], fcp_ms: null, ttfb_ms: ttfb, long_tasks: [], installed: false };
  for (const [o, fn] of v.observers) o.takeRecords().forEach(fn);
  // a document that has content but no LCP yet has not painted it (a stop right after a navigation
  // on a busy machine): give it a few more frames, about 1.6 s at most
  for (let i = 0; i < 8 && !v.lcp && document.body && document.body.childElementCount > 0; i++) {
    await frame();
    for (const [o, fn] of v.observers) o.takeRecords().forEach(fn);
  }
  const fcp = v.fcp ?? performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
  return {
    url: location.href,
    lcp: v.lcp,
    cls: v.cls,
    shifts: v.shifts,
    interactions: [...v.inter.values()],
    fcp_ms: fcp,
    ttfb_ms: ttfb,
    long_tasks: v.long,
    installed: true,
  };
})()`;
