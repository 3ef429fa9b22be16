/**
 * Console calls, uncaught exceptions and browser log entries read straight from each CDP session
 * of a page: the main target and every out-of-process (cross-origin) frame.
 *
 * Why not puppeteer's `console` event: it drops a frame's earliest messages when they arrive
 * before puppeteer has registered the frame's execution context (a race seen on iframes that log
 * while loading), it reports exceptions and log entries of the main target only, and it turns
 * every argument into a handle. Workers still come through puppeteer (see `handles`).
 */
import type { CDPSession, ConsoleMessage, Frame, Page, Protocol } from 'puppeteer-core';
import { consoleMessageTargetId, frameClient, frameIdOf } from '../browser/internals.js';
import type { ConsoleLevel } from './records.js';

export type PushEntry = (level: ConsoleLevel, text: string, source?: string) => void;

const API_LEVELS: Partial<Record<Protocol.Runtime.ConsoleAPICalledEvent['type'], ConsoleLevel>> = {
  log: 'log',
  info: 'info',
  warning: 'warning',
  error: 'error',
  assert: 'error',
  debug: 'debug',
  trace: 'debug',
  dir: 'log',
  dirxml: 'log',
  table: 'log',
  count: 'log',
  timeEnd: 'log',
  startGroup: 'log',
  startGroupCollapsed: 'log',
};

const clientOf = (f: Frame): CDPSession | undefined => frameClient(f);
const idOf = frameIdOf;

function previewValue(p: Protocol.Runtime.PropertyPreview): string {
  if (p.type === 'string') return JSON.stringify(p.value ?? '');
  return p.value ?? p.subtype ?? p.type;
}

/** A console argument as DevTools would print it, briefly. */
export function remoteText(o: Protocol.Runtime.RemoteObject): string {
  if (o.type === 'string') return String(o.value);
  if (o.unserializableValue) return o.unserializableValue;
  if (o.type === 'undefined') return 'undefined';
  if (o.subtype === 'null') return 'null';
  if (o.type !== 'object' && o.type !== 'function' && 'value' in o) return String(o.value);
  const p = o.preview;
  if (!p || o.subtype === 'error' || o.subtype === 'node' || o.type === 'function')
    return o.description ?? o.type;
  const array = p.subtype === 'array' || p.subtype === 'typedarray';
  const items = p.properties.map((q) => (array ? previewValue(q) : `${q.name}: ${previewValue(q)}`));
  const body = `${items.join(', ')}${p.overflow ? ', …' : ''}`;
  if (array) return `[${body}]`;
  const label = p.description && p.description !== 'Object' ? `${p.description} ` : '';
  return `${label}{${body}}`;
}

/** The text of a console call, with %s %d %i %f %o %O %c applied like a browser console. */
export function consoleText(args: Protocol.Runtime.RemoteObject[]): string {
  const parts = args.map(remoteText);
  const first = args[0];
  if (!first || first.type !== 'string' || args.length < 2 || !/%[sdifoOc]/.test(parts[0]!))
    return parts.join(' ');
  let i = 1;
  const head = parts[0]!.replace(/%([sdifoOc%])/g, (m, c: string) => {
    if (c === '%') return '%';
    if (i >= parts.length) return m;
    const v = parts[i++]!;
    if (c === 'c') return '';
    if (c === 'd' || c === 'i') return String(parseInt(v, 10));
    if (c === 'f') return String(parseFloat(v));
    return v;
  });
  return [head, ...parts.slice(i)].join(' ');
}

const where = (url: string | undefined, line: number | undefined) =>
  url ? `${url}:${(line ?? 0) + 1}` : undefined;

/** Listen on the page's CDP sessions; `handles(msg)` says a puppeteer message was already taken from CDP. */
export function observeTargetConsole(
  page: Page,
  push: PushEntry,
): { handles(msg: ConsoleMessage): boolean; detach(): void } {
  const hooked = new Map<CDPSession, () => void>();
  const direct = new Set<string>();

  const hook = (frame: Frame): void => {
    const client = clientOf(frame);
    if (!client) return;
    // a frame with its own session is a target of its own: its id is the target id
    const isMain = frame === page.mainFrame();
    if (isMain || clientOf(frame.parentFrame() ?? frame) !== client) direct.add(idOf(frame));
    if (hooked.has(client)) return;
    const onApi = (e: Protocol.Runtime.ConsoleAPICalledEvent) => {
      const level = API_LEVELS[e.type];
      if (!level) return;
      const top = e.stackTrace?.callFrames[0];
      push(level, consoleText(e.args), where(top?.url, top?.lineNumber));
    };
    const onLog = (e: Protocol.Log.EntryAddedEvent) => {
      const l = e.entry;
      if (l.source === 'worker') return;
      push(l.level === 'verbose' ? 'debug' : l.level, l.text, where(l.url, l.lineNumber));
    };
    // the main target's exceptions come through puppeteer's `pageerror` (which also covers workers)
    const onException = (e: Protocol.Runtime.ExceptionThrownEvent) => {
      const d = e.exceptionDetails;
      push('exception', d.exception?.description ?? d.text, where(d.url, d.lineNumber));
    };
    client.on('Runtime.consoleAPICalled', onApi);
    client.on('Log.entryAdded', onLog);
    if (!isMain) {
      client.on('Runtime.exceptionThrown', onException);
      // puppeteer enables Log on the main target only; enabling replays what was logged so far
      void client.send('Log.enable').catch(() => undefined);
    }
    hooked.set(client, () => {
      client.off('Runtime.consoleAPICalled', onApi);
      client.off('Log.entryAdded', onLog);
      client.off('Runtime.exceptionThrown', onException);
    });
  };

  hook(page.mainFrame());
  for (const f of page.frames()) hook(f);
  page.on('frameattached', hook);
  page.on('framenavigated', hook);
  return {
    handles: (msg) => {
      const target = consoleMessageTargetId(msg);
      return target !== undefined && direct.has(target);
    },
    detach: () => {
      page.off('frameattached', hook);
      page.off('framenavigated', hook);
      for (const off of hooked.values()) off();
      hooked.clear();
    },
  };
}
