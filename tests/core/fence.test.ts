/**
 * The arrows of the tree (docs/CONTRIBUTING.md, "Layout" and "Kernel and features"), read from
 * every static import, `export … from`, `import type` and dynamic `import()` in src/ with the
 * TypeScript compiler (eslint's no-restricted-imports sees static imports only; eslint.config.js
 * adds a no-restricted-syntax rule for `import()`, and this test is the one that sees everything):
 *
 * - doors → cluster → runtime → capabilities → core, never back;
 * - inside src/core, the kernel (fence.json `kernel`) imports no feature; a feature imports the
 *   kernel, itself, and only the feature arrows declared in fence.json with a reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Fence {
  kernel: string[];
  features: string[];
  arrows: { from: string; to: string; why: string }[];
  cluster: { may_import: string[]; why: string };
}
const FENCE = JSON.parse(readFileSync(join(ROOT, 'fence.json'), 'utf8')) as Fence;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sourceFiles(rel));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

export interface Import {
  from: string;
  /** The file it names, relative to the repository (a package name as written). */
  to: string;
  line: number;
  dynamic: boolean;
}

/** Every import of a file: static, re-exports, type-only and `import('…')` with a literal. */
export function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): Import[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (spec: ts.Expression, dynamic: boolean) => {
    if (!ts.isStringLiteralLike(spec)) return;
    const s = spec.text;
    const to = s.startsWith('.') ? normalize(join(dirname(file), s)).replace(/\.js$/, '.ts') : s;
    out.push({ from: file, to, line: sf.getLineAndCharacterOfPosition(spec.getStart(sf)).line + 1, dynamic });
  };
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier)
      add(n.moduleSpecifier, false);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0])
      add(n.arguments[0], true);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) add(n.argument.literal, true);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Where a file sits: an outer layer, the kernel, or `feature:<name>` (null: outside src/). */
export function area(path: string): string | null {
  const m = /^src\/(.*)$/.exec(path);
  if (!m) return null;
  const [top, sub] = m[1]!.split('/');
  if (top !== 'core') return top === 'index.ts' ? 'index' : top!;
  if (FENCE.features.includes(sub!)) return `feature:${sub}`;
  if (FENCE.kernel.includes(sub!)) return 'kernel';
  return 'core:undeclared';
}

const OUTER: Record<string, string[]> = {
  index: ['doors'],
  doors: ['doors', 'cluster', 'runtime', 'capabilities'],
  runtime: ['runtime', 'capabilities', 'core'],
  capabilities: ['capabilities', 'core'],
};

/** Why an import crosses the fence, or null when it may. */
export function breach(imp: Import): string | null {
  const from = area(imp.from);
  const to = area(imp.to);
  if (from === null || to === null) return null; // a package
  if (from === 'core:undeclared' || to === 'core:undeclared')
    return 'a folder of src/core that fence.json does not place in the kernel or the features';
  const toLayer = to === 'kernel' || to.startsWith('feature:') ? 'core' : to;
  if (from === 'cluster') {
    const ok = FENCE.cluster.may_import.some((m) => imp.to.startsWith(`src/${m}`));
    return ok ? null : `the cluster imports only ${FENCE.cluster.may_import.join(', ')}`;
  }
  if (from in OUTER) return OUTER[from]!.includes(toLayer) ? null : `${from} must not import ${toLayer}`;
  if (toLayer !== 'core') return `core must not import ${toLayer}`;
  if (from === 'kernel')
    return to === 'kernel' ? null : `the kernel imports no feature (${to}): invert it (pageSetups, a hook)`;
  const [f, t] = [from.slice(8), to.slice(8)];
  if (to === 'kernel' || f === t) return null;
  return FENCE.arrows.some((a) => a.from === f && a.to === t)
    ? null
    : `feature ${f} → feature ${t} is not declared in fence.json (arrows, with why)`;
}

const FILES = sourceFiles('src');
const IMPORTS = FILES.flatMap((f) => importsOf(f));

describe('the fence (CONTRIBUTING: Layout, Kernel and features)', () => {
  it('no import crosses a layer or the kernel fence (static or dynamic)', () => {
    const bad = IMPORTS.map((i) => [i, breach(i)] as const)
      .filter(([, why]) => why)
      .map(([i, why]) => `${i.from}:${i.line} → ${i.to}${i.dynamic ? ' (dynamic)' : ''}: ${why}`);
    expect(bad).toEqual([]);
  });

  it('every folder of src/core is declared kernel or feature', () => {
    const dirs = readdirSync(join(ROOT, 'src/core'), { withFileTypes: true }).map((e) => e.name);
    const placed = new Set([...FENCE.kernel, ...FENCE.features]);
    expect(dirs.filter((d) => !placed.has(d) && !d.endsWith('.d.ts'))).toEqual([]);
  });

  it('every declared feature arrow is used and has a reason (the table names nothing stale)', () => {
    const used = new Set(
      IMPORTS.map((i) => [area(i.from), area(i.to)])
        .filter(([a, b]) => a?.startsWith('feature:') && b?.startsWith('feature:') && a !== b)
        .map(([a, b]) => `${a!.slice(8)}→${b!.slice(8)}`),
    );
    expect(FENCE.arrows.filter((a) => !used.has(`${a.from}→${a.to}`) || a.why.length < 20)).toEqual([]);
  });

  it('docs/CONTRIBUTING.md lists every feature arrow', () => {
    const doc = readFileSync(join(ROOT, 'docs/CONTRIBUTING.md'), 'utf8');
    expect(FENCE.arrows.filter((a) => !doc.includes(`\`${a.from}\` → \`${a.to}\``))).toEqual([]);
  });

  it('fails on a planted kernel → feature import, static or dynamic', () => {
    const planted = importsOf(
      'src/core/session/page.ts',
      "import { keepRequest } from '../read/request-bodies.js';\nconst m = await import('../replay/log.js');\n",
    );
    expect(planted.map(breach)).toEqual([
      expect.stringContaining('the kernel imports no feature (feature:read)'),
      expect.stringContaining('the kernel imports no feature (feature:replay)'),
    ]);
    // an undeclared arrow between features, and an outer layer reached from the core
    expect(
      breach({ from: 'src/core/print/pdf.ts', to: 'src/core/read/html.ts', line: 1, dynamic: false }),
    ).toMatch(/not declared/);
    expect(
      breach({ from: 'src/core/read/dom.ts', to: 'src/capabilities/common.ts', line: 1, dynamic: true }),
    ).toMatch(/core must not import capabilities/);
    expect(
      breach({ from: 'src/cluster/gateway.ts', to: 'src/core/session/page.ts', line: 1, dynamic: true }),
    ).toMatch(/cluster imports only/);
  });
});
