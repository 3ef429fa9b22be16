/** `brow serve` (the built CLI) serves the console from dist, behind the same Host / Origin / token guard as the rest. */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let proc: ChildProcess;
let base = '';
const TOKEN = 'console-test-token';

beforeAll(async () => {
  proc = spawn(process.execPath, ['bin/brow.js', 'serve', '--port', '0', '--token', TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no console line in: ${out}`)), 20_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Web console: (http:\/\/[\d.:]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
});
afterAll(async () => {
  if (proc.exitCode === null) {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
});

describe('brow serve with the console', () => {
  it('serves the page with its modules mapped to carry the token, under a strict CSP', async () => {
    const res = await fetch(`${base}/?token=${TOKEN}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    const html = await res.text();
    expect(html).toContain(`"/console/static/app.js":"/console/static/app.js?token=${TOKEN}"`);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/); // nothing from elsewhere
    const js = await fetch(`${base}/console/static/viewport.js?token=${TOKEN}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    const overview = await (await fetch(`${base}/console/api/overview?token=${TOKEN}`)).json();
    expect(overview).toMatchObject({ ok: true, data: { sessions: [], handoffs: [] } });
  });

  it('refuses without the token, from another origin, or by another host name', async () => {
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/console/static/app.js`)).status).toBe(401);
    const foreign = await fetch(`${base}/console/api/overview?token=${TOKEN}`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // fetch will not send a Host of our choosing; a DNS-rebound page would
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${base}/console/api/overview?token=${TOKEN}`,
        { headers: { host: 'evil.example' } },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
  });

  it('serves only its own files', async () => {
    expect((await fetch(`${base}/console/static/..%2Froutes.js?token=${TOKEN}`)).status).toBe(404);
    expect((await fetch(`${base}/console/static/index.html?token=${TOKEN}`)).status).toBe(404);
    const bad = await fetch(`${base}/console/api/pages/p-x-1/pick?token=${TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 1, y: 1 }),
    });
    expect(bad.status).toBe(404);
    expect((await bad.json()).data.error_code).toBe('page_not_found');
  });
});
