/**
 * The origin lists for WebSocket. Chromium's Fetch domain and Network.setBlockedURLs do not see
 * WebSocket handshakes, so a script in every document of the page (main frame and iframes,
 * out-of-process ones too, through puppeteer's evaluateOnNewDocument) wraps `WebSocket`: a socket
 * to a refused origin throws SecurityError and is reported to the network log through a CDP
 * binding (on every target of the page). Not covered: WebSockets opened by workers, and a page that
 * kept a reference to the native constructor before the script ran (it runs first, so only by
 * another frame's realm).
 */
import { CDPSessionEvent, type CDPSession } from 'puppeteer-core';
import type { BrowPage } from '../session/page.js';
import { frameClient, pageClient } from '../browser/internals.js';
import { originVerdict, type OriginPolicy } from './policy.js';

const BINDING = '__browWsBlocked';

/** Runs in the page: install the guard once per realm, or update its policy. */
function guardMain(
  verdict: (url: string, p: OriginPolicy) => string | null,
  policy: OriginPolicy | null,
  binding: string,
): void {
  const g = globalThis as unknown as Record<string | symbol, unknown> & { WebSocket?: typeof WebSocket };
  const key = Symbol.for('brow.ws-guard');
  const existing = g[key] as { policy: OriginPolicy | null } | undefined;
  if (existing) {
    existing.policy = policy;
    return;
  }
  const Native = g.WebSocket;
  if (typeof Native !== 'function') return;
  const st = { policy };
  Object.defineProperty(g, key, { value: st });
  const guarded = new Proxy(Native, {
    construct(target, args: unknown[], newTarget) {
      let url = String(args[0]);
      try {
        url = new URL(url, location.href).href;
      } catch {
        // the native constructor reports a bad URL
      }
      const why = st.policy ? verdict(url, st.policy) : null;
      if (why) {
        try {
          (g[binding] as ((s: string) => void) | undefined)?.(JSON.stringify({ url, by: why }));
        } catch {
          // no binding in this realm: still blocked, just not logged
        }
        throw new DOMException(`WebSocket to ${url} blocked by brow (${why})`, 'SecurityError');
      }
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
  g.WebSocket = guarded;
  // `new WebSocket.prototype.constructor(url)` would otherwise reach the native one
  Object.defineProperty(Native.prototype, 'constructor', {
    value: guarded,
    writable: true,
    configurable: true,
  });
}

const scriptFor = (policy: OriginPolicy | null) =>
  `(${guardMain.toString()})(${originVerdict.toString()}, ${JSON.stringify(policy)}, ${JSON.stringify(BINDING)});`;

/** Install the guard on a page; `update` sets the policy for new documents and the current ones. */
export async function installWsGuard(page: BrowPage) {
  const session = page.session;
  const onBinding = (e: { name: string; payload: string }): void => {
    if (e.name !== BINDING) return;
    let info: { url?: unknown; by?: unknown };
    try {
      info = JSON.parse(e.payload) as typeof info;
    } catch {
      return;
    }
    if (typeof info.url !== 'string' || typeof info.by !== 'string') return;
    const entry = session.network.push({
      page_id: page.id,
      timestamp: Date.now(),
      method: 'GET',
      url: info.url.slice(0, 2000),
      resource_type: 'websocket',
      failed: true,
      error: `blocked by ${info.by}`,
      blocked_by: info.by,
      pending: false,
      duration_ms: 0,
    });
    session.events.emit('network-event', session.id, { page_id: page.id, entry });
  };
  page.cdp.on('Runtime.bindingCalled', onBinding);
  // bindings reach contexts created later (new documents) only with Runtime enabled
  await page.cdp.send('Runtime.enable');
  await page.cdp.send('Runtime.addBinding', { name: BINDING });
  // out-of-process iframes: the binding on puppeteer's session of each (Runtime is enabled there),
  // added as the session attaches so the first document has it
  const main = pageClient(page.raw);
  const bindChild = (child: CDPSession) => {
    child.on('Runtime.bindingCalled', onBinding);
    void child.send('Runtime.addBinding', { name: BINDING }).catch(() => undefined);
  };
  main.on(CDPSessionEvent.SessionAttached, bindChild);
  const children = new Set(page.raw.frames().map((f) => frameClient(f)));
  for (const c of children) if (c !== main && !c.detached) bindChild(c);
  let scriptId: string | null = null;
  return {
    async update(policy: OriginPolicy | null): Promise<void> {
      const old = scriptId;
      scriptId = (await page.raw.evaluateOnNewDocument(scriptFor(policy))).identifier;
      if (old) await page.raw.removeScriptToEvaluateOnNewDocument(old).catch(() => undefined);
      const source = scriptFor(policy);
      await Promise.all(page.raw.frames().map((f) => f.evaluate(source).catch(() => undefined)));
    },
  };
}
