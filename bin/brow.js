#!/usr/bin/env node
// brow's command line: see `brow --help`.
//
// A browser command for a daemon that already runs is answered by dist/doors/cli/fast.bundle.js (the
// quick client, no registry or zod); other browser commands run from dist/doors/cli/main.bundle.js,
// the CLI client in one file (quick to load).
// The builtins that start a runtime in this process (mcp, daemon, serve, worker, node, doctor, …) run
// dist/bundle/main.js, the runtime bundled into a few chunks with its packages inside (see
// bundleRuntime in scripts/build.mjs: the published package has no node_modules for dist/'s modules);
// any line runs dist/doors/cli/main.js when its bundle is missing or BROW_NO_BUNDLE is set (a checkout
// with devDependencies). All are the same main().
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

// Node 22+ keeps compiled code between runs (no-op where it does not exist)
module.enableCompileCache?.();

const args = process.argv.slice(2);
const RUNTIME_BUILTINS = new Set(['serve', 'mcp', 'worker', 'doctor', 'daemon', 'config', 'node', 'cluster']);
const noBundle = !!process.env.BROW_NO_BUNDLE;
const bundled = !noBundle && !args.some((a) => RUNTIME_BUILTINS.has(a));

/** The command: the first word after the global flags (as main's splitCommand finds it). */
function commandOf() {
  const valueFlags = new Set(['--config', '--session', '--idle-timeout', '--input-json']);
  let i = 0;
  while (i < args.length && args[i].startsWith('-') && args[i] !== '--') i += valueFlags.has(args[i]) ? 2 : 1;
  if (args[i] === '--') i++;
  return args[i];
}
const command = commandOf();
const runtimeBundle =
  !noBundle &&
  RUNTIME_BUILTINS.has(command) &&
  existsSync(new URL('../dist/bundle/main.js', import.meta.url));

// `brow completion zsh | head`: a reader that stops early is not an error
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

/**
 * `brow mcp`: start Chromium before anything else loads (the first launch connects to it, see
 * prespawnChromium in src/core/browser/launch.ts). The settings come from a quick read of what
 * loadConfig reads (flags, BROW_* variables, the config file); when the real configuration differs,
 * the launch does not take this Chromium and it is killed, so a wrong guess only costs a spawn.
 */
function prespawnSettings() {
  if (command !== 'mcp' || process.env.BROW_NO_PRESPAWN || process.env.BROW_NATS) return null;
  const flags = {};
  let file = process.env.BROW_CONFIG || null;
  for (let j = 0; j < args.length; j++) {
    const [name, inline] = args[j].startsWith('--') ? args[j].slice(2).split(/=(.*)/s) : [''];
    const value = () => inline ?? args[++j];
    if (name === 'help' || name === 'nats' || args[j] === '-h') return null;
    if (name === 'config') file = value();
    else if (name === 'executable' || name === 'user-data-dir') flags[name.replace(/-/g, '_')] = value();
    else if (['headless', 'prelaunch', 'process-per-session'].includes(name))
      flags[name.replace(/-/g, '_')] = inline === undefined ? true : inline !== 'false';
    else if (['no-headless', 'no-prelaunch', 'no-process-per-session'].includes(name))
      flags[name.slice(3).replace(/-/g, '_')] = false;
  }
  let fromFile = {};
  try {
    if (file || existsSync('brow.config.json'))
      fromFile = JSON.parse(readFileSync(file || 'brow.config.json', 'utf8'));
  } catch {
    return null; // loading the configuration reports it
  }
  const env = {};
  for (const key of ['executable', 'headless', 'prelaunch', 'process_per_session', 'user_data_dir']) {
    const v = process.env[`BROW_${key.toUpperCase()}`];
    if (v === undefined || v === '') continue;
    try {
      env[key] = key === 'executable' || key === 'user_data_dir' ? v : JSON.parse(v);
    } catch {
      env[key] = v;
    }
  }
  if (process.env.BROW_CHROME && env.executable === undefined) env.executable = process.env.BROW_CHROME;
  const c = { ...fromFile, ...env, ...flags };
  if (c.prelaunch === false || c.process_per_session === true || c.user_data_dir) return null;
  return { executable: typeof c.executable === 'string' ? c.executable : '', headless: c.headless !== false };
}

async function load() {
  const early = prespawnSettings();
  if (early) {
    try {
      const launch = runtimeBundle ? '../dist/bundle/launch.js' : '../dist/core/browser/launch.js';
      (await import(launch)).prespawnChromium(early);
    } catch {
      // the launch goes the usual way
    }
  }
  if (runtimeBundle) return import('../dist/bundle/main.js');
  if (bundled) {
    // a capability command for a running daemon: the quick client (src/doors/cli/fast.ts), else null
    const code = process.env.BROW_NO_FAST
      ? null
      : await import('../dist/doors/cli/fast.bundle.js').then(
          (fast) => fast.fastMain(args),
          () => null,
        );
    if (code !== null) return { main: () => code };
    try {
      return await import('../dist/doors/cli/main.bundle.js');
    } catch (e) {
      if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('main.bundle.js')) throw e;
    }
  }
  return import('../dist/doors/cli/main.js');
}

load()
  .then(({ main }) => main(args))
  .then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (e) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exitCode = 1;
    },
  );
