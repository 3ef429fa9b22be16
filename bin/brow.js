#!/usr/bin/env node
// brow's command line: see `brow --help`.
//
// Browser commands run from dist/doors/cli/main.bundle.js, the CLI client in one file (quick to load);
// a line naming a builtin that starts a runtime in this process runs dist/doors/cli/main.js, as does any
// line when the bundle is missing or BROW_NO_BUNDLE is set. Both are the same main().
const args = process.argv.slice(2);
const RUNTIME_BUILTINS = new Set(['serve', 'mcp', 'worker', 'doctor', 'daemon', 'config', 'node', 'cluster']);
const bundled = !process.env.BROW_NO_BUNDLE && !args.some((a) => RUNTIME_BUILTINS.has(a));

// `brow completion zsh | head`: a reader that stops early is not an error
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

async function load() {
  if (bundled) {
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
