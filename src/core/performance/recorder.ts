/**
 * A performance recording of one page: a Chromium trace (puppeteer's page.tracing) plus in-page
 * observers for Core Web Vitals. start → stop answers LCP, CLS, INP, TTFB, FCP and the longest tasks,
 * and writes the raw trace into the workspace. The recording lives in the page's StateBag: a page that
 * closes ends it (and frees the browser's tracing), and stop never waits on a page that went away.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { CDPSession } from 'puppeteer-core';
import { frameIdOf } from '../browser/internals.js';
import { BrowserError, classifyError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { BrowPage } from '../session/page.js';
import { history } from '../session/navigate.js';
import { slot } from '../state-bag.js';
import { summarizeTrace, type LongTask } from './trace.js';
import { INSTALL_VITALS, READ_VITALS, type PageVitals } from './vitals-script.js';
import { withDeadline } from '../deadline.js';

/**
 * Trace categories after chrome-devtools-mcp / Lighthouse: the timeline (tasks, events, paints,
 * layout shifts), loading (LCP candidates), script execution and input latency.
 */
export const TRACE_CATEGORIES = [
  'blink.console',
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'latencyInfo',
  'loading',
  'toplevel',
  'v8.execute',
];

interface Recording {
  page: BrowPage;
  startedAt: number;
  /** The init script that installs the observers in each new document. */
  scriptId: string | null;
  /** Where the trace goes when stop names no path. */
  path: string | null;
  /**
   * The recording's own CDP session to the page: Tracing runs on it, and detaching it ends the trace.
   * Not page.tracing: puppeteer's Tracing stays "recording" for good after Chromium refuses a start.
   */
  cdp: CDPSession | null;
}

/** The page's recording, if one runs. Disposing it (the page closed) ends the trace. */
const recordingSlot = slot<{ current: Recording | null }>(
  'performance',
  () => ({ current: null }),
  async (v) => {
    const rec = v.current;
    v.current = null;
    if (rec) await cleanUp(rec);
  },
);

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  withDeadline(p, ms, () => new BrowserError('timeout', `No answer within ${ms} ms.`));

/** A workspace path for the trace, checked now (an output: the file may be new). */
function tracePath(page: BrowPage, p: string): string {
  return workspacePath(workspaceRoot(page.session.config.workspace_root), p, false);
}

function defaultTracePath(page: BrowPage): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return tracePath(page, `traces/${page.id}-${stamp}.json`);
}

export interface StartOptions {
  path?: string | undefined;
  reload?: boolean | undefined;
  timeoutMs: number;
}

/** Start recording; invalid_request when one already runs on this page (or on another page of the browser). */
export async function startRecording(
  page: BrowPage,
  opts: StartOptions,
): Promise<{ reloaded: boolean; url: string }> {
  const box = page.state.get(recordingSlot);
  if (box.current) {
    throw new BrowserError('invalid_request', `A performance recording already runs on ${page.id}.`, {
      hint: 'Call browser_performance {action: "stop"} to end it (and get its results) before starting another.',
    });
  }
  const path = opts.path ? tracePath(page, opts.path) : null;
  const rec: Recording = { page, startedAt: Date.now(), scriptId: null, path, cdp: null };
  box.current = rec;
  try {
    rec.scriptId = (await page.raw.evaluateOnNewDocument(INSTALL_VITALS)).identifier;
    // a document mid-navigation gets the observers from the init script
    await page.raw.evaluate(INSTALL_VITALS).catch(() => undefined);
    rec.cdp = await page.raw.createCDPSession();
    await rec.cdp
      .send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        traceConfig: { includedCategories: TRACE_CATEGORIES, excludedCategories: ['*'] },
      })
      .catch((e: unknown) => {
        const msg = e instanceof Error ? e.message : String(e);
        // Chromium records one trace at a time per browser ("Tracing has already been started")
        if (/already/i.test(msg)) {
          throw new BrowserError('invalid_request', 'Another page of this browser is recording a trace.', {
            hint: 'Stop the recording on the other page first (browser_performance {action: "stop"}), or use another session with its own browser.',
            cause: e,
          });
        }
        throw classifyError(e);
      });
    if (opts.reload) {
      await history(page, 'reload', opts.timeoutMs);
      await waitForLoad(page, opts.timeoutMs);
    }
    return { reloaded: opts.reload === true, url: page.url() };
  } catch (e) {
    box.current = null;
    await cleanUp(rec);
    throw e;
  }
}

/** After a reload: the load event (LCP and CLS of loading are mostly in by then), at most timeoutMs. */
async function waitForLoad(page: BrowPage, timeoutMs: number): Promise<void> {
  await page.raw
    .waitForFunction('document.readyState === "complete"', { timeout: Math.min(timeoutMs, 15_000) })
    .catch(() => undefined);
}

/** Remove the init script and end the trace (detaching its CDP session ends it in Chromium). */
async function cleanUp(rec: Recording): Promise<void> {
  const cdp = rec.cdp;
  rec.cdp = null;
  if (rec.scriptId && !rec.page.closed)
    await rec.page.raw.removeScriptToEvaluateOnNewDocument(rec.scriptId).catch(() => undefined);
  if (cdp) await withTimeout(cdp.detach(), 2000).catch(() => undefined);
}

/** End the trace and read it back (Tracing.end, then the stream Chromium hands over). */
async function endTrace(cdp: CDPSession): Promise<Buffer> {
  const complete = new Promise<{ stream?: string }>((resolve) =>
    cdp.once('Tracing.tracingComplete', resolve),
  );
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  if (!stream) throw new BrowserError('unexpected_error', 'Chromium returned no trace stream.');
  const chunks: Buffer[] = [];
  for (;;) {
    const r = await cdp.send('IO.read', { handle: stream, size: 4 * 1024 * 1024 });
    chunks.push(Buffer.from(r.data, r.base64Encoded ? 'base64' : 'utf8'));
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream }).catch(() => undefined);
  return Buffer.concat(chunks);
}

export interface PerformanceReport {
  url: string;
  lcp_ms: number | null;
  lcp_element: string | null;
  cls: number;
  layout_shifts: number;
  inp_ms: number | null;
  /** Why INP is missing ("not measured (no interaction)"), or which interaction set it. */
  inp_note: string;
  interactions: number;
  ttfb_ms: number | null;
  fcp_ms: number | null;
  long_tasks: LongTask[];
  recorded_ms: number;
  trace_path: string | null;
  trace_bytes: number;
  trace_events: number;
  /** What could not be read, if anything (the page went away, the trace did not come back). */
  warnings: string[];
}

const round = (n: number | null | undefined, digits = 0) =>
  typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null;

/** Stop recording: the vitals, the longest tasks, and the raw trace written into the workspace. */
export async function stopRecording(
  page: BrowPage,
  opts: { path?: string | undefined; timeoutMs: number },
): Promise<PerformanceReport> {
  const box = page.state.get(recordingSlot);
  const rec = box.current;
  if (!rec) {
    throw new BrowserError('invalid_request', `No performance recording runs on ${page.id}.`, {
      hint: 'Call browser_performance {action: "start"} first, act on the page (e.g. click), then stop.',
    });
  }
  // checked before the recording ends, so a bad path does not lose it
  const path = opts.path ? tracePath(page, opts.path) : (rec.path ?? defaultTracePath(page));
  box.current = null;
  const warnings: string[] = [];
  // the page may have navigated or hung: the read is bounded, and a missing answer is a warning
  const vitals = (await withTimeout(page.raw.evaluate(READ_VITALS) as Promise<PageVitals>, 5000).catch(
    (e: unknown) => {
      warnings.push(`in-page metrics unavailable: ${classifyError(e).message}`);
      return null;
    },
  )) satisfies PageVitals | null;
  if (vitals && !vitals.installed)
    warnings.push('the document loaded before the observers could be installed');
  const cdp = rec.cdp;
  const raw = cdp
    ? await withTimeout(endTrace(cdp), Math.min(opts.timeoutMs, 60_000)).catch((e: unknown) => {
        warnings.push(`trace unavailable: ${classifyError(e).message}`);
        return undefined;
      })
    : undefined;
  await cleanUp(rec);
  let summary = { events: 0, duration_ms: 0, long_tasks: [] as LongTask[] };
  let written: string | null = null;
  if (raw) {
    try {
      summary = summarizeTrace(JSON.parse(raw.toString('utf8')), {
        frameId: frameIdOf(page.raw.mainFrame()),
      });
    } catch {
      warnings.push('the trace could not be parsed');
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, raw);
    written = path;
  }
  const inter = vitals?.interactions ?? [];
  const worst = inter.reduce<(typeof inter)[number] | null>((w, i) => (!w || i.ms > w.ms ? i : w), null);
  const root = workspaceRoot(page.session.config.workspace_root);
  return {
    url: vitals?.url ?? page.url(),
    lcp_ms: round(vitals?.lcp?.ms),
    lcp_element: vitals?.lcp?.element ?? null,
    cls: round(vitals?.cls ?? 0, 4) ?? 0,
    layout_shifts: vitals?.shifts ?? 0,
    // fewer than 50 interactions: INP is the slowest one
    inp_ms: worst ? round(worst.ms) : null,
    inp_note: worst
      ? `${worst.type} on ${worst.target ?? 'the page'}`
      : 'not measured (no interaction during the recording)',
    interactions: inter.length,
    ttfb_ms: round(vitals?.ttfb_ms),
    fcp_ms: round(vitals?.fcp_ms),
    long_tasks: summary.long_tasks,
    recorded_ms: Date.now() - rec.startedAt,
    trace_path: written ? relative(root, written) || written : null,
    trace_bytes: raw?.byteLength ?? 0,
    trace_events: summary.events,
    warnings,
  };
}

/** Whether a recording runs on the page. */
export function isRecording(page: BrowPage): boolean {
  return page.state.peek(recordingSlot)?.current != null;
}
