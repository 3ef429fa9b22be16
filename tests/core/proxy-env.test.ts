/**
 * Seed 000's proxy variables reach the browser brow launches: PUPPETEER_PROXY routes page loads
 * through a proxy (here a small forward proxy of the test's own, on 127.0.0.1), and
 * PUPPETEER_PROXY_BYPASS_LOOPBACK sends loopback addresses through it too.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { proxyFlags } from '../../src/core/browser/launch.js';

let proxy: Server;
const seen: string[] = [];
let h: Harness;

beforeAll(async () => {
  // a forward proxy: answers a made-up host itself, forwards the rest
  proxy = createServer((req, res) => {
    seen.push(req.url ?? '');
    const target = new URL(req.url ?? '/');
    if (target.hostname === 'only-through-the-proxy.test') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<title>Via proxy</title><button>Proxied button</button>');
      return;
    }
    const up = request(target, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  process.env.PUPPETEER_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env.PUPPETEER_PROXY_BYPASS_LOOPBACK = '1';
  h = await harness();
});

afterAll(async () => {
  delete process.env.PUPPETEER_PROXY;
  delete process.env.PUPPETEER_PROXY_BYPASS_LOOPBACK;
  await h?.close();
  await new Promise((r) => proxy.close(r));
});

describe('PUPPETEER_PROXY*', () => {
  it('maps the variables to Chromium flags', () => {
    expect(proxyFlags({})).toEqual([]);
    expect(
      proxyFlags({
        PUPPETEER_PROXY: 'http://p:3128',
        PUPPETEER_PROXY_BYPASS_LOOPBACK: 'true',
        PUPPETEER_PROXY_IGNORE_CERT_ERRORS: '1',
      }),
    ).toEqual([
      '--proxy-server=http://p:3128',
      '--proxy-bypass-list=<-loopback>',
      '--ignore-certificate-errors',
    ]);
    expect(proxyFlags({ PUPPETEER_PROXY: 'http://p:3128', PUPPETEER_PROXY_BYPASS_LOOPBACK: '0' })).toEqual([
      '--proxy-server=http://p:3128',
    ]);
  });

  it('pages load through the proxy, loopback included', async () => {
    const pageId = (await h.ok('browser_open_page', { url: 'http://only-through-the-proxy.test/' })).page_id;
    const refs = await h.refs(pageId);
    expect(refs.some((r: any) => r.role === 'button' && r.accessible_name === 'Proxied button')).toBe(true);
    const fixture = h.server.url('core/form.html');
    await h.ok('browser_navigate', { page_id: pageId, url: fixture });
    expect(seen).toContain('http://only-through-the-proxy.test/');
    expect(seen).toContain(fixture);
  });
});
