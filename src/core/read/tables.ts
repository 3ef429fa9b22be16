/**
 * Tables for readable Markdown. Data tables are written here as GFM pipe tables (row by row with a
 * small inline converter: a 3,000-row table through turndown's per-node rules costs seconds);
 * layout tables (one column, nested tables, block content) are unwrapped into their cells.
 */

const BLOCKS = new Set([
  'P',
  'DIV',
  'UL',
  'OL',
  'H1',
  'H2',
  'H3',
  'H4',
  'SECTION',
  'ARTICLE',
  'BLOCKQUOTE',
  'PRE',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BUTTON', 'SELECT', 'INPUT', 'TEXTAREA']);

const cellsOf = (tr: Element): Element[] =>
  Array.from(tr.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
const rowsOf = (table: Element): Element[] =>
  Array.from(table.querySelectorAll('tr')).filter((tr) => tr.closest('table') === table);

/** Text of a cell with links, emphasis and code kept, on one line, pipes escaped. */
function inline(node: Node): string {
  if (node.nodeType === 3) return (node.nodeValue ?? '').replace(/([\\`*_[\]])/g, '\\$1');
  if (node.nodeType !== 1) return '';
  const el = node as Element;
  const tag = el.tagName;
  if (SKIP.has(tag)) return '';
  if (tag === 'BR') return ' ';
  if (tag === 'IMG') return el.getAttribute('alt') ?? '';
  let inner = '';
  for (const c of Array.from(el.childNodes)) inner += inline(c);
  const text = inner.trim();
  if (!text) return inner;
  switch (tag) {
    case 'A': {
      const href = el.getAttribute('href');
      return href ? `[${text}](${href.replace(/[()\s]/g, (ch) => encodeURIComponent(ch))})` : inner;
    }
    case 'STRONG':
    case 'B':
      return `**${text}**`;
    case 'EM':
    case 'I':
      return `_${text}_`;
    case 'CODE':
      return `\`${(el.textContent ?? '').replace(/`/g, "'")}\``;
    case 'S':
    case 'DEL':
    case 'STRIKE':
      return `~${text}~`;
    default:
      return inner;
  }
}

const cellText = (cell: Element) => inline(cell).replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** A data table as GFM Markdown; a table without a heading row gets an empty one. */
function renderTable(rows: Element[], width: number): string {
  const first = rows[0]!;
  const heading = first.parentElement?.tagName === 'THEAD' || cellsOf(first).every((c) => c.tagName === 'TH');
  const line = (cells: string[]) => {
    while (cells.length < width) cells.push('');
    return `| ${cells.join(' | ')} |`;
  };
  const out: string[] = [];
  out.push(line(heading ? cellsOf(first).map(cellText) : []));
  out.push(line(Array.from({ length: width }, () => '---')));
  for (const tr of heading ? rows.slice(1) : rows) {
    const cells = cellsOf(tr);
    if (cells.length === 0) continue;
    out.push(line(cells.map(cellText)));
  }
  return out.join('\n');
}

/**
 * Replace every table under `root`: data tables by a placeholder paragraph whose Markdown is
 * returned in `tables` (put back after turndown), layout tables by their cells' content.
 */
export function extractTables(root: Element): Map<string, string> {
  const doc = root.ownerDocument;
  const tables = new Map<string, string>();
  // innermost first, so an outer layout table sees its inner tables already handled
  for (const table of Array.from(root.querySelectorAll('table')).reverse()) {
    const rows = rowsOf(table);
    if (rows.length === 0) {
      table.remove();
      continue;
    }
    const width = Math.max(...rows.map((r) => cellsOf(r).length));
    const blocky = rows
      .slice(0, 20)
      .flatMap(cellsOf)
      .some((c) => Array.from(c.children).some((k) => BLOCKS.has(k.tagName)));
    const nested = table.querySelector('table, [data-brow-table]') !== null;
    if (width < 2 || blocky || nested) {
      const box = doc.createElement('div');
      for (const cell of rows.flatMap(cellsOf)) {
        const part = doc.createElement('div');
        while (cell.firstChild) part.appendChild(cell.firstChild);
        box.appendChild(part);
      }
      table.replaceWith(box);
      continue;
    }
    const key = `BROWTABLE${tables.size}X`;
    tables.set(key, renderTable(rows, width));
    const p = doc.createElement('p');
    p.setAttribute('data-brow-table', key);
    p.textContent = key;
    table.replaceWith(p);
  }
  return tables;
}

/** Put the tables' Markdown where their placeholders ended up. */
export function restoreTables(markdown: string, tables: Map<string, string>): string {
  if (tables.size === 0) return markdown;
  return markdown.replace(/BROWTABLE\d+X/g, (key) => tables.get(key) ?? key);
}
