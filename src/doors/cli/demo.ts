/** A small demo page served by `brow serve --demo`, so a newcomer has something to drive. */
import type { IncomingMessage, ServerResponse } from 'node:http';

const DEMO_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>brow demo</title>
<style>body{font:16px system-ui;margin:2rem;max-width:40rem}label{display:block;margin:.5rem 0}</style></head>
<body>
<h1>brow demo</h1>
<p>Search the catalogue, then open a result.</p>
<form id="f" role="search">
  <label>Query <input name="q" placeholder="e.g. lamp"></label>
  <button type="submit">Search</button>
</form>
<ul id="results"></ul>
<script>
const items = ['Desk lamp', 'Floor lamp', 'Lamp shade', 'Table', 'Chair'];
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const q = new FormData(e.target).get('q').toLowerCase();
  const ul = document.getElementById('results');
  ul.innerHTML = '';
  for (const it of items.filter((i) => i.toLowerCase().includes(q))) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '#' + encodeURIComponent(it);
    a.textContent = it;
    li.append(a);
    ul.append(li);
  }
  if (!ul.children.length) ul.innerHTML = '<li>No results</li>';
});
</script>
</body></html>`;

/** One element of the demo page's outline, as `browser_list_elements` answers it (`data.snapshot.refs`). */
export interface DemoRef {
  ref: string;
  role: string;
  accessible_name?: string;
  allowed_actions?: string[];
}

/**
 * What `brow serve --demo` suggests trying, from the demo page's outline as it was listed at start:
 * list the elements, fill the search box, press its button (which adds the results as links). Each
 * line is a whole shell command; the comment after `#` says what it should answer. The refs are the
 * outline's own, so the suggestions cannot name an element that does not take the action.
 */
export function demoSuggestions(base: string, refs: DemoRef[]): string[] {
  const pick = (role: string, action: string) =>
    refs.find((r) => r.role === role && (r.allowed_actions ?? []).includes(action));
  const box = pick('textbox', 'fill');
  const button = pick('button', 'click');
  const call = (tool: string, input: Record<string, unknown>) =>
    `curl -s -X POST ${base}/v1/tools/${tool} -H 'content-type: application/json' -d '${JSON.stringify(input)}'`;
  const lines = [`${call('browser_list_elements', {})}   # the outline with its refs`];
  if (box)
    lines.push(
      `${call('browser_fill', { ref: box.ref, value: 'lamp' })}   # types lamp into ${box.accessible_name || 'the search box'}`,
    );
  if (box && button)
    lines.push(`${call('browser_click', { ref: button.ref })}   # searches: the results appear as links`);
  return lines;
}

export function demoRoute(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (req.method !== 'GET' || url.pathname !== '/demo') return false;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(DEMO_HTML);
  return true;
}
