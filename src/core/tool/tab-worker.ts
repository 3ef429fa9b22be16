/**
 * Worker-thread entry of one `browser`-tool tab (compiled to dist/core/tool/tab-worker.js).
 * It makes its own puppeteer connection, opens or attaches its page, and runs callers' code
 * there, so the host can kill it (worker.terminate()) when code never yields.
 */
import { parentPort } from 'node:worker_threads';
import type { Browser, Page } from 'puppeteer-core';
import { BrowserError } from '../errors.js';
import { ElementIds } from './element-ids.js';
import type {
  HostMessage,
  InitPayload,
  LogLevel,
  RunPayload,
  TabInfo,
  WorkerMessage,
  WorkerSettings,
} from './protocol.js';
import { serializeError } from './protocol.js';
import { cloneSafe, runCode } from './run-code.js';
import { createTabApi } from './tab-api.js';
import { openTab, tabInfo } from './worker-init.js';

if (!parentPort) throw new Error('tab-worker.js runs as a worker thread only.');
const port = parentPort;
const post = (m: WorkerMessage) => port.postMessage(m);
const log = (level: LogLevel, msg: string) => post({ type: 'log', level, msg });

interface State {
  name: string;
  browser: Browser;
  page: Page;
  mode: InitPayload['mode'];
  settings: WorkerSettings;
  waitUntil: InitPayload['waitUntil'];
  ids: ElementIds;
}

let state: State | null = null;
let closing = false;
const runs = new Map<number, AbortController>();

/** The page closed under us (the app closed its window) or the browser went away: this tab is over. */
function gone(why: string): void {
  if (closing) return;
  log('warn', why);
  for (const ac of runs.values()) ac.abort(new BrowserError('page_closed', why));
  // Let the abort answers go out, then end the thread; the host marks the tab dead.
  setTimeout(() => process.exit(0), 50);
}

/** A dialog opened without a `dialogs` policy (it is dismissed already): fail the runs going on. */
function dialogBlocked(d: { type: string; message: string }): void {
  for (const ac of runs.values()) {
    ac.abort(
      new BrowserError(
        'dialog_blocking',
        `A ${d.type} dialog ("${d.message}") opened during the run; the tab has no dialogs policy, so it was dismissed and the run stopped.`,
        {
          hint: 'Open the tab again with dialogs "accept" or "dismiss" to answer dialogs and go on; the tab is still usable.',
          details: { dialog: d.type, dialog_message: d.message },
        },
      ),
    );
  }
}

async function init(payload: InitPayload): Promise<void> {
  try {
    const { browser, page } = await openTab(payload, log, dialogBlocked);
    state = {
      name: payload.name,
      browser,
      page,
      mode: payload.mode,
      settings: payload,
      waitUntil: payload.waitUntil,
      ids: new ElementIds(),
    };
    page.once('close', () => gone('The page of this tab was closed.'));
    browser.once('disconnected', () => gone('The connection to the browser was lost.'));
    post({ type: 'ready', info: await tabInfo(page) });
  } catch (e) {
    post({ type: 'init-failed', error: serializeError(e, 'connection_failed') });
  }
}

async function run(id: number, code: string, timeoutMs: number): Promise<void> {
  const s = state;
  if (!s) {
    post({
      type: 'result',
      id,
      ok: false,
      error: serializeError(new BrowserError('page_closed', 'The tab is not open.')),
    });
    return;
  }
  const ac = new AbortController();
  runs.set(id, ac);
  const timer = setTimeout(
    () =>
      ac.abort(
        new BrowserError('timeout', `Browser code execution timed out after ${timeoutMs}ms`, {
          hint: 'The tab is still open: split the work into shorter runs, wait for something specific, or raise timeout (at most 30 s).',
        }),
      ),
    timeoutMs,
  );
  const displays: RunPayload['displays'] = [];
  const screenshots: RunPayload['screenshots'] = [];
  try {
    const tab = createTabApi({
      name: s.name,
      page: s.page,
      signal: ac.signal,
      ids: s.ids,
      settings: s.settings,
      waitUntil: s.waitUntil,
      deadline: Date.now() + timeoutMs,
      displays,
      screenshots,
    });
    const value = await runCode({
      id,
      code,
      page: s.page,
      browser: s.browser,
      tab,
      signal: ac.signal,
      displays,
      log,
    });
    const info: TabInfo = await tabInfo(s.page).catch(() => ({
      url: s.page.url(),
      title: '',
      viewport: null,
      targetId: '',
    }));
    post({
      type: 'result',
      id,
      ok: true,
      payload: { displays, returnValue: cloneSafe(value), screenshots, info },
    });
  } catch (e) {
    post({ type: 'result', id, ok: false, error: serializeError(e) });
  } finally {
    clearTimeout(timer);
    runs.delete(id);
  }
}

async function close(): Promise<void> {
  closing = true;
  for (const ac of runs.values())
    ac.abort(new BrowserError('page_closed', 'The tab was closed during the run.'));
  const s = state;
  state = null;
  if (s) {
    // A headless tab is ours: close its page. An attached page belongs to the app: only let go.
    if (s.mode === 'headless') await s.page.close({ runBeforeUnload: false }).catch(() => undefined);
    await s.browser.disconnect().catch(() => undefined);
  }
  post({ type: 'closed' });
}

port.on('message', (m: HostMessage) => {
  switch (m.type) {
    case 'init':
      void init(m.payload);
      break;
    case 'run':
      void run(m.id, m.code, m.timeoutMs);
      break;
    case 'abort':
      runs.get(m.id)?.abort(new BrowserError('timeout', 'The run was aborted by the caller.'));
      break;
    case 'close':
      void close();
      break;
  }
});

// Loaded and listening: the host starts an init's timer only now (loading can be slow on a busy machine).
post({ type: 'booted' });
