/**
 * The README's first two commands from a checkout are what a newcomer to the code runs:
 * `npm install && npm run demo` must work in a fresh clone, and `npm install && npm test` must be what
 * CI runs. The demo one runs here for real in a temporary clone of HEAD on a free port; the test one is
 * only checked (running it would recurse).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../doors/helpers.js';
import { until } from './helpers.js';

/**
 * The shell commands of the first ```sh block under the README's "From a checkout" (the README leads
 * with the installed package, `npx brow mcp`; a checkout's setup comes second), comments dropped.
 */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /^## From a checkout\n[^#]*?```sh\n([\s\S]*?)```/m.exec(readme);
  if (!block) throw new Error('README.md has no ```sh block under "## From a checkout"');
  return block[1]!
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** `a && b` → ['a', 'b'], each an npm invocation. */
const steps = (command: string) => command.split('&&').map((s) => s.trim());

describe("the README's first commands", () => {
  const commands = readmeCommands();
  let clone: string | null = null;
  let demo: ChildProcess | null = null;

  afterAll(async () => {
    if (demo?.pid && demo.exitCode === null) {
      try {
        process.kill(-demo.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // node_modules of the clone is large: removing it takes a while on a busy machine
    if (clone) rmSync(clone, { recursive: true, force: true });
  }, 300_000);

  it('are the demo and the test command, first', () => {
    expect(commands.slice(0, 2)).toEqual(['npm install && npm run demo', 'npm install && npm test']);
  });

  it('the test command is the package test script, and CI runs it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(steps(commands[1]!)).toEqual(['npm install', 'npm test']);
    expect(pkg.scripts.test).toMatch(/vitest run/);
    expect(pkg.scripts.test).toMatch(/setup\.mjs/);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
  });

  it('the demo command works in a fresh clone: the demo page and the tool API answer', async () => {
    expect(steps(commands[0]!)).toEqual(['npm install', 'npm run demo']);
    clone = mkdtempSync(join(tmpdir(), 'brow-readme-'));
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], { stdio: 'pipe' });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BROW_RUNTIME_DIR: join(clone, '.run'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    // run as a person would, not as a child of this npm run
    for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      env,
      stdio: 'pipe',
      timeout: 540_000,
    });

    const port = await freePort();
    let output = '';
    demo = spawn('npm', ['run', 'demo'], {
      cwd: clone,
      env: { ...env, BROW_PORT: String(port) },
      detached: true,
    });
    demo.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    demo.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const base = `http://127.0.0.1:${port}`;
    const up = await until(
      async () => (await fetch(`${base}/demo`).catch(() => null))?.ok === true || demo!.exitCode !== null,
      180_000,
      250,
    );
    expect(up && demo.exitCode === null, output).toBe(true);
    expect(await (await fetch(`${base}/demo`)).text()).toContain('<title>brow demo</title>');
    // the demo opens its page; the README's next step lists its elements
    await until(() => output.includes('Opened page'), 60_000);
    const res = await fetch(`${base}/v1/tools/browser_list_elements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const answer = (await res.json()) as { ok: boolean; content: string };
    expect(answer.ok, answer.content).toBe(true);
    expect(answer.content).toContain('brow demo');
    expect(answer.content).toMatch(/\[button ref=e\d+[^\]]*\] Search/);

    const exited = new Promise((r) => demo!.once('exit', r));
    process.kill(-demo.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }, 900_000);
});
