/** The CLI surface, generated from the registry: a command per capability, help, flag parsing, usage errors. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { absolutePaths, checkInput, parseArgs } from '../../src/doors/cli/argv.js';
import { capabilityCommands, commandName, GLOBAL_FLAGS } from '../../src/doors/cli/commands.js';
import { configFields, extractConfigArgs } from '../../src/doors/cli/config-cmd.js';
import { main } from '../../src/doors/cli/main.js';
import { parseDuration } from '../../src/doors/cli/runtime-dir.js';
import { UsageError } from '../../src/doors/cli/usage-error.js';
import { ERROR_TABLE } from '../../src/runtime/error-table.js';

// Nothing here may reach a daemon: a private runtime dir proves none started.
const runtimeDir = mkdtempSync(join(tmpdir(), 'brow-cli-unit-'));
beforeAll(() => void (process.env.BROW_RUNTIME_DIR = runtimeDir));
afterAll(() => {
  expect(readdirSync(runtimeDir)).toEqual([]);
  rmSync(runtimeDir, { recursive: true, force: true });
});

/** Run main() in this process, capturing what it prints. */
async function brow(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

const spec = (command: string) => capabilityCommands().get(command)!;
const parse = (command: string, ...argv: string[]) => parseArgs(command, spec(command).fields, argv).input;

describe('a command per capability', () => {
  it('every capability has a command named after it, and help for it', async () => {
    for (const cap of capabilities) {
      const command = commandName(cap.name);
      expect(capabilityCommands().get(command)?.capability, cap.name).toBe(cap);
      const help = await brow(command, '--help');
      expect(help.code, command).toBe(0);
      expect(help.out).toContain(`Usage: brow ${command}`);
      expect(help.out).toContain(cap.name);
      for (const name of Object.keys(cap.input.shape)) {
        const f = spec(command).fields.find((x) => x.name === name)!;
        const shown = f.positional !== null ? name.toUpperCase() : `${f.flag}`;
        expect(help.out, `${command} help names ${name}`).toMatch(
          new RegExp(`(^|[\\s\\]-])${shown}\\b`, 'm'),
        );
        const described = (cap.input.shape[name] as { description?: string }).description;
        if (described)
          expect(help.out.replace(/\s+/g, ' ')).toContain(described.replace(/\s+/g, ' ').slice(0, 30));
      }
    }
  });

  it('positional arguments are input fields, and no input flag hides behind a global flag', () => {
    for (const cap of capabilities) {
      for (const p of cap.positional ?? [])
        expect(Object.keys(cap.input.shape), `${cap.name}: ${p}`).toContain(p);
      for (const f of spec(commandName(cap.name)).fields)
        expect(GLOBAL_FLAGS, `${cap.name}.${f.name}`).not.toContain(f.flag);
    }
  });

  it('brow --help lists every command under its group with its one-line description', async () => {
    const { code, out } = await brow('--help');
    expect(code).toBe(0);
    for (const cap of capabilities) {
      if (cap.name === 'browser_doctor') continue;
      expect(out).toMatch(new RegExp(`^  ${commandName(cap.name)}\\s`, 'm'));
      expect(out).toContain(`${cap.group}:`);
    }
    for (const builtin of ['serve', 'mcp', 'doctor', 'daemon', 'config', 'completion'])
      expect(out).toContain(`brow ${builtin}`);
  });

  it('brow completion bash completes commands and their flags', async () => {
    const { code, out } = await brow('completion', 'bash');
    expect(code).toBe(0);
    expect(out).toContain('complete -o default -F _brow brow');
    expect(out).toContain('open-page');
    expect(out).toMatch(/click\) flags="[^"]*--click-count/);
  });
});

describe('flags become input', () => {
  it('positionals in order, kebab-case flags, numbers, booleans, repeated arrays, JSON objects', () => {
    expect(parse('fill', 'e5', 'some text')).toEqual({ ref: 'e5', value: 'some text' });
    expect(parse('click', 'e3', '--click-count', '2', '--modifiers', 'Shift', '--modifiers=Alt')).toEqual({
      ref: 'e3',
      click_count: 2,
      modifiers: ['Shift', 'Alt'],
    });
    expect(parse('click', 'e3', '--modifiers', '["Meta"]')).toEqual({ ref: 'e3', modifiers: ['Meta'] });
    expect(parse('check', 'e1', '--no-checked')).toEqual({ ref: 'e1', checked: false });
    expect(parse('check', 'e1', '--checked')).toEqual({ ref: 'e1', checked: true });
    expect(parse('scroll', '--delta-y', '-300')).toEqual({ delta_y: -300 });
    expect(parse('start-session', '--viewport', '{"width":800,"height":600}', '--read-only')).toEqual({
      viewport: { width: 800, height: 600 },
      read_only: true,
    });
    expect(parse('upload-file', 'e4', 'a.txt', 'b.txt')).toEqual({
      ref: 'e4',
      file_paths: ['a.txt', 'b.txt'],
    });
    // a union of string and string[]: one value stays a string, several (or JSON) make an array
    expect(parse('select', 'e2', 'red')).toEqual({ ref: 'e2', value: 'red' });
    expect(parse('select', 'e2', '--value', 'a', '--value', 'b')).toEqual({ ref: 'e2', value: ['a', 'b'] });
    expect(parse('fill', 'e5', '--', '-5 degrees')).toEqual({ ref: 'e5', value: '-5 degrees' });
    expect(parse('fill', '--input-json', '{"ref":"e1","value":"x"}', '--value', 'y')).toEqual({
      ref: 'e1',
      value: 'y',
    });
  });

  it('relative file paths are made absolute against the directory the command runs in', () => {
    expect(absolutePaths({ ref: 'e1', file_paths: ['a.txt', '/abs/b.txt'] }, '/work/x')).toEqual({
      ref: 'e1',
      file_paths: ['/work/x/a.txt', '/abs/b.txt'],
    });
    expect(absolutePaths({ output_path: 'shot.png', url: 'page.html' }, '/w')).toEqual({
      output_path: '/w/shot.png',
      url: 'page.html',
    });
    expect(absolutePaths({ path: 'runs/login.webm' }, '/w')).toEqual({ path: '/w/runs/login.webm' });
  });

  it('global flags are taken out wherever they stand', () => {
    const r = parseArgs('list-pages', spec('list-pages').fields, [
      '--json',
      '--session',
      'w',
      '--idle-timeout',
      '2s',
    ]);
    expect(r.globals).toMatchObject({ json: true, session: 'w', idleTimeout: '2s' });
    expect(r.input).toEqual({});
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1500ms')).toBe(1500);
  });

  it('configuration keys are flags of the builtin commands', () => {
    expect(configFields().map((f) => f.name)).toContain('max_sessions');
    const r = extractConfigArgs([
      '--port',
      '0',
      '--max-sessions',
      '8',
      '--no-headless',
      '--config',
      'x.json',
      '--demo',
    ]);
    expect(r).toEqual({
      file: 'x.json',
      flags: { max_sessions: 8, headless: false },
      rest: ['--port', '0', '--demo'],
    });
  });
});

describe('bad command lines are invalid_request (exit 2) with a hint', () => {
  const exit = ERROR_TABLE.invalid_request.exit;

  it.each([
    ['an unknown flag', ['click', 'e1', '--buton', 'left'], /Unknown flag --buton.*Did you mean --button\?/],
    ['a missing argument', ['fill', 'e1'], /VALUE is required/],
    ['a number that is not', ['click', 'e1', '--click-count', 'twice'], /--click-count takes a number/],
    ['an out-of-range number', ['click', 'e1', '--click-count', '7'], /--click-count/],
    ['an enum value it does not know', ['click', 'e1', '--button', 'top'], /--button/],
    ['bad JSON for an object', ['start-session', '--viewport', '{width:1}'], /--viewport takes JSON/],
    ['too many arguments', ['click', 'e1', 'e2'], /more arguments than it takes: "e2"/],
    ['a flag without its value', ['navigate', '--url'], /--url needs a value/],
    ['an unknown command', ['clik', 'e1'], /no command "clik".*Did you mean click/],
    ['a bad session name', ['list-pages', '--session', '../x'], /not a usable session name/],
    ['a bad duration', ['list-pages', '--idle-timeout', 'soon'], /not a duration/],
  ])('%s', async (_what, argv, message) => {
    const human = await brow(...argv);
    expect(human.code).toBe(exit);
    expect(human.err).toMatch(/^Browser operation failed \[invalid_request\]: /);
    expect(human.err).toMatch(message);
    const json = await brow(...argv, '--json');
    expect(json.code).toBe(exit);
    const o = JSON.parse(json.out);
    expect(o).toMatchObject({ ok: false, data: { error_code: 'invalid_request' } });
    expect(o.data.hint.length).toBeGreaterThan(10);
  });

  it('checks input with the capability schema before any daemon starts', () => {
    const s = spec('fill');
    expect(() => checkInput('fill', s.fields, s.capability.input, { ref: 'e1' })).toThrow(UsageError);
    expect(() =>
      checkInput('fill', s.fields, s.capability.input, { ref: 'e1', value: 'v', colour: 1 }),
    ).toThrow(/unknown field/);
  });
});

describe('brow config', () => {
  it('prints each value with where it came from', async () => {
    process.env.BROW_MAX_SESSIONS = '7';
    try {
      const { code, out } = await brow('config', '--no-headless');
      expect(code).toBe(0);
      expect(out).toMatch(/max_sessions\s+7\s+\(env BROW_MAX_SESSIONS\)/);
      expect(out).toMatch(/headless\s+false\s+\(flag\)/);
      expect(out).toMatch(/console_buffer\s+500\s+\(default\)/);
      const json = JSON.parse((await brow('config', '--json')).out);
      expect(json.sources.max_sessions).toBe('env');
      expect(json.config.max_sessions).toBe(7);
    } finally {
      delete process.env.BROW_MAX_SESSIONS;
    }
  });

  it('a bad value names its source and exits 2', async () => {
    const r = await brow('config', '--max-sessions', '0');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/command-line flags.*max_sessions/);
  });
});
