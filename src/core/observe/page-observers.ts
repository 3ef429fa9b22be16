/** Wire a puppeteer page's console, network and dialog events into its session's records. */
import type { ConsoleMessage, Dialog, HTTPRequest, Page } from 'puppeteer-core';
import type { ConsoleEntry, ConsoleLevel, DialogRecord, NetworkEntry } from './records.js';
import type { RingBuffer } from './ring-buffer.js';
import type { EventBus } from './events.js';
import { observeTargetConsole } from './target-console.js';

export interface ObserverSink {
  pageId: string;
  sessionId: string;
  console: RingBuffer<ConsoleEntry>;
  network: RingBuffer<NetworkEntry>;
  events: EventBus;
  dialogPolicy(): 'accept' | 'dismiss' | 'report';
  onDialog(record: DialogRecord, dialog: Dialog): void;
  onRequest?(req: HTTPRequest, entry: NetworkEntry): void;
}

const LEVELS: Record<string, ConsoleLevel> = {
  log: 'log',
  info: 'info',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
  debug: 'debug',
  trace: 'debug',
  assert: 'error',
};

/** How brow's network policy settled a request (src/core/network): keyed by the request, so it goes with it. */
const routed = new WeakMap<HTTPRequest, { blocked_by: string } | { fulfilled_by: string }>();

/** Note that brow's network policy blocked or fulfilled `req`; its network entry says so when it ends. */
export function markRouted(req: HTTPRequest, mark: { blocked_by: string } | { fulfilled_by: string }): void {
  routed.set(req, mark);
}

/** Attach listeners; returns a function that detaches them. */
export function observePage(page: Page, sink: ObserverSink): () => void {
  const seqOf = new WeakMap<HTTPRequest, number>();
  const started = new WeakMap<HTTPRequest, number>();

  const direct = observeTargetConsole(page, (level, text, source) => {
    const entry = sink.console.push({
      page_id: sink.pageId,
      timestamp: Date.now(),
      level,
      text: text.slice(0, 10_000),
      ...(source ? { source } : {}),
    });
    sink.events.emit('console-event', sink.sessionId, { page_id: sink.pageId, entry });
  });
  const onConsole = (msg: ConsoleMessage): void => {
    if (direct.handles(msg)) return; // read from CDP already; what is left comes from workers
    const loc = msg.location();
    const entry = sink.console.push({
      page_id: sink.pageId,
      timestamp: Date.now(),
      level: LEVELS[msg.type()] ?? 'log',
      text: msg.text().slice(0, 10_000),
      ...(loc?.url ? { source: `${loc.url}:${(loc.lineNumber ?? 0) + 1}` } : {}),
    });
    sink.events.emit('console-event', sink.sessionId, { page_id: sink.pageId, entry });
  };
  const onPageError = (err: unknown): void => {
    const e = err instanceof Error ? err : new Error(String(err));
    const entry = sink.console.push({
      page_id: sink.pageId,
      timestamp: Date.now(),
      level: 'exception',
      text: (e.stack ?? e.message).slice(0, 10_000),
    });
    sink.events.emit('console-event', sink.sessionId, { page_id: sink.pageId, entry });
  };
  const onRequest = (req: HTTPRequest): void => {
    const entry = sink.network.push({
      page_id: sink.pageId,
      timestamp: Date.now(),
      method: req.method(),
      url: req.url(),
      resource_type: req.resourceType(),
      failed: false,
      pending: true,
    });
    seqOf.set(req, entry.seq);
    started.set(req, Date.now());
    sink.onRequest?.(req, entry);
  };
  const finish = (req: HTTPRequest, patch: Partial<NetworkEntry>): void => {
    const seq = seqOf.get(req);
    if (seq === undefined) return;
    const t0 = started.get(req) ?? Date.now();
    sink.network.update(seq, { ...patch, pending: false, duration_ms: Date.now() - t0 });
    const entry = sink.network.read((e) => e.seq === seq)[0];
    if (entry) sink.events.emit('network-event', sink.sessionId, { page_id: sink.pageId, entry });
  };
  const onFinished = (req: HTTPRequest): void => {
    const res = req.response();
    const status = res?.status();
    const mark = routed.get(req);
    finish(req, {
      ...(mark && 'fulfilled_by' in mark ? mark : {}),
      ...(status !== undefined ? { status } : {}),
      mime_type: res?.headers()['content-type']?.split(';')[0] ?? '',
      failed: status !== undefined && status >= 400,
    });
  };
  const onFailed = (req: HTTPRequest): void => {
    const res = req.response();
    const mark = routed.get(req);
    const blocked = mark && 'blocked_by' in mark ? mark.blocked_by : undefined;
    finish(req, {
      failed: true,
      error: blocked ? `blocked by ${blocked}` : (req.failure()?.errorText ?? 'failed'),
      ...(blocked ? { blocked_by: blocked } : {}),
      ...(res ? { status: res.status() } : {}),
    });
  };
  const onDialog = (dialog: Dialog): void => {
    const policy = dialog.type() === 'beforeunload' ? 'accept' : sink.dialogPolicy();
    const record: DialogRecord = {
      page_id: sink.pageId,
      type: dialog.type(),
      message: dialog.message().slice(0, 2000),
      ...(dialog.type() === 'prompt' ? { default_value: dialog.defaultValue() } : {}),
      handled: policy === 'report' ? 'pending' : policy === 'accept' ? 'accepted' : 'dismissed',
      timestamp: Date.now(),
    };
    if (policy === 'accept') void dialog.accept().catch(() => undefined);
    if (policy === 'dismiss') void dialog.dismiss().catch(() => undefined);
    sink.onDialog(record, dialog);
    sink.events.emit('dialog', sink.sessionId, { page_id: sink.pageId, dialog: record });
  };

  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('dialog', onDialog);
  return () => {
    direct.detach();
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
    page.off('dialog', onDialog);
  };
}
