/**
 * The light builtin commands (doctor, daemon) and the runtime every builtin builds from the command line's
 * configuration. serve and mcp live in serve.ts, loaded only when run, so `brow click` stays quick to start.
 */
import { parseArgs } from 'node:util';
import type { BrowRuntime } from '../../runtime/runtime.js';
import { checkInput, parseArgs as parseCommandLine } from './argv.js';
import { capabilityCommands } from './commands.js';
import { extractConfigArgs, loadFromArgs } from './config-cmd.js';
import { daemonStatus, DEFAULT_IDLE_MS, ensureDaemon, stopDaemon } from './daemon-client.js';
import { runDaemon } from './daemon.js';
import { printOutcome, type Streams } from './output.js';
import { parseDuration } from './runtime-dir.js';
import { profileOf } from './run.js';

export { profileOf };
import { own, UsageError } from './usage-error.js';

/** A runtime from the command line's configuration (--config, BROW_*, config flags). */
export async function runtimeFromArgs(argv: string[]): Promise<{ runtime: BrowRuntime; rest: string[] }> {
  const args = extractConfigArgs(argv);
  const { BrowRuntime } = await import('../../runtime/runtime.js');
  return { runtime: new BrowRuntime(loadFromArgs(args).config), rest: args.rest };
}

/** `brow doctor`: the browser_doctor capability, run in this process (it never launches a browser, so no daemon). */
export async function doctorCommand(argv: string[], io: Streams): Promise<number> {
  const spec = capabilityCommands().get('doctor')!;
  const { runtime, rest } = await runtimeFromArgs(argv);
  try {
    const { globals, input } = parseCommandLine('doctor', spec.fields, rest);
    checkInput('doctor', spec.fields, spec.capability.input, input);
    // the console a person would use is the daemon's: name it when one runs
    const running = await daemonStatus(profileOf(globals.session)).catch(() => null);
    if (running?.console_url) runtime.setConsoleUrl(running.console_url);
    const out = await runtime.invoke(spec.capability.name, input);
    const code = printOutcome(out, globals.json, io);
    // a report that found something missing fails the command, so scripts can check the setup
    return code !== 0 ? code : out.data.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

const ago = (t: number) => `${Math.round((Date.now() - t) / 1000)} s ago`;

/** `brow daemon [--profile N]` runs one; `brow daemon start|status|stop [--session N]` manage it. */
export async function daemonCommand(argv: string[], io: Streams): Promise<number> {
  const config = extractConfigArgs(argv);
  const { values, positionals } = own('daemon', () =>
    parseArgs({
      args: config.rest,
      allowPositionals: true,
      options: {
        profile: { type: 'string' },
        session: { type: 'string' },
        'idle-timeout': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }),
  );
  const action = positionals[0] ?? 'run';
  const profile = profileOf(values.profile ?? values.session);
  const idleMs = values['idle-timeout'] ? parseDuration(values['idle-timeout']) : DEFAULT_IDLE_MS;
  if (action === 'run') {
    const code = await runDaemon({ profile, idleMs, loaded: loadFromArgs(config) });
    // exit even if a stray handle would keep Node alive: a daemon must not linger
    setTimeout(() => process.exit(code), 50).unref();
    return code;
  }
  if (action === 'start') {
    const socket = await ensureDaemon({ profile, idleMs, configFile: config.file });
    io.out(`brow daemon for session "${profile}" is listening on ${socket}\n`);
    return 0;
  }
  if (action === 'status') {
    const s = await daemonStatus(profile);
    if (values.json) io.out(`${JSON.stringify({ running: !!s, ...(s ?? { profile }) })}\n`);
    else if (!s) io.out(`No brow daemon is running for session "${profile}".\n`);
    else {
      io.out(
        `brow daemon for session "${s.profile}": pid ${s.pid}, socket ${s.socket}\n` +
          `started ${ago(s.started_at)}, last command ${ago(s.last_used_at)}, exits after ${s.idle_timeout_ms / 1000} s idle; ` +
          `browser sessions stop after ${s.session_idle_stop_ms / 1000} s without a call\n` +
          `config file: ${s.config_file ?? '(none)'}; working directory: ${s.cwd}; browser sessions: ${s.sessions.length}\n` +
          `web console: ${s.console_url ?? 'none (console off)'}\n`,
      );
    }
    return s ? 0 : 1;
  }
  if (action === 'stop') {
    const was = await stopDaemon(profile);
    io.out(
      was
        ? `Stopped the brow daemon for session "${profile}".\n`
        : `No brow daemon was running for session "${profile}".\n`,
    );
    return 0;
  }
  throw new UsageError(`brow daemon has no "${action}".`, { hint: 'Use brow daemon start, status or stop.' });
}
