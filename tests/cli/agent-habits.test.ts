/**
 * The CLI as people (and agents coming from agent-browser) type it: global flags before the command,
 * --version, `snapshot -i`, `click @e1`, hints that name brow commands, zsh and fish completion, a
 * status line while the daemon starts, pages that live as long as the daemon, and a gone page that
 * says why it went.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { BusError } from '../../src/doors/bus/errors.js';
import { parseArgs } from '../../src/doors/cli/argv.js';
import { capabilityCommands, commandName } from '../../src/doors/cli/commands.js';
import { forCli, main, snapshotArgs, splitCommand } from '../../src/doors/cli/main.js';
import { doorName, renderHint, setDoorNames } from '../../src/runtime/door-names.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ROOT } from '../doors/helpers.js';
import { scaled } from '../scale.js';
import { buildOnce, childPids, cliEnv, runBrow, until, type CliEnv } from './helpers.js';

vi.setConfig({ testTimeout: 180_000 });

/** Run main() in this process (no daemon is reachable: a private, empty runtime dir). */
async function brow(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

const has = (cmd: string) => {
  try {
    execFileSync('which', [cmd], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('the command line as people type it (no daemon)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brow-habits-unit-'));
  const before = process.env.BROW_RUNTIME_DIR;
  beforeAll(() => void (process.env.BROW_RUNTIME_DIR = dir));
  afterAll(() => {
    if (before === undefined) delete process.env.BROW_RUNTIME_DIR;
    else process.env.BROW_RUNTIME_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it('global flags before the command go with it', async () => {
    expect(splitCommand(['--session', 'x', 'open-page', 'https://a.test'])).toEqual({
      command: 'open-page',
      rest: ['--session', 'x', 'https://a.test'],
      leading: ['--session', 'x'],
    });
    expect(splitCommand(['--json', '--session=w', '--idle-timeout', '2s', 'list-pages']).command).toBe(
      'list-pages',
    );
    const spec = capabilityCommands().get('open-page')!;
    const { command, rest } = splitCommand(['--session', 'x', '--json', 'open-page', 'https://a.test']);
    expect(command).toBe('open-page');
    const r = parseArgs('open-page', spec.fields, rest);
    expect(r.globals).toMatchObject({ session: 'x', json: true });
    expect(r.input).toEqual({ url: 'https://a.test' });
    // help and usage errors work with the flags first too
    expect((await brow('--session', 'x', 'click', '--help')).out).toContain('Usage: brow click REF');
    const bad = await brow('--session', '../x', 'list-pages');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not a usable session name');
    const unknown = await brow('--buton', 'click');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/brow has no global flag --buton/);
  });

  it('--version and -V print the version in package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await brow(flag);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${version}\n`);
    }
  });

  it('snapshot is list-elements: whole page, -i interactive, -c outline, -d N depth', async () => {
    expect(snapshotArgs([])).toEqual(['--scope', 'full']);
    expect(snapshotArgs(['-i'])).toEqual(['--scope', 'interactive']);
    expect(snapshotArgs(['-c'])).toEqual(['--scope', 'full', '--format', 'outline']);
    expect(snapshotArgs(['-ic', '--json'])).toEqual([
      '--scope',
      'interactive',
      '--format',
      'outline',
      '--json',
    ]);
    expect(snapshotArgs(['--scope', 'viewport'])).toEqual(['--scope', 'viewport']);
    expect(snapshotArgs(['-d', '3'])).toEqual(['--scope', 'full', '--depth', '3']);
    expect(snapshotArgs(['-i', '-d2'])).toEqual(['--scope', 'interactive', '--depth', '2']);
    expect(snapshotArgs(['-id', '0'])).toEqual(['--scope', 'interactive', '--depth', '0']);
    const d = await brow('snapshot', '-d', 'deep');
    expect(d.code).toBe(ERROR_TABLE.invalid_request.exit);
    expect(d.err).toMatch(/\[invalid_request\].*-d needs a number/);
    const help = await brow('snapshot', '--help');
    expect(help.out).toContain('Usage: brow snapshot [-i] [-c] [-d N]');
    expect(help.out).toContain('Usage: brow list-elements');
  });

  it('@e1 is e1 wherever a ref goes (ref, to_ref)', () => {
    const parse = (command: string, ...argv: string[]) =>
      parseArgs(command, capabilityCommands().get(command)!.fields, argv).input;
    expect(parse('click', '@e1')).toEqual({ ref: 'e1' });
    expect(parse('drag', '@e1', '@e7')).toEqual({ ref: 'e1', to_ref: 'e7' });
    expect(parse('drag', '@e1', '--to-ref', '@e2')).toEqual({ ref: 'e1', to_ref: 'e2' });
    expect(parse('click', '--input-json', '{"ref":"@e4"}')).toEqual({ ref: 'e4' });
    // only ref fields: a value that starts with @ stays
    expect(parse('fill', '@e5', '@handle')).toEqual({ ref: 'e5', value: '@handle' });
  });

  it('one table names each capability per door; hints name brow commands in the CLI only', () => {
    for (const c of capabilities) {
      expect(doorName(c.name, 'cli')).toBe(`brow ${commandName(c.name)}`);
      expect(doorName(c.name, 'mcp')).toBe(c.name);
      expect(doorName(c.name, 'http')).toBe(c.name);
    }
    const hint = 'Answer the dialog with browser_handle_dialog first; browser_nosuch stays.';
    expect(renderHint(hint, 'cli')).toBe(
      'Answer the dialog with brow handle-dialog first; browser_nosuch stays.',
    );
    expect(renderHint(hint, 'mcp')).toBe(hint);
    expect(renderHint(hint, 'http')).toBe(hint);
    const o = forCli({
      ok: false,
      content: `Browser operation failed [dialog_blocking]: A dialog is open. ${hint}`,
      data: { error_code: 'dialog_blocking', message: 'A dialog is open.', hint },
    });
    expect(o.content).toContain('brow handle-dialog');
    expect(o.ok || o.data.hint).toContain('brow handle-dialog');
    // the bus renders through the same function, with the names its function table registers
    setDoorNames('bus', [['browser_handle_dialog', 'browser::dialog::handle']]);
    const bus = BusError.from({
      ok: false,
      content: '',
      data: { error_code: 'dialog_blocking', message: 'A dialog is open.', hint },
    });
    expect(bus.message).toContain('browser::dialog::handle');
  });

  it.each(['bash', 'zsh', 'fish'])('brow completion %s writes a script the shell parses', async (shell) => {
    const r = await brow('completion', shell);
    expect(r.code).toBe(0);
    for (const word of ['open-page', 'snapshot', 'click-count', 'daemon'])
      expect(r.out, `${shell}: ${word}`).toContain(word);
    const file = join(dir, `brow.${shell}`);
    writeFileSync(file, r.out);
    if (shell === 'fish' && !has('fish')) return; // fish is not installed here: produced, not parsed
    if (shell === 'zsh' && !has('zsh')) return;
    const check = shell === 'fish' ? ['fish', ['--no-execute', file]] : [shell, ['-n', file]];
    execFileSync(check[0] as string, check[1] as string[], { stdio: 'pipe' });
    if (shell === 'bash') {
      // and it completes: a command after global flags, then that command's flags
      const complete = (line: string) =>
        execFileSync(
          'bash',
          [
            '-c',
            `source ${file}; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _brow; printf '%s\\n' "\${COMPREPLY[@]}"`,
          ],
          { encoding: 'utf8' },
        ).split('\n');
      expect(complete('brow --session x open-p')).toContain('open-page');
      expect(complete('brow --session x click --click-c')).toContain('--click-count');
    }
    if (shell === 'zsh') {
      // zsh's completion builtins stubbed to print what they are given
      const complete = (words: string[]) =>
        execFileSync(
          'zsh',
          [
            '-c',
            `compdef() { : }; source ${file}
compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@" }
_describe() { print -l -- "\${(@P)4}" }
_files() { print FILES }
words=(${words.join(' ')}); CURRENT=${words.length}; _brow`,
          ],
          { encoding: 'utf8' },
        ).split('\n');
      expect(complete(['brow', '--session', 'x', 'open-p'])).toContainEqual(
        expect.stringMatching(/^open-page:/),
      );
      expect(complete(['brow', '--session', 'x', 'click', '--click-'])).toContain('--click-count');
    }
    if (shell === 'fish') {
      const complete = (line: string) =>
        execFileSync('fish', ['-c', `source ${file}; complete -C '${line}'`], { encoding: 'utf8' });
      expect(complete('brow --session x open-p')).toMatch(/^open-page\t/m);
      expect(complete('brow click --click-')).toMatch(/^--click-count/m);
    }
  });

  it('brow completion tcsh is an invalid_request naming the shells it has', async () => {
    const r = await brow('completion', 'tcsh');
    expect(r.code).toBe(2);
    expect(r.err).toContain('bash, zsh or fish');
  });
});

const COUNTER = `<!doctype html><html lang="en"><head><title>Habits</title></head><body>
<p id="out">Clicked 0 times</p>
<button onclick="document.getElementById('out').textContent = 'Clicked ' + (++window.n) + ' times'">Add one</button>
<button onclick="window.open('/habits/popup', 'pop', 'popup')">Open popup</button>
<script>window.n = 0</script></body></html>`;
const POPUP = `<!doctype html><html lang="en"><head><title>Popup</title></head><body>
<button onclick="window.close()">Close me</button></body></html>`;

describe('through the daemon, against real Chromium', () => {
  let fixtures: FixtureServer;
  let cli: CliEnv;
  let url: string;

  beforeAll(async () => {
    buildOnce();
    fixtures = await startFixtureServer();
    const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    fixtures.route('/habits/counter', html(COUNTER));
    fixtures.route('/habits/popup', html(POPUP));
    url = fixtures.url('habits/counter');
    cli = cliEnv('habits');
  }, 180_000);

  afterAll(async () => {
    await cli?.cleanup();
    await fixtures?.close();
  });

  const refIn = (text: string, role: string, name: string) => {
    const m = new RegExp(`\\[${role} ref=(e\\d+)[^\\]]*\\] ${name}`).exec(text);
    if (!m) throw new Error(`no ${role} "${name}" in:\n${text}`);
    return m[1]!;
  };

  it('brow --session x open-page URL; a status line on stderr while the daemon starts; snapshot -i; click @eN', async () => {
    // flags first, the way people type them; this command starts the daemon
    const opened = await runBrow(['--session', cli.session, 'open-page', url], cli.env);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/^Opened page p-\S+ in session s-\S+: http/);
    expect(opened.stderr).toMatch(
      /^brow: starting the daemon and Chromium for session "habits-\d+"… ready \(/,
    );
    // the daemon runs now: no status line
    const listed = await runBrow(['--json', '--session', cli.session, 'snapshot', '-i'], cli.env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe('');
    const o = JSON.parse(listed.stdout) as { content: string; data: { snapshot: { scope: string } } };
    expect(o.data.snapshot.scope).toBe('interactive');
    const full = await cli.run(['snapshot']);
    expect(full.stdout).toContain('Scope: full');
    expect(full.stdout).toContain('Clicked 0 times');
    const compact = await cli.run(['snapshot', '-c']);
    expect(compact.stdout).toMatch(/- button "Add one" \[ref=e\d+\]/);
    const button = refIn(o.content, 'button', 'Add one');
    const clicked = await cli.run(['click', `@${button}`]);
    expect(clicked.code, clicked.stderr).toBe(0);
    expect(clicked.stdout).toContain(`click [button ref=${button}] Add one`);
    expect(clicked.stdout).toContain('Clicked 1 times');
  });

  it('a hint names the brow command to run, in text and --json; the HTTP tool API keeps the tool name', async () => {
    const session = `hint-${process.pid}`;
    const r = await cli.run(['list-elements'], { session });
    expect(r.code).toBe(ERROR_TABLE.page_not_found.exit);
    expect(r.stderr).toContain('[page_not_found]: No page is open.');
    expect(r.stderr).toContain('brow open-page');
    expect(r.stderr).not.toMatch(/browser_[a-z]/);
    const json = JSON.parse((await cli.run(['list-elements', '--json'], { session })).stdout);
    expect(json.data.hint).toContain('brow open-page');
    expect(json.content).not.toMatch(/browser_[a-z]/);
    // another door, same registry: tool names
    const { BrowRuntime } = await import('../../src/runtime/runtime.js');
    const runtime = new BrowRuntime();
    try {
      const api = await runtime.invoke('browser_list_elements', {});
      expect(api.ok).toBe(false);
      expect(api.ok || api.data.hint).toContain('browser_open_page');
    } finally {
      await runtime.close();
    }
    await cli.run(['daemon', 'stop'], { session });
  });

  it('pages live as long as the daemon unless idle_stop_ms is set; a page gone idle says so', async () => {
    expect((await cli.run(['list-pages'])).code).toBe(0); // a daemon with the defaults
    const status = JSON.parse((await cli.run(['daemon', 'status', '--json'])).stdout);
    expect(status.idle_timeout_ms).toBe(30 * 60_000);
    expect(status.session_idle_stop_ms).toBe(status.idle_timeout_ms);
    const text = (await cli.run(['daemon', 'status'])).stdout;
    expect(text).toContain('browser sessions stop after 1800 s without a call');

    // configured shorter: still honoured, and the next command says what happened
    const session = `idle-${process.pid}`;
    // long enough for open-page on a loaded machine (the session's idle timer runs from the call's
    // start), and no longer: the test waits it out
    const env = { BROW_IDLE_STOP_MS: String(scaled(3000)) };
    const opened = await cli.run(['open-page', url, '--json'], { session, env });
    expect(opened.code, opened.stderr).toBe(0);
    const pageId = JSON.parse(opened.stdout).data.page_id as string;
    // daemon status lists the sessions without touching them
    const sessions = async () =>
      (JSON.parse((await cli.run(['daemon', 'status', '--json'], { session, env })).stdout).sessions as [])
        .length;
    expect(await until(async () => (await sessions()) === 0, 60_000, 250)).toBe(true);
    for (const argv of [['snapshot'], ['snapshot', '--page-id', pageId]]) {
      const r = await cli.run(argv, { session, env });
      expect(r.code, r.stderr).toBe(ERROR_TABLE.page_expired.exit);
      expect(r.stderr).toMatch(
        new RegExp(`\\[page_expired\\]: .*page ${pageId},? was closed after \\d+ s idle`, 'i'),
      );
      expect(r.stderr).toContain('brow keep-alive');
    }
    const json = JSON.parse((await cli.run(['snapshot', '--json'], { session, env })).stdout);
    expect(json.data).toMatchObject({ error_code: 'page_expired', page_id: pageId, closed_reason: 'idle' });
    await cli.run(['daemon', 'stop'], { session });
  });

  it('a page closed by close-page, by the page itself (window.close) or by a crash says which', async () => {
    const session = `gone-${process.pid}`;
    const open = async () => {
      const r = await cli.run(['open-page', url, '--json'], { session });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).data.page_id as string;
    };
    // closed by a brow call
    const p1 = await open();
    expect((await cli.run(['close-page'], { session })).code).toBe(0);
    const byCall = await cli.run(['snapshot'], { session });
    expect(byCall.code).toBe(ERROR_TABLE.page_closed.exit);
    expect(byCall.stderr).toContain(
      `No page is open: the last page used, page ${p1}, was closed by a brow close-page call.`,
    );
    const named = await cli.run(['click', 'e1', '--page-id', p1], { session });
    expect(named.stderr).toContain(`[page_closed]: Page ${p1} was closed by a brow close-page call.`);

    // closed by the page: a popup that calls window.close()
    const opener = await open();
    const listed = await cli.run(['snapshot', '-i'], { session });
    expect(
      (await cli.run(['click', `@${refIn(listed.stdout, 'button', 'Open popup')}`], { session })).code,
    ).toBe(0);
    const pages = JSON.parse((await cli.run(['list-pages', '--json'], { session })).stdout).data.pages as {
      page_id: string;
    }[];
    const popup = pages.map((p) => p.page_id).find((id) => id !== opener && id !== p1)!;
    expect(popup).toBeTruthy();
    const inPopup = await cli.run(['snapshot', '-i', '--page-id', popup], { session });
    await cli.run(['click', `@${refIn(inPopup.stdout, 'button', 'Close me')}`, '--page-id', popup], {
      session,
    });
    expect(
      await until(
        async () => {
          const r = await cli.run(['snapshot', '--page-id', popup], { session });
          return r.stderr.includes(`Page ${popup} was closed by the page itself (window.close).`);
        },
        20_000,
        300,
      ),
    ).toBe(true);

    // the browser dies while the opener is the last page used
    expect((await cli.run(['snapshot', '--page-id', opener], { session })).code).toBe(0);
    const { pid } = JSON.parse((await cli.run(['daemon', 'status', '--json'], { session })).stdout);
    for (const p of childPids(pid)) process.kill(p, 'SIGKILL');
    expect(
      await until(
        async () => {
          const r = await cli.run(['snapshot', '--json'], { session });
          return JSON.parse(r.stdout).data.error_code === 'browser_crashed';
        },
        20_000,
        300,
      ),
    ).toBe(true);
    const crashed = await cli.run(['snapshot'], { session });
    expect(crashed.code).toBe(ERROR_TABLE.browser_crashed.exit);
    expect(crashed.stderr).toContain(
      `the last page used, page ${opener}, is gone: its browser crashed or was killed.`,
    );
    await cli.run(['daemon', 'stop'], { session });
  });
});
