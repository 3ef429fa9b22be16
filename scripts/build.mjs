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
 * The runtime in a few files, dist/bundle/: every way into brow that starts a runtime runs from here,
 * the same main() (`brow mcp`, `daemon`, `serve`, `worker`, `node`, `doctor`, …), the library
 * (`index.js`: `import { createBrow } from 'brow'`), the SDK (`sdk.js`: `brow/sdk`) and the tab worker
 * thread, with brow's modules and its packages bundled (split into chunks at each dynamic import, so
 * what loads lazily still loads lazily). The published package then needs no runtime dependencies
 * (issue 35: 202 packages and 80 MB installed before; zod stays, for the types). Loading ~450 modules
 * one by one (resolve, read, compile, link) was most of a cold start's CPU before the first MCP answer;
 * the bundle takes about half. dist/bundle/launch.js shares the chunks: bin/brow.js starts Chromium
 * through it before main.js loads (prespawnChromium), and the runtime's launch takes that Chromium.
 * Modules that read files beside themselves get their `import.meta.url` pointed back at their place
 * in dist/ (which ships). What stays outside: the optional peer iii-sdk and the native image library
 * sharp (each loaded only when present), ws's optional native add-ons and debug's supports-color
 * (required inside a try), yargs (only @puppeteer/browsers' own command line imports it, never
 * loaded). proxy-agent (its PAC interpreter, FTP and SOCKS clients) is replaced by a stub:
 * @puppeteer/browsers uses it to download browsers, which brow never does. The licences of every
 * bundled package go into THIRD_PARTY_NOTICES, from esbuild's metafile.
 */
async function bundleRuntime() {
  const dist = join(root, 'dist');
  const outdir = join(dist, 'bundle');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: {
      main: join(dist, 'doors/cli/main.js'),
      launch: join(dist, 'core/browser/launch.js'),
      index: join(dist, 'index.js'),
      sdk: join(dist, 'doors/sdk/tool-client.js'),
      'tab-worker': join(dist, 'core/tool/tab-worker.js'),
    },
    outdir,
    absWorkingDir: root,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.BROW_BUNDLED': '"1"' },
    external: ['iii-sdk', 'sharp', 'yargs', 'yargs/*', 'bufferutil', 'utf-8-validate', 'supports-color'],
    // CommonJS packages inside an ES module call require
    banner: {
      js: "import { createRequire as __browRequire } from 'node:module'; const require = __browRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'no-downloads',
        setup(b) {
          b.onResolve({ filter: /^proxy-agent$/ }, () => ({ path: 'proxy-agent', namespace: 'brow-stub' }));
          b.onLoad({ filter: /.*/, namespace: 'brow-stub' }, () => ({
            contents:
              "export class ProxyAgent { constructor() { throw new Error('brow does not download browsers: proxy-agent is not in its bundle'); } }",
            loader: 'js',
          }));
        },
      },
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
  writeNotices(result.metafile);
}

/** The packages inside the bundle, from esbuild's metafile: each one's folder, name and version. */
function bundledPackages(metafile) {
  const found = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input.replace(/\\/g, '/'));
    if (!m) continue;
    const dir = resolve(root, m[1]);
    if (found.has(dir)) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    found.set(dir, {
      dir,
      name: manifest.name ?? m[2],
      version: manifest.version ?? '',
      license: typeof manifest.license === 'object' ? manifest.license?.type : manifest.license,
    });
  }
  return [...found.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/**
 * THIRD_PARTY_NOTICES at the package root: for every package esbuild put into dist/bundle, a heading
 * `name@version (licence)` and its licence file's text (LICENSE, LICENCE, COPYING, …), or a note
 * when the package ships none. dist/bundle/packages.json lists the same packages, for the test.
 */
function writeNotices(metafile) {
  const packages = bundledPackages(metafile);
  const parts = [
    'Third-party notices for brow',
    '',
    'brow is licensed under the Apache License 2.0 (see LICENSE). Its runtime bundle (dist/bundle/)',
    'contains the following packages, each under its own licence, reproduced here.',
    '',
  ];
  for (const p of packages) {
    const files = readdirSync(p.dir, { withFileTypes: true })
      .filter((f) => f.isFile() && /^(licen[cs]e|copying|notice)/i.test(f.name))
      .map((f) => f.name);
    parts.push(
      '='.repeat(78),
      `${p.name}@${p.version} (${p.license ?? 'licence not stated'})`,
      '='.repeat(78),
      '',
    );
    if (files.length === 0)
      parts.push(`${p.name} ships no licence file; its package.json states: ${p.license ?? 'nothing'}.`, '');
    for (const f of files.sort()) parts.push(readFileSync(join(p.dir, f), 'utf8').trim(), '');
  }
  writeFileSync(join(root, 'THIRD_PARTY_NOTICES'), parts.join('\n'));
  writeFileSync(
    join(root, 'dist/bundle/packages.json'),
    `${JSON.stringify(
      packages.map((p) => ({
        name: p.name,
        version: p.version,
        license: p.license ?? null,
        dir: relative(root, p.dir),
      })),
      null,
      1,
    )}\n`,
  );
}
