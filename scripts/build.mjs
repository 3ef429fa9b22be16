// Build: bundle the in-page scripts (one IIFE string each) and compile src/ to dist/.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const injectedDir = join(root, 'src/core/snapshot/injected');
mkdirSync(join(root, 'dist/injected'), { recursive: true });

// Every `*.entry.ts` under src/**/injected becomes dist/injected/<name>.js.
const entries = readdirSync(injectedDir)
  .filter((f) => f.endsWith('.entry.ts'))
  .map((f) => ({ in: join(injectedDir, f), out: f.replace(/\.entry\.ts$/, '') }));
await build({
  entryPoints: entries,
  outdir: join(root, 'dist/injected'),
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

if (!process.argv.includes('--injected-only')) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
    {
      stdio: 'inherit',
    },
  );
  // the web console's static files (plain ES modules and CSS) are served from beside its routes
  cpSync(join(root, 'src/doors/console/static'), join(root, 'dist/doors/console/static'), {
    recursive: true,
  });
}
