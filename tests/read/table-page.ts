/** A generated 3,000-row table page (about 45k DOM nodes), like bench/pages.mjs's "table". */
const WORDS =
  'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar'.split(' ');
const CITIES = ['Lisbon', 'Oslo', 'Quito', 'Hanoi', 'Perth', 'Accra', 'Lima', 'Riga'];

export function tablePageHtml(rows = 3000): string {
  let s = 42;
  const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const body: string[] = [];
  for (let i = 1; i <= rows; i++) {
    body.push(
      `<tr><td>${i}</td><td>${pick(WORDS)} ${pick(WORDS)}</td><td>${pick(CITIES)}</td><td>${(r() * 10000).toFixed(2)}</td>` +
        `<td><span class="badge">${r() < 0.7 ? 'active' : 'paused'}</span></td><td><a href="#row-${i}">open</a></td></tr>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Accounts table</title>
<style>body{font-family:sans-serif;margin:16px} td,th{padding:2px 6px;border:1px solid #ccc}</style></head><body>
<h1>Accounts</h1><button id="probe" type="button">Reveal answer</button>
<table id="accounts"><thead><tr><th>#</th><th>Name</th><th>City</th><th>Balance</th><th>Status</th><th>Link</th></tr></thead>
<tbody>${body.join('\n')}</tbody></table></body></html>`;
}
