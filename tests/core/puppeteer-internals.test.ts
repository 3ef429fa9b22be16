/**
 * brow reads a few of puppeteer's private fields (src/core/browser/internals.ts). This test calls
 * every accessor against real Chromium, so a puppeteer upgrade that moves one fails here, loudly
 * and by name, instead of somewhere deep in a snapshot or a page record.
 */
import { Connection } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PuppeteerInternalsChanged,
  consoleMessageTargetId,
  frameClient,
  frameIdOf,
  pageClient,
  pageTargetId,
  parentSession,
  requestInterceptionId,
  sessionTarget,
  setFrameClient,
  setRequestClient,
  targetIdOf,
  targetInfo,
  targetSession,
  wrapConnectionSend,
} from '../../src/core/browser/internals.js';
import { harness, type Harness } from '../helpers.js';
import { eventually } from '../scale.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

describe("puppeteer's internals brow relies on", () => {
  it('every accessor answers the right kind of value on a real page', async () => {
    const pageId = await h.open('faults/plain.html');
    const page = h.rt.core.findPage(pageId)!;
    const raw = page.raw;
    const target = raw.target();
    const tid = pageTargetId(raw);
    expect(tid).toMatch(/^[0-9A-F]{32}$/);
    expect(targetIdOf(target)).toBe(tid);
    // the main frame's id is the tab's target id
    expect(frameIdOf(raw.mainFrame())).toBe(tid);
    const client = frameClient(raw.mainFrame());
    expect(typeof client.send).toBe('function');
    expect(pageClient(raw)).toBe(client);
    expect(targetSession(target)).toBe(client);
    const info = targetInfo(target);
    expect(info.url).toBe(raw.url());
    expect(typeof info.title).toBe('string');
    // a session knows its target, and the session it was attached through
    expect(sessionTarget(client)).toBe(target);
    expect(typeof parentSession(client)?.send).toBe('function');
    // every command goes through Connection._rawSend, which a wrapper can watch
    const sent: string[] = [];
    const key = Symbol('brow.test.rawSend');
    expect(
      wrapConnectionSend(
        Connection,
        key,
        (original) =>
          function (this: Connection, callbacks, method, params, sessionId, options) {
            sent.push(method);
            return original.call(this, callbacks, method, params, sessionId, options);
          },
      ),
    ).toBe(true);
    expect(wrapConnectionSend(Connection, key, (original) => original)).toBe(false);
    await client.send('Runtime.evaluate', { expression: '1' });
    expect(sent).toContain('Runtime.evaluate');
    // updateClient is there (set the same client back: a no-op)
    setFrameClient(raw.mainFrame(), client);
    const messages: unknown[] = [];
    raw.on('console', (m) => messages.push(m));
    await raw.evaluate(() => console.log('hello'));
    // the console event comes after evaluate answers: wait for it, not for a fixed 100 ms
    expect(await eventually(() => messages.length > 0, 5000)).toBe(true);
    // a top-level message may carry no target id; the accessor must answer without throwing
    expect(['string', 'undefined']).toContain(typeof consoleMessageTargetId(messages[0] as object));
    // a request paused by interception carries its id, and its client can be pointed elsewhere
    await raw.setRequestInterception(true);
    const seen = new Promise<string | undefined>((resolve) => {
      raw.once('request', (req) => {
        const id = requestInterceptionId(req);
        setRequestClient(req, client);
        void req.continue();
        resolve(id);
      });
    });
    await raw.evaluate(() => void fetch('/faults/plain.html'));
    expect(await seen).toMatch(/^interception-/);
    await raw.setRequestInterception(false);
    // the page record names the same target
    const listed = await h.ok('browser_list_pages', {});
    expect(listed.pages.find((p: any) => p.page_id === pageId).target_id).toBe(tid);
  });

  it('a missing field fails loudly, naming it', () => {
    expect(() => targetIdOf({})).toThrow(PuppeteerInternalsChanged);
    expect(() => frameIdOf({} as never)).toThrow(/Frame\._id/);
    expect(() => parentSession({} as never)).toThrow(/CDPSession\.parentSession/);
    expect(() => sessionTarget({} as never)).toThrow(/CDPSession\.target/);
    expect(() => wrapConnectionSend({ prototype: {} } as never, Symbol('x'), (o) => o)).toThrow(
      /Connection\.prototype\._rawSend/,
    );
  });
});
