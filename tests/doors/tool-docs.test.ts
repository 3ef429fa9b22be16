/** The tool lists in README.md and docs/mcp.md are generated from the registry and must be current. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import { buildOnce, ROOT, SETUP_MS } from './helpers.js';

const block = (file: string) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const m = /<!-- tools:start -->([\s\S]*?)<!-- tools:end -->/.exec(text);
  if (!m) throw new Error(`${file} has no <!-- tools:start --> … <!-- tools:end --> block`);
  return m[1]!;
};

describe('generated tool docs', () => {
  beforeAll(() => buildOnce(), SETUP_MS);

  it('README.md and docs/mcp.md list exactly what `node scripts/gen-tool-docs.mjs` generates', () => {
    let output = '';
    let code = 0;
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/gen-tool-docs.mjs'), '--check'], {
        cwd: ROOT,
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status?: number; stderr?: Buffer };
      code = err.status ?? 1;
      output = String(err.stderr ?? '');
    }
    expect({ code, output }).toEqual({ code: 0, output: '' });
  });

  it.each(['README.md', 'docs/mcp.md'])('%s names every capability', (file) => {
    const text = block(file);
    for (const c of capabilities) expect(text, c.name).toContain(`\`${c.name}\``);
  });
});
