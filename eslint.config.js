// Lint: type-aware rules (a forgotten promise in a browser tool is a hang) and the
// one-way arrows of the architecture: doors → runtime → capabilities → core.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { readFileSync } from 'node:fs';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

// docs/CONTRIBUTING.md: puppeteer's private fields are read only through internals.ts (with
// tests/core/contributing-rules.test.ts, which also catches casts of puppeteer objects by type)
const PRIVATE_MESSAGE =
  "An underscore member is someone's private field: read puppeteer's through an accessor in src/core/browser/internals.ts.";
const PRIVATE_MEMBERS = [
  // one underscore: a private field; MCP's `_meta` is public protocol, and `__name` is brow's own
  // global in a page (overlay-script.ts)
  {
    selector: "MemberExpression[property.name=/^_(?!_)/]:not([property.name='_meta'])",
    message: PRIVATE_MESSAGE,
  },
  { selector: 'MemberExpression[computed=true][property.value=/^_(?!_)/]', message: PRIVATE_MESSAGE },
];
const PRIVATE_EXEMPT = ['src/core/browser/internals.ts', 'src/core/snapshot/injected/**'];

// docs/CONTRIBUTING.md "Kernel and features": the fence inside src/core, from fence.json (the one
// table of feature arrows, with their reasons; tests/core/fence.test.ts reads it too and also
// resolves every import). no-restricted-imports sees static imports; `import('…')` is an
// ImportExpression, caught by no-restricted-syntax with the same folders.
const FENCE = JSON.parse(readFileSync(new URL('./fence.json', import.meta.url), 'utf8'));
const OUTER = ['capabilities', 'runtime', 'doors', 'cluster'];
/** A specifier naming one of these folders (`../read/x.js`, `./read/x.js`, `../../core/read/x.js`). */
const folders = (names) => `(^|/)(${names.join('|')})/`;
const dynamicImports = (names, message) => [
  { selector: `ImportExpression[source.value=/${folders(names).replaceAll('/', '\\x2F')}/]`, message },
];

/** One config per area: static and dynamic imports of forbidden folders, plus the private-member rule. */
function area(name, files, forbidden, message, extraStatic = []) {
  const statics = {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: folders(forbidden), message },
          ...extraStatic.map((group) => ({ group: [group], message })),
        ],
      },
    ],
  };
  const dynamic = dynamicImports(forbidden, message);
  return [
    {
      name: `fence/${name}`,
      files,
      rules: { ...statics, 'no-restricted-syntax': ['error', ...PRIVATE_MEMBERS, ...dynamic] },
    },
    // where private members are allowed, the fence still holds
    {
      name: `fence/${name}/exempt`,
      files: PRIVATE_EXEMPT.filter((f) => files.some((g) => f.startsWith(g.replace(/\*\*.*$/, '')))),
      rules: { 'no-restricted-syntax': ['error', ...dynamic] },
    },
  ].filter((c) => c.files.length > 0);
}

function fences() {
  const kernelFiles = FENCE.kernel.map((k) =>
    k.endsWith('.ts') ? `src/core/${k}` : `src/core/${k}/**/*.ts`,
  );
  const out = [
    // every file of src/ outside the core: the private-member rule alone (the layer rules below add
    // their static arrows; their dynamic ones are in tests/core/fence.test.ts)
    {
      name: 'private-members',
      files: ['src/**/*.ts'],
      ignores: PRIVATE_EXEMPT,
      rules: { 'no-restricted-syntax': ['error', ...PRIVATE_MEMBERS] },
    },
    ...area(
      'kernel',
      kernelFiles,
      [...FENCE.features, ...OUTER],
      'The kernel imports no feature and no outer layer: let the feature register itself (session.pageSetups, a hook) — docs/CONTRIBUTING.md "Kernel and features".',
    ),
  ];
  for (const f of FENCE.features) {
    const allowed = FENCE.arrows.filter((a) => a.from === f).map((a) => a.to);
    const forbidden = FENCE.features.filter((g) => g !== f && !allowed.includes(g));
    out.push(
      ...area(
        `feature/${f}`,
        [`src/core/${f}/**/*.ts`],
        [...forbidden, ...OUTER],
        `Feature ${f} imports the kernel, itself and the feature arrows declared in fence.json (with why); core must not depend on outer layers.`,
      ),
    );
  }
  // the outer layers, one way: doors → cluster → runtime → capabilities → core
  const clusterMay = FENCE.cluster.may_import.join(', ');
  out.push(
    ...area(
      'capabilities',
      ['src/capabilities/**/*.ts'],
      ['runtime', 'doors', 'cluster'],
      'capabilities depend on core only.',
      ['puppeteer-core'],
    ),
    ...area(
      'runtime',
      ['src/runtime/**/*.ts'],
      ['doors', 'cluster'],
      'runtime must not depend on doors or the cluster.',
      ['puppeteer-core'],
    ),
    ...area(
      'cluster',
      ['src/cluster/**/*.ts'],
      // core/errors.js and core/ids.js only
      ['doors', 'core(?=/(?!(errors|ids)\\.js$))'],
      `The cluster imports ${clusterMay} only (fence.json cluster).`,
      ['puppeteer-core'],
    ),
    ...area(
      'doors',
      ['src/doors/**/*.ts'],
      ['core'],
      'doors reach the core only through runtime/ and capabilities/.',
      ['puppeteer-core'],
    ),
  );
  return out;
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'bench/node_modules/**',
      'tests/fixtures/pages/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'import-x/no-cycle': ['error', { maxDepth: 4 }],
    },
  },
  layer(['src/**/*.ts'], ['puppeteer-core', 'puppeteer-core/*'], 'Only src/core may import puppeteer-core.'),
  ...fences(),
);
