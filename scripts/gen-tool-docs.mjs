// The tool list in README.md and docs/mcp.md, generated from the capability registry (dist/), and
// the error-code table in docs/errors.md, generated from src/core/errors.ts and the door table.
// Rewrites only the block between <!-- tools:start --> and <!-- tools:end --> (errors:start/end);
// appends the block (under a "## Tools" heading) to a file that has no markers yet.
//   node scripts/gen-tool-docs.mjs           update the files
//   node scripts/gen-tool-docs.mjs --check   exit 1 and say which file is stale (nothing written)
// Run `node scripts/build.mjs` first: the registry is read from dist/capabilities/registry.js.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- tools:start -->';
const END = '<!-- tools:end -->';
export const TARGETS = ['README.md', 'docs/mcp.md'];

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The first sentence of a description (a period followed by a space or the end). */
function firstSentence(text) {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return m ? m[1] : text;
}

function params(schema) {
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return '—';
  // required first, then optional, each in schema order
  return [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))]
    .map((n) => `\`${n}${required.has(n) ? '' : '?'}\``)
    .join(', ');
}

function kind(a) {
  if (a.readOnly) return 'read-only';
  if (a.destructive) return 'destructive';
  return a.idempotent ? 'idempotent' : '';
}

/** The block (markers included) for a list of capabilities; groups in `groupOrder`, tools by name. */
export function renderToolBlock(capabilities, groupOrder, inputJsonSchema, core = []) {
  const rank = (g) => (groupOrder.includes(g) ? groupOrder.indexOf(g) : groupOrder.length);
  const groups = [...new Set(capabilities.map((c) => c.group))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const lines = [
    START,
    '<!-- Generated from the capability registry by `node scripts/gen-tool-docs.mjs`: edit the capabilities, not this list. -->',
    '',
    `${capabilities.length} tools in ${groups.length} groups. Each is \`POST /v1/tools/<name>\` and an MCP tool of \`brow serve\`'s \`/mcp\`; ` +
      `\`brow mcp\` lists the ${core.length} marked ★ (\`core\`) unless \`--caps\` names more (\`--caps=core,storage\`, \`--caps=all\`). ` +
      '`?` marks an optional parameter.',
  ];
  for (const g of groups) {
    lines.push('', `**${g}**`, '', '| tool | parameters | what it does | kind |', '|---|---|---|---|');
    const tools = capabilities.filter((c) => c.group === g).sort((a, b) => a.name.localeCompare(b.name));
    for (const c of tools) {
      lines.push(
        `| \`${c.name}\`${core.includes(c.name) ? ' ★' : ''} | ${params(inputJsonSchema(c))} | ${cell(firstSentence(c.description))} | ${kind(c.annotations)} |`,
      );
    }
  }
  lines.push(END);
  return lines.join('\n');
}

/** The file's text with its block replaced (or appended). */
export function withBlock(text, block) {
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  if (s >= 0 && e > s) return `${text.slice(0, s)}${block}${text.slice(e + END.length)}`;
  return `${text.replace(/\s*$/, '')}\n\n## Tools\n\n${block}\n`;
}

/** The block from the built registry. */
export async function currentBlock() {
  const registry = join(root, 'dist/capabilities/registry.js');
  if (!existsSync(registry)) throw new Error('dist/ is missing: run `node scripts/build.mjs` first.');
  const { capabilities } = await import(registry);
  const { CAPABILITY_GROUPS, inputJsonSchema } = await import(join(root, 'dist/doors/mcp/index.js'));
  const { coreTools } = await import(join(root, 'dist/doors/mcp/caps.js'));
  return renderToolBlock(capabilities, CAPABILITY_GROUPS, inputJsonSchema, coreTools(capabilities));
}

const ERR_START = '<!-- errors:start -->';
const ERR_END = '<!-- errors:end -->';
export const ERROR_DOC = 'docs/errors.md';

/** The error-code table (markers included): code, HTTP status, CLI exit code, default hint. */
export async function errorBlock() {
  const { ERROR_CODES, BrowserError } = await import(join(root, 'dist/core/errors.js'));
  const { ERROR_TABLE } = await import(join(root, 'dist/runtime/error-table.js'));
  const lines = [
    ERR_START,
    '<!-- Generated from src/core/errors.ts by `node scripts/gen-tool-docs.mjs`: edit the codes there. -->',
    '',
    '| code | HTTP (REST dialect) | CLI exit | default hint |',
    '|---|---|---|---|',
    ...ERROR_CODES.map(
      (c) =>
        `| \`${c}\` | ${ERROR_TABLE[c].http} | ${ERROR_TABLE[c].exit} | ${cell(new BrowserError(c, '').hint)} |`,
    ),
    ERR_END,
  ];
  return lines.join('\n');
}

function withErrorBlock(text, block) {
  const s = text.indexOf(ERR_START);
  const e = text.indexOf(ERR_END);
  if (s >= 0 && e > s) return `${text.slice(0, s)}${block}${text.slice(e + ERR_END.length)}`;
  return `${text.replace(/\s*$/, '')}\n\n${block}\n`;
}

async function main() {
  const check = process.argv.includes('--check');
  const block = await currentBlock();
  const errors = await errorBlock();
  const stale = [];
  for (const rel of [...TARGETS, ERROR_DOC]) {
    const file = join(root, rel);
    if (!existsSync(file)) {
      stale.push(`${rel} (missing)`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const next = rel === ERROR_DOC ? withErrorBlock(text, errors) : withBlock(text, block);
    if (next === text) continue;
    stale.push(rel);
    if (!check) writeFileSync(file, next);
  }
  if (check && stale.length > 0) {
    console.error(`The tool list is stale in ${stale.join(', ')}: run \`node scripts/gen-tool-docs.mjs\`.`);
    process.exitCode = 1;
  } else if (!check) {
    console.log(
      stale.length > 0 ? `Updated the tool list in ${stale.join(', ')}.` : 'The tool lists are current.',
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
