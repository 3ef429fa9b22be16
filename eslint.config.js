// Lint: type-aware rules (a forgotten promise in a browser tool is a hang) and the
// one-way arrows of the architecture: doors → runtime → capabilities → core.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

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
  // docs/CONTRIBUTING.md: puppeteer's private fields are read only through internals.ts (with
  // tests/core/contributing-rules.test.ts, which also catches casts of puppeteer objects by type)
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/browser/internals.ts', 'src/core/snapshot/injected/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // one underscore: a private field; MCP's `_meta` is public protocol, and `__name` is
          // brow's own global in a page (overlay-script.ts)
          selector: "MemberExpression[property.name=/^_(?!_)/]:not([property.name='_meta'])",
          message:
            "An underscore member is someone's private field: read puppeteer's through an accessor in src/core/browser/internals.ts.",
        },
        {
          selector: 'MemberExpression[computed=true][property.value=/^_(?!_)/]',
          message:
            "An underscore member is someone's private field: read puppeteer's through an accessor in src/core/browser/internals.ts.",
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/capabilities/**', '**/runtime/**', '**/doors/**'],
              message: 'core must not depend on outer layers.',
            },
          ],
        },
      ],
    },
  },
  layer(
    ['src/capabilities/**/*.ts'],
    ['**/runtime/**', '**/doors/**', 'puppeteer-core'],
    'capabilities depend on core only.',
  ),
  layer(['src/runtime/**/*.ts'], ['**/doors/**', 'puppeteer-core'], 'runtime must not depend on doors.'),
  layer(
    ['src/doors/**/*.ts'],
    ['**/core/**', 'puppeteer-core'],
    'doors reach the core only through runtime/ and capabilities/.',
  ),
);
