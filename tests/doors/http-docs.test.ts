/**
 * docs/http.md against a real `brow serve`, so the page cannot drift: every `curl` line annotated
 * `# → <status> [ok:true|ok:false [error_code]]` runs (translated to fetch: -X, -H, -d and the URL,
 * nothing else) and must answer as annotated; the Python and TypeScript examples run as written;
 * the event stream's format, the status table's other rows and the endpoint list are checked here too.
 * The doc's `curl` lines under "## The token" go to a server started with --token, the rest to one
 * without; `http://127.0.0.1:7777` (in the URL and the body) becomes the address the server printed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/runtime/runtime.js';
import { buildOnce, ROOT, SETUP_MS, spawnServe, type Spawned } from './helpers.js';

const DOC = readFileSync(join(ROOT, 'docs/http.md'), 'utf8');
const DOC_BASE = 'http://127.0.0.1:7777';
const TOKEN = 'http-docs-test-token';

/** The doc's `## ` sections. */
const sections = DOC.split(/\n## /)
  .slice(1)
  .map((part) => ({ heading: part.slice(0, part.indexOf('\n')).trim(), body: part }));

const fences = (body: string, lang: string): string[] =>
  [...body.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** Shell words of one command line: '…' literal, "…" with $VAR, bare words with $VAR. */
function shellWords(line: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  const expand = (s: string) => s.replace(/\$(\w+)/g, (_, v: string) => vars[v] ?? '');
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let word = '';
  let last = -1;
  for (const m of line.matchAll(re)) {
    // pieces with no space between them make one word (e.g. -H"x"), rare in the doc but handled
    if (last >= 0 && m.index !== last) {
      words.push(word);
      word = '';
    }
    word += m[1] ?? expand((m[2] ?? m[3]!).replace(/\\(.)/g, '$1'));
    last = m.index + m[0].length;
  }
  if (last >= 0) words.push(word);
  return words;
}

interface Curl {
  section: string;
  line: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  expect: { status: number; ok?: boolean; code?: string };
}

function parseCurls(vars: Record<string, string>): Curl[] {
  const out: Curl[] = [];
  for (const { heading, body } of sections) {
    for (const block of fences(body, 'sh')) {
      const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
      for (const raw of lines.filter((l) => l.startsWith('curl '))) {
        const m = /\s+# → (\d{3})(?: ok:(true|false))?(?: (\w+))?\s*$/.exec(raw);
        if (!m) throw new Error(`curl line without "# → <status>" in ${heading}: ${raw}`);
        const words = shellWords(raw.slice(0, m.index), vars);
        const curl: Curl = {
          section: heading,
          line: raw.slice(0, m.index).trim(),
          method: '',
          url: '',
          headers: {},
          expect: {
            status: Number(m[1]),
            ...(m[2] ? { ok: m[2] === 'true' } : {}),
            ...(m[3] ? { code: m[3] } : {}),
          },
        };
        for (let i = 1; i < words.length; i++) {
          const w = words[i]!;
          if (w === '-X') curl.method = words[++i]!;
          else if (w === '-H') {
            const h = words[++i]!;
            const colon = h.indexOf(':');
            curl.headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
          } else if (w === '-d') curl.body = words[++i]!;
          else if (w === '-s' || w === '-N') continue;
          else if (/^https?:\/\//.test(w)) curl.url = w;
          else throw new Error(`curl option the test does not translate: ${w} in ${raw}`);
        }
        curl.method ||= curl.body === undefined ? 'GET' : 'POST';
        out.push(curl);
      }
    }
  }
  return out;
}

const curls = parseCurls({ BROW_TOKEN: TOKEN });

let open: Spawned;
let guarded: Spawned;
let capped: Spawned;
const tmp = mkdtempSync(join(tmpdir(), 'brow-http-docs-'));

beforeAll(async () => {
  buildOnce();
  [open, guarded, capped] = await Promise.all([
    spawnServe(),
    spawnServe(['--token', TOKEN]),
    spawnServe(['--caps=-styles']),
  ]);
}, SETUP_MS);
afterAll(async () => {
  await Promise.all([open?.stop(), guarded?.stop(), capped?.stop()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** Read a server-sent event stream until `until` holds for what arrived (or the time is up), then close it. */
async function readStream(res: Response, until: (text: string) => boolean, ms = 20_000): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), ms);
  try {
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

/**
 * Run an example to its end without blocking this process (a spawnSync would stall the test's own
 * fetch: its idle kept-alive sockets could not be dropped meanwhile, and the next call would reuse
 * one the server had closed). Killed after `ms`.
 */
function runExample(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ms = 90_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * POST a tool call. No retry: the server holds an idle kept-alive socket longer than it tells fetch
 * to (src/doors/http/server.ts), so fetch never reuses one the server is closing.
 */
const post = (base: string, tool: string, body: unknown = {}): Promise<Response> =>
  fetch(`${base}/v1/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('docs/http.md', () => {
  it('has curl examples for every endpoint it lists, in each section that matters', () => {
    const paths = curls.map((c) => new URL(c.url).pathname);
    for (const p of ['/healthz', '/v1/tools', '/v1/tools/browser_open_page', '/v1/events', '/mcp'])
      expect(paths).toContain(p);
    expect(curls.some((c) => c.section === 'The token' && c.expect.status === 401)).toBe(true);
    expect(curls.some((c) => c.expect.status === 200 && c.expect.ok === false)).toBe(true);
  });

  it.each(curls.map((c) => [`${c.line} → ${c.expect.status}`, c] as const))(
    '%s',
    async (_name, c) => {
      const server = c.section === 'The token' ? guarded : open;
      const res = await fetch(c.url.replace(DOC_BASE, server.url), {
        method: c.method,
        headers: c.headers,
        ...(c.body === undefined ? {} : { body: c.body.replaceAll(DOC_BASE, server.url) }),
      });
      expect(res.status).toBe(c.expect.status);
      if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const text = await readStream(res, (t) => t.includes('\n\n'));
        expect(text).toMatch(/^(: brow events|event: message)/);
        if (new URL(c.url).pathname === '/mcp') expect(res.headers.get('mcp-session-id')).toBeTruthy();
        return;
      }
      const body = (await res.json()) as { ok?: boolean; data?: { error_code?: string } };
      if (c.expect.ok !== undefined) expect(body.ok, JSON.stringify(body).slice(0, 600)).toBe(c.expect.ok);
      if (c.expect.code) expect(body.data?.error_code).toBe(c.expect.code);
      // every refusal has the tool API's own shape
      if (body.ok === false)
        expect(body.data).toMatchObject({ message: expect.any(String), hint: expect.any(String) });
    },
    120_000,
  );

  it('the failure body printed in the doc is what the server sends', async () => {
    const printed = JSON.parse(fences(DOC, 'json')[0]!) as unknown;
    const res = await post(open.url, 'browser_teleport');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(printed);
  });

  it('GET /v1/tools lists each tool with the fields the doc names', async () => {
    const { tools } = (await (await fetch(`${open.url}/v1/tools`)).json()) as {
      tools: Record<string, unknown>[];
    };
    expect(tools.length).toBeGreaterThan(10);
    for (const t of tools)
      expect(Object.keys(t).sort()).toEqual([
        'annotations',
        'description',
        'group',
        'input_schema',
        'name',
        'title',
      ]);
  });

  it('a tool turned off by --caps answers 200 ok:false capability_unavailable', async () => {
    const res = await post(capped.url, 'browser_read_styles', { ref: 'e1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, data: { error_code: 'capability_unavailable' } });
  });

  it('the status table: 413 for a body over 10 MiB, 403 for a foreign Host or a cross-site request', async () => {
    // the server answers 413 as soon as the body passes 10 MiB: read that answer, ignore the broken pipe after it
    const big = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${open.url}/v1/tools/browser_list_pages`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', (e) => setTimeout(() => reject(e), 2000));
      req.end(JSON.stringify({ pad: 'x'.repeat(10 * 1024 * 1024 + 1) }));
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ ok: false, data: { error_code: 'invalid_request' } });
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(`${open.url}/healthz`, { headers: { host: 'evil.example' } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const crossSite = await fetch(`${open.url}/healthz`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });

  it('/v1/events: the comment, then id <session>:<seq>, event <type>, data one line of JSON, as printed', async () => {
    const printed = /```text\n(id: [\s\S]*?)\n```/.exec(DOC)![1]!;
    const printedData = JSON.parse(/^data: (.*)$/m.exec(printed)![1]!) as Record<string, unknown>;
    const stream = await fetch(`${open.url}/v1/events?types=navigated`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reading = readStream(stream, (t) => /\nevent: navigated\n/.test(t));
    const opened = (await (
      await post(open.url, 'browser_open_page', { url: `${open.url}/demo` })
    ).json()) as {
      ok: boolean;
      data: { page_id: string; session_id: string };
    };
    expect(opened.ok).toBe(true);
    const text = await reading;
    expect(text.startsWith(': brow events\n\n')).toBe(true);
    const block = text.split('\n\n').find((b) => b.includes('event: navigated'))!;
    const [id, event, data] = block.split('\n');
    const e = JSON.parse(data!.slice('data: '.length)) as Record<string, unknown>;
    expect(event).toBe('event: navigated');
    expect(id).toBe(`id: ${String(e.session_id)}:${String(e.seq)}`);
    expect(Object.keys(e)).toEqual(Object.keys(printedData));
    expect(e).toMatchObject({ type: 'navigated', page_id: opened.data.page_id, url: `${open.url}/demo` });

    // since_seq replays what happened before the reader connected
    const replay = await fetch(
      `${open.url}/v1/events?session_id=${String(e.session_id)}&types=navigated&since_seq=0`,
    );
    expect(
      await readStream(replay, (t) => t.includes(`id: ${String(e.session_id)}:${String(e.seq)}`)),
    ).toContain(`"seq":${String(e.seq)}`);
  }, 60_000);

  it('/v1/events: the types the doc lists, and 400 for an unknown type or a bad since_seq', async () => {
    const listed = /The types: ([\s\S]*?)\. An unknown type/.exec(DOC)![1]!;
    expect([...listed.matchAll(/`([\w-]+)`/g)].map((m) => m[1])).toEqual([...EVENT_TYPES]);
    for (const q of ['types=teleported', 'since_seq=-1']) {
      const res = await fetch(`${open.url}/v1/events?${q}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ ok: false, data: { error_code: 'invalid_request' } });
    }
  });

  it('the token: the /mcp endpoint and the event stream need it too', async () => {
    expect((await fetch(`${guarded.url}/v1/events`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
    const withQuery = await fetch(`${guarded.url}/v1/events?token=${TOKEN}`);
    expect(withQuery.status).toBe(200);
    await withQuery.body?.cancel();
  });

  it('the Python example runs as written (stdlib only)', async () => {
    const file = join(tmp, 'example.py');
    writeFileSync(file, fences(DOC, 'python')[0]!);
    const r = await runExample('python3', [file], { BROW_URL: open.url, BROW_TOKEN: '' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Opened page p-/);
    expect(r.stdout).toMatch(/\[textbox ref=e\d+ [^\]]*\] Query/);
    expect(r.stdout).toMatch(/ref_not_found - /);
  }, 120_000);

  /** A ```ts block of the doc as an ES module node can run (types stripped by TypeScript). */
  const tsModule = (source: string): string => {
    const file = join(tmp, `example-${Math.random().toString(36).slice(2)}.mjs`);
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(file, js);
    return file;
  };
  const tsBlocks = fences(DOC, 'ts');

  it('the TypeScript example runs as written', async () => {
    const r = await runExample(process.execPath, [tsModule(tsBlocks[0]!)], {
      BROW_URL: open.url,
      BROW_TOKEN: '',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Opened page p-/);
    expect(r.stdout).toMatch(/ref_not_found - /);
  }, 120_000);

  it('the TypeScript event reader prints events as they come', async () => {
    // the reader uses BASE and TOKEN from the example before it
    const prelude = tsBlocks[0]!.split('\n').slice(0, 2).join('\n');
    expect(prelude).toMatch(/^const BASE[\s\S]*const TOKEN/);
    const proc = spawn(process.execPath, [tsModule(`${prelude}\n${tsBlocks[1]!}`)], {
      env: { ...process.env, BROW_URL: open.url, BROW_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      // it connects at some point after spawning: navigate until it has printed one
      for (let i = 0; i < 30 && !out.includes("type: 'navigated'"); i++) {
        await post(open.url, 'browser_navigate', { url: `${open.url}/demo?visit=${i}` });
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(out).toContain("type: 'navigated'");
    } finally {
      proc.kill('SIGTERM');
    }
  }, 60_000);
});
