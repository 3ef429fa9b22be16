/**
 * `brow replay FILE`: run a browser_export_script script (json or brow-cli) in the profile's daemon
 * on a fresh session, printing each step as it finishes; the exit code is the failing step's error
 * code (0 when every step passed). The file is read here, so its path is the caller's; secrets come
 * from this process's BROW_SECRET_n variables.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { profileOf } from './builtins.js';
import { invokeViaDaemon } from './daemon-client.js';
import type { Streams } from './output.js';
import type { Outcome } from '../../runtime/outcome.js';
import { parseDuration } from './runtime-dir.js';
import { own, UsageError } from './usage-error.js';

/** Run the replay; the caller prints the outcome (`json`: as JSON). */
export async function replayCommand(
  argv: string[],
  io: Streams,
): Promise<{ outcome: Outcome; json: boolean }> {
  const { values, positionals } = own('replay', () =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        'keep-session': { type: 'boolean', default: false },
        session: { type: 'string' },
        config: { type: 'string' },
        'idle-timeout': { type: 'string' },
      },
    }),
  );
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    throw new UsageError('brow replay takes one script file.', {
      hint: 'Export one with brow export-script json --path flow.json, then brow replay flow.json.',
    });
  }
  let script: string;
  try {
    script = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${file}: ${(e as Error).message}`, {
      hint: 'Give the path of a script that browser_export_script wrote.',
    });
  }
  const secrets = Object.fromEntries(
    Object.entries(process.env).filter(
      (kv): kv is [string, string] => /^BROW_SECRET_\d+$/.test(kv[0]) && kv[1] !== undefined,
    ),
  );
  const input = {
    script,
    ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
    ...(values['keep-session'] ? { keep_session: true } : {}),
  };
  const target = {
    profile: profileOf(values.session),
    configFile: values.config ?? process.env.BROW_CONFIG,
    ...(values['idle-timeout'] ? { idleMs: parseDuration(values['idle-timeout']) } : {}),
  };
  const { outcome, warnings } = await invokeViaDaemon(
    target,
    'browser_replay_script',
    input,
    undefined,
    (p) => {
      // each step as it finishes; with --json only the final answer is printed
      if (!values.json && p.message) io.err(`${p.message}\n`);
    },
  );
  for (const w of warnings) io.err(`${w}\n`);
  return { outcome, json: values.json };
}
