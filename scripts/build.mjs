// Build: bundle the in-page scripts (one IIFE string each) and compile src/ to dist/.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  minify: !process.env.BROW_NO_MINIFY,
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
  await bundleCliClient();
  await bundleRuntime();
}

/**
 * The CLI client in one file, dist/doors/cli/main.bundle.js, beside main.js: a browser command's own
 * process then loads one module (with zod inside) instead of ~90, which halves its start-up. What
 * main.js imports dynamically (the runtime, serve, the bus, capability handlers) stays outside, loaded
 * from dist/ as before, and so do packages other than zod. bin/brow.js runs the bundle for browser
 * commands and main.js for the builtins that start a runtime (serve, mcp, worker, doctor, daemon, config),
 * so no process holds two copies of a module whose classes are compared. Beside it the quick client,
 * fast.bundle.js (src/doors/cli/fast.ts, with commands.json), which answers a browser command for a
 * running daemon without the registry and zod (~10 ms of loading instead of ~80).
 */
async function bundleCliClient() {
  const outDir = join(root, 'dist/doors/cli');
  await writeCommandManifest(outDir);
  for (const name of ['main', 'fast']) await bundleClient(outDir, name);
}

/**
 * dist/doors/cli/commands.json: what the quick client (fast.ts) needs of the capabilities, written
 * from the code the full CLI runs: each command's name, capability, group and fields, the builtins,
 * and renderHint's tool → command table.
 */
async function writeCommandManifest(outDir) {
  const url = (f) => pathToFileURL(join(outDir, f)).href;
  const [{ capabilityCommands }, { BUILTINS }, { doorNames }] = await Promise.all([
    import(url('commands.js')),
    import(url('main.js')),
    import(url('../../runtime/door-names.js')),
  ]);
  const manifest = {
    builtins: Object.keys(BUILTINS),
    names: [...doorNames('cli')],
    commands: [...capabilityCommands().values()].map((s) => ({
      command: s.command,
      name: s.capability.name,
      group: s.capability.group,
      fields: s.fields,
    })),
  };
  writeFileSync(join(outDir, 'commands.json'), `${JSON.stringify(manifest)}\n`);
}

/** dist/doors/cli/<name>.bundle.js: <name>.js with zod and brow's modules inside (see above). */
async function bundleClient(outDir, name) {
  await build({
    entryPoints: [join(outDir, `${name}.js`)],
    outfile: join(outDir, `${name}.bundle.js`),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'client-only',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            const bare = !args.path.startsWith('.') && !args.path.startsWith('/');
            if (args.kind === 'dynamic-import' && !bare) {
              const target = relative(outDir, resolve(dirname(args.importer), args.path)).replace(/\\/g, '/');
              return { path: target.startsWith('.') ? target : `./${target}`, external: true };
            }
            if (bare && !/^zod(\/|$)/.test(args.path)) return { path: args.path, external: true };
            return undefined;
          });
        },
      },
    ],
  });
}

/**
 * The runtime in a few files, dist/bundle/: `brow mcp` and `brow daemon` run dist/bundle/main.js, the
 * same main() with brow's modules and its packages bundled (split into chunks at each dynamic import,
 * so what main.js loads lazily still loads lazily). Loading ~450 modules one by one (resolve, read,
 * compile, link) was most of a cold start's CPU before the first MCP answer; the bundle takes about
 * half. dist/bundle/launch.js is a second entry sharing the same chunks: bin/brow.js starts Chromium
 * through it before main.js loads (prespawnChromium), and the runtime's launch takes that Chromium.
 * Modules that read files beside themselves get their `import.meta.url` pointed back at their place
 * in dist/. Packages used rarely, optional or native (the page-reading libraries, nats, iii-sdk,
 * sharp, chromium-bidi, proxy-agent, yargs and ws's optional add-ons) stay outside, loaded from
 * node_modules when used (it also keeps the package small: the install size is bounded).
 */
async function bundleRuntime() {
  const dist = join(root, 'dist');
  const outdir = join(dist, 'bundle');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: join(dist, 'doors/cli/main.js'), launch: join(dist, 'core/browser/launch.js') },
    outdir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    external: [
      'iii-sdk',
      'nats',
      'sharp',
      'linkedom',
      '@mozilla/readability',
      'turndown',
      'turndown-plugin-gfm',
      'chromium-bidi',
      'chromium-bidi/*',
      // @puppeteer/browsers' download helpers (a PAC interpreter, FTP, …): brow never downloads a browser
      'proxy-agent',
      'yargs',
      'yargs/*',
      'bufferutil',
      'utf-8-validate',
      'supports-color',
    ],
    // CommonJS packages inside an ES module call require
    banner: {
      js: "import { createRequire as __browRequire } from 'node:module'; const require = __browRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'own-place',
        setup(b) {
          b.onLoad({ filter: /\.js$/ }, (args) => {
            if (!args.path.startsWith(dist + '/') || args.path.startsWith(outdir + '/')) return undefined;
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
            const place = relative(outdir, args.path).replace(/\\/g, '/');
            return {
              contents: text.replaceAll(
                'import.meta.url',
                `new URL(${JSON.stringify(place)}, import.meta.url).href`,
              ),
              loader: 'js',
            };
          });
        },
      },
    ],
  });
}
