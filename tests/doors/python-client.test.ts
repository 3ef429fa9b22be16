/**
 * The Python client (python/, `from sdk.tool import tool`) against a real `brow serve`: the code-mode
 * skill's snippets (seed 001) run with `python3` as written, only the example URL replaced by a fixture
 * page (and, where a snippet continues an earlier one, the `page_id` / ref the earlier output printed
 * given to it, as a model would). Covers open → read → list → fill → press → read, a labelled
 * screenshot, console and network reads, the error shape, a token, and `pip install ./python` offline.
 * The snippets import the package from python/ through PYTHONPATH; the install test uses a venv.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { buildOnce, configFile, ROOT, SETUP_MS, spawnServe, type Spawned } from './helpers.js';

const PYTHON = 'python3';
const hasPython = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasPython) console.warn('python-client tests skipped: no `python3` on PATH');

const PKG = join(ROOT, 'python');
const TOKEN = 'python-client-test-token';
const SEED_URL = 'https://example.com';

// ---- seed 001's snippets, copied as written -------------------------------------------------

/** "Default path": open, then read. */
const OPEN_AND_READ = `from sdk.tool import tool

page = tool.call("browser_open_page", {"url": "https://example.com"})
print(page.content)
if page.ok:
    page_id = page.data["page_id"]
    print(tool.call("browser_read_page", {"page_id": page_id}).content)
`;

/** "Find a control once": one interactive snapshot. */
const LIST = `snapshot = tool.call("browser_list_elements", {"page_id": page_id})
print(snapshot.content)
`;

/** "After reading the printed tree, continue with its exact ref". */
const FILL_PRESS_READ = `field_ref = "<exact-ref-from-snapshot-content>"
filled = tool.call("browser_fill", {
    "page_id": page_id,
    "ref": field_ref,
    "value": "example query",
})
print(filled.content)
if filled.ok:
    print(tool.call("browser_press", {"page_id": page_id, "key": "Enter"}).content)
    print(tool.call("browser_read_page", {"page_id": page_id}).content)
`;

/** "Wait and verify". */
const WAIT = `waited = tool.call("browser_wait", {
    "page_id": page_id,
    "condition": "text",
    "value": "Completed",
    "timeout_ms": 10000,
})
print(waited.content)
`;

// The seed's screenshot, console and network calls are in its cut-off part (SEED-DETAILS 001 · 2.2/2.3:
// `browser_screenshot({page_id, labels: True})` → data["label_to_ref"]; read_console / read_network
// → data["console_entries"] / data["network_entries"]), written here in the snippets' style.
const SCREENSHOT = `shot = tool.call("browser_screenshot", {"page_id": page_id, "labels": True})
print(shot.content)
if shot.ok:
    print(shot.data["label_to_ref"])
`;

const CONSOLE = `console = tool.call("browser_read_console", {"page_id": page_id})
print(console.content)
if console.ok:
    for entry in console.data["console_entries"]:
        print(entry["level"], entry["text"])
`;

const NETWORK = `network = tool.call("browser_read_network", {"page_id": page_id})
print(network.content)
if network.ok:
    for entry in network.data["network_entries"]:
        print(entry["method"], entry["url"], entry.get("status"))
`;

// ---- plumbing ---------------------------------------------------------------------------------

let fixtures: FixtureServer;
let open: Spawned;
let guarded: Spawned;
let tmp: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a Python script with python/ importable, against `url` (BROW_TOKEN only when given). Async: the
 * fixture server lives in this process, so a blocking spawn would keep it from answering the browser.
 */
function py(
  script: string,
  url: string,
  opts: { token?: string; python?: string; pythonpath?: boolean } = {},
): Promise<Run> {
  const file = join(tmp, `snippet-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, script);
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete env.BROW_TOKEN;
  delete env.BROW_CLIENT;
  delete env.PYTHONPATH;
  Object.assign(env, { BROW_URL: url, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' });
  if (opts.pythonpath !== false) env.PYTHONPATH = PKG;
  if (opts.token) env.BROW_TOKEN = opts.token;
  return new Promise((resolve) => {
    const proc = spawn(opts.python ?? PYTHON, [file], { cwd: tmp, env });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
    proc.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A snippet that continues an earlier one: the variables the earlier one set, as a model carries them. */
const carry = (vars: Record<string, string>, snippet: string) =>
  `from sdk.tool import tool\n${Object.entries(vars)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}\n`)
    .join('')}\n${snippet}`;

const pageIdOf = (out: string): string => {
  const m = /\b(p-[\w-]+)/.exec(out);
  if (!m) throw new Error(`no page id in:\n${out}`);
  return m[1]!;
};

function expectClean(r: Run): void {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

beforeAll(async () => {
  if (!hasPython) return;
  tmp = mkdtempSync(join(tmpdir(), 'brow-python-'));
  buildOnce();
  fixtures = await startFixtureServer();
  [open, guarded] = await Promise.all([
    spawnServe(['--config', configFile()]),
    spawnServe(['--config', configFile(), '--token', TOKEN]),
  ]);
}, SETUP_MS);

afterAll(async () => {
  await Promise.all([open?.stop(), guarded?.stop(), fixtures?.close()]);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!hasPython)('Python client: seed 001 snippets run as written', () => {
  it('open → read → list → fill → press → read', async () => {
    const url = fixtures.url('doors/search.html');
    const first = await py(OPEN_AND_READ.replace(SEED_URL, url), open.url);
    expectClean(first);
    expect(first.stdout).toMatch(/^Opened page p-/);
    expect(first.stdout).toContain('Find furniture and lighting in our catalogue.');
    const page_id = pageIdOf(first.stdout);

    const listed = await py(carry({ page_id }, LIST), open.url);
    expectClean(listed);
    const field = /\[textbox ref=(e\d+) [^\]]*actions=[^\]]*fill[^\]]*\] Search/.exec(listed.stdout);
    expect(field, listed.stdout).not.toBeNull();

    const script = carry(
      { page_id },
      FILL_PRESS_READ.replace('<exact-ref-from-snapshot-content>', field![1]!),
    );
    const acted = await py(script, open.url);
    expectClean(acted);
    // the press submitted the GET form: the read after it is the results page
    expect(acted.stdout).toContain('results for "example query"');
    expect(acted.stdout).not.toContain('Browser operation failed');
  }, 240_000);

  it('a labelled screenshot: data["label_to_ref"] maps labels to refs', async () => {
    const first = await py(OPEN_AND_READ.replace(SEED_URL, fixtures.url('doors/search.html')), open.url);
    expectClean(first);
    const page_id = pageIdOf(first.stdout);
    const check = `\nprint("images:", len(shot.images), shot.images[0]["mimeType"] if shot.images else None)\n`;
    const shot = await py(carry({ page_id }, SCREENSHOT + check), open.url);
    expectClean(shot);
    const map = /\{'A\d+': 'e\d+'.*\}/.exec(shot.stdout);
    expect(map, shot.stdout).not.toBeNull();
    expect(shot.stdout).toMatch(/images: 1 image\/\w+/);
  }, 240_000);

  it('console and network reads', async () => {
    const consolePage = await py(
      OPEN_AND_READ.replace(SEED_URL, fixtures.url('observe/console.html')),
      open.url,
    );
    expectClean(consolePage);
    const logs = await py(carry({ page_id: pageIdOf(consolePage.stdout) }, CONSOLE), open.url);
    expectClean(logs);
    expect(logs.stdout).toMatch(/^warning careful now$/m);
    expect(logs.stdout).toMatch(/^error something broke$/m);

    const networkPage = await py(
      OPEN_AND_READ.replace(SEED_URL, fixtures.url('observe/network.html')),
      open.url,
    );
    expectClean(networkPage);
    const page_id = pageIdOf(networkPage.stdout);
    // wait for the page's own fetch to come back before reading the requests
    const waited = await py(carry({ page_id }, WAIT.replace('"Completed"', '"echoed"')), open.url);
    expectClean(waited);
    expect(waited.stdout).not.toContain('Browser operation failed');
    const requests = await py(carry({ page_id }, NETWORK), open.url);
    expectClean(requests);
    expect(requests.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/status\?code=500 500$/m);
    expect(requests.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/echo 200$/m);
  }, 240_000);

  it('a failed call returns ok False with error_code, message and hint (it does not raise)', async () => {
    const script = `from sdk.tool import tool

page = tool.call("browser_open_page", {"url": ${JSON.stringify(fixtures.url('doors/search.html'))}})
page_id = page.data["page_id"]
missing = tool.call("browser_click", {"page_id": page_id, "ref": "e999"})
print("ok:", missing.ok)
print("name:", missing.name)
print("time:", isinstance(missing.execution_time, float) and missing.execution_time >= 0)
print("code:", missing.data["error_code"])
print("keys:", sorted(k for k in ("error_code", "message", "hint") if missing.data.get(k)))
print("dict:", missing["ok"], missing["data"]["error_code"], missing.get("nope", "-"))
print(missing.content)
`;
    const r = await py(script, open.url);
    expectClean(r);
    expect(r.stdout).toContain('ok: False\n');
    expect(r.stdout).toContain('name: browser_click\n');
    expect(r.stdout).toContain('time: True\n');
    expect(r.stdout).toContain('code: ref_not_found\n');
    expect(r.stdout).toContain("keys: ['error_code', 'hint', 'message']\n");
    expect(r.stdout).toContain('dict: False ref_not_found -\n');
    expect(r.stdout).toMatch(/^Browser operation failed \[ref_not_found\]: .+/m);
  }, 240_000);

  it('an unknown tool and a server that is not there are failed results too', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const script = `from sdk.tool import tool, ToolClient

r = tool.call("browser_teleport", {})
print(r.ok, r.data["error_code"])
gone = ToolClient(url="http://127.0.0.1:${port}").call("browser_list_pages")
print(gone.ok, gone.data["error_code"])
print(gone.content)
`;
    const r = await py(script, open.url);
    expectClean(r);
    expect(r.stdout).toContain('False invalid_request\n');
    expect(r.stdout).toContain('False connection_failed\n');
    expect(r.stdout).toMatch(/^Browser operation failed \[connection_failed\]: Cannot reach brow at/m);
  }, 120_000);

  it("the client's own failures: timeout, an answer that is not brow's, params that are not JSON", async () => {
    const hanging: { end(): void }[] = [];
    fixtures.route('/hang/v1/tools/browser_list_pages', (_req, res) => hanging.push(res));
    fixtures.route('/html/v1/tools/browser_list_pages', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>not brow</title>');
    });
    const script = `from sdk.tool import ToolClient, tool

slow = ToolClient(url=${JSON.stringify(`${fixtures.origin}/hang`)}).call("browser_list_pages", timeout=1)
print(slow.ok, slow.data["error_code"])
other = ToolClient(url=${JSON.stringify(`${fixtures.origin}/html`)}).call("browser_list_pages")
print(other.ok, other.data["error_code"])
print(other.content)
bad = tool.call("browser_open_page", {"url": {1, 2}})
print(bad.ok, bad.data["error_code"])
`;
    const r = await py(script, open.url);
    for (const res of hanging) res.end();
    expectClean(r);
    expect(r.stdout).toContain('False timeout\n');
    expect(r.stdout).toContain('False unexpected_error\n');
    expect(r.stdout).toMatch(/^Browser operation failed \[unexpected_error\]: HTTP 200 from .*not brow/m);
    expect(r.stdout).toContain('False invalid_request\n');
  }, 120_000);

  it('with a token: BROW_TOKEN is sent as a bearer token; without it the call fails with 401 as a result', async () => {
    const snippet = OPEN_AND_READ.replace(SEED_URL, fixtures.url('doors/search.html'));
    const withToken = await py(snippet, guarded.url, { token: TOKEN });
    expectClean(withToken);
    expect(withToken.stdout).toMatch(/^Opened page p-/);
    expect(withToken.stdout).toContain('Find furniture and lighting in our catalogue.');

    const without = await py(`${snippet}print(page.ok, page.data["error_code"])\n`, guarded.url);
    expectClean(without);
    expect(without.stdout).toMatch(/^Browser operation failed \[invalid_request\]: /);
    expect(without.stdout).toContain('False invalid_request\n');
  }, 240_000);
});

/** `pip install ./python` with no package index (as offline): needs `python3 -m venv` with pip. */
const venvProbe = hasPython
  ? spawnSync(PYTHON, ['-c', 'import venv, ensurepip'], { encoding: 'utf8' }).status === 0
  : false;
if (hasPython && !venvProbe) console.warn('pip install test skipped: python3 has no venv/ensurepip');

describe.skipIf(!venvProbe)('Python client: pip install ./python', () => {
  it('installs offline into a venv and the seed snippet runs without PYTHONPATH', async () => {
    const venv = join(tmp, 'venv');
    const made = spawnSync(PYTHON, ['-m', 'venv', venv], { encoding: 'utf8', timeout: 120_000 });
    expect(made.status, made.stderr).toBe(0);
    const vpy = join(venv, 'bin/python');
    expect(existsSync(vpy)).toBe(true);
    const installed = spawnSync(
      vpy,
      ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', '--no-cache-dir', PKG],
      { cwd: tmp, encoding: 'utf8', timeout: 180_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
    );
    expect(installed.status, `${installed.stdout}\n${installed.stderr}`).toBe(0);
    expect(installed.stdout).toContain('Successfully installed brow-sdk-');
    const r = await py(OPEN_AND_READ.replace(SEED_URL, fixtures.url('doors/search.html')), open.url, {
      python: vpy,
      pythonpath: false,
    });
    expectClean(r);
    expect(r.stdout).toMatch(/^Opened page p-/);
    const where = await py('import sdk\nprint(sdk.__file__)\n', open.url, { python: vpy, pythonpath: false });
    expect(where.stdout).toContain(join(venv, 'lib'));
  }, 300_000);
});
