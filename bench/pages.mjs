// Generated benchmark pages and the loopback server that serves them.
//
// Every page carries the same "probe": a button whose click changes a status text.
// The click-to-answer measure clicks it and waits until the system has shown the
// new text. Pages with iframes or shadow roots carry unique marker labels inside
// every frame and every shadow root; the coverage column checks that a system's
// snapshot text contains each of them.
//
// Served on 127.0.0.1 (and on [::1] with the same port when the machine has it, so
// `localhost` resolves either way). `http://localhost:PORT` is a different origin
// (and site) from `http://127.0.0.1:PORT`, which gives real cross-origin frames
// (out-of-process iframes under site isolation) without any network.

import { createServer } from 'node:http';

export const PROBE_LABEL = 'Reveal answer';
export const ANSWER_BEFORE = 'Answer: waiting';
/** Text that appears after the n-th click on the probe. */
export const answerAfter = (n = 1) => `Answer: revealed ${n}`;

const PROBE_HTML = `<div class="probe"><button id="probe" type="button">${PROBE_LABEL}</button>
<p id="answer">${ANSWER_BEFORE}</p></div>`;
const PROBE_SCRIPT = `<script>
(() => { let n = 0; const a = document.getElementById('answer');
  document.getElementById('probe').addEventListener('click', () => { n += 1; a.textContent = 'Answer: revealed ' + n; });
})();
</script>`;

function doc(title, body, { head = '', script = '' } = {}) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:16px} table{border-collapse:collapse} td,th{padding:2px 6px;border:1px solid #ccc} iframe{width:480px;height:220px;border:1px solid #888;display:block;margin:6px 0}</style>
${head}</head><body>
${body}
${PROBE_SCRIPT}${script}
</body></html>`;
}

// Deterministic pseudo-random words, so every run serves identical bytes.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const WORDS = (
  'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar ' +
  'orchid pepper quartz river saffron thistle umber velvet willow xenon yarrow zephyr anchor beacon ' +
  'canyon dune estuary forest glacier hollow island jetty knoll ledge mesa north oasis prairie'
).split(' ');
const CITIES = [
  'Lisbon',
  'Oslo',
  'Quito',
  'Hanoi',
  'Perth',
  'Accra',
  'Lima',
  'Riga',
  'Tunis',
  'Osaka',
  'Cork',
  'Bern',
];
function words(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---------------------------------------------------------------- pages

function formPage() {
  return doc(
    'Small form',
    `<h1>Create an account</h1>
<form id="signup" onsubmit="event.preventDefault()">
  <p><label>Full name <input name="name" autocomplete="off"></label></p>
  <p><label>Email <input name="email" type="email"></label></p>
  <p><label>Plan <select name="plan"><option>Free</option><option>Team</option><option>Enterprise</option></select></label></p>
  <p><label><input type="checkbox" name="terms"> I accept the terms</label></p>
  <p><button type="submit">Create account</button> <a href="#help">Need help?</a></p>
</form>
${PROBE_HTML}`,
  );
}

/** 3,000 rows × (tr + 6 td + 6 text + span + a) ≈ 45,000 nodes. */
function tablePage() {
  const r = rng(42);
  const rows = [];
  for (let i = 1; i <= 3000; i++) {
    const name = `${cap(words(r, 1))} ${cap(words(r, 1))}`;
    const city = CITIES[Math.floor(r() * CITIES.length)];
    const amount = (r() * 10000).toFixed(2);
    const status = r() < 0.7 ? 'active' : 'paused';
    rows.push(
      `<tr><td>${i}</td><td>${name}</td><td>${city}</td><td>${amount}</td><td><span class="badge">${status}</span></td><td><a href="#row-${i}">open</a></td></tr>`,
    );
  }
  return doc(
    'Accounts table',
    `<h1>Accounts</h1>
${PROBE_HTML}
<table id="accounts"><thead><tr><th>#</th><th>Name</th><th>City</th><th>Balance</th><th>Status</th><th>Link</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`,
  );
}

/** ~20,000 nodes of ordinary document structure (sections, headings, text, links, lists). */
function bigPage() {
  const r = rng(7);
  const sections = [];
  // Each section: section, h2+text, p+text+a+text+text, ul + 5×(li+text), div+button+text
  // ≈ 1 + 2 + 5 + 1 + 10 + 1 + 2 + (p+text) 2 = 24 nodes; 830 sections ≈ 20k.
  for (let i = 1; i <= 830; i++) {
    const items = [];
    for (let j = 0; j < 5; j++) items.push(`<li>${words(r, 3)}</li>`);
    sections.push(`<section><h2>Section ${i}: ${cap(words(r, 2))}</h2>
<p>${cap(words(r, 12))} <a href="#s${i}">${words(r, 2)}</a> ${words(r, 8)}.</p>
<ul>${items.join('')}</ul>
<p>${cap(words(r, 15))}.</p>
<div class="meta"><button type="button">Like ${i}</button></div></section>`);
  }
  return doc('Large document', `<h1>Large document</h1>\n${PROBE_HTML}\n<main>${sections.join('\n')}</main>`);
}

// Marker labels: one per frame / shadow root; the coverage check looks for each label.
export const FRAME_MARKERS = {
  'same-origin frame': 'Frame kilo action',
  'same-origin frame, depth 2': 'Frame lima action',
  'cross-origin frame in same-origin frame, depth 2': 'Frame oscar action',
  'cross-origin frame': 'Frame mike action',
  'frame back to top origin inside cross-origin frame, depth 2': 'Frame november action',
  'same-origin frame inside cross-origin frame, depth 2': 'Frame papa action',
};
export const SHADOW_MARKERS = {
  'open shadow root': 'Shadow open action',
  'open root nested in open root': 'Shadow nested action',
  'closed shadow root': 'Shadow closed action',
  'open root nested in closed root': 'Shadow deep action',
  'slotted light-DOM child': 'Shadow slotted action',
};

function framePage(title, marker, childFrames = '') {
  return doc(
    title,
    `<h2>${title}</h2><p>Text inside the frame (${marker.split(' ')[1]}).</p>
<button type="button" onclick="this.nextElementSibling.textContent='pressed'">${marker}</button><span>idle</span>
${childFrames}`,
  );
}

function iframePage(port) {
  const top = `http://127.0.0.1:${port}`;
  const cross = `http://localhost:${port}`;
  return doc(
    'Iframe heavy',
    `<h1>Iframe-heavy page</h1>
${PROBE_HTML}
<p>Two frame trees: a same-origin one and a cross-origin one, each two levels deep.</p>
<iframe title="Same-origin frame" src="${top}/frames/same.html"></iframe>
<iframe title="Cross-origin frame" src="${cross}/frames/cross.html"></iframe>`,
  );
}

function framesRoutes(port) {
  const top = `http://127.0.0.1:${port}`;
  const cross = `http://localhost:${port}`;
  const M = FRAME_MARKERS;
  return {
    '/frames/same.html': framePage(
      'Same frame',
      M['same-origin frame'],
      `<iframe title="Inner same" src="${top}/frames/same-inner.html"></iframe><iframe title="Inner cross" src="${cross}/frames/same-cross-inner.html"></iframe>`,
    ),
    '/frames/same-inner.html': framePage('Same inner', M['same-origin frame, depth 2']),
    '/frames/same-cross-inner.html': framePage(
      'Same cross inner',
      M['cross-origin frame in same-origin frame, depth 2'],
    ),
    '/frames/cross.html': framePage(
      'Cross frame',
      M['cross-origin frame'],
      `<iframe title="Inner back" src="${top}/frames/cross-back-inner.html"></iframe><iframe title="Inner cross same" src="${cross}/frames/cross-same-inner.html"></iframe>`,
    ),
    '/frames/cross-back-inner.html': framePage(
      'Cross back inner',
      M['frame back to top origin inside cross-origin frame, depth 2'],
    ),
    '/frames/cross-same-inner.html': framePage(
      'Cross same inner',
      M['same-origin frame inside cross-origin frame, depth 2'],
    ),
  };
}

function shadowPage() {
  const M = SHADOW_MARKERS;
  // 40 ordinary open-root "cards" make it component-heavy; the five marked roots test coverage.
  const cards = [];
  for (let i = 1; i <= 40; i++) cards.push(`<x-card data-n="${i}"></x-card>`);
  return doc(
    'Shadow DOM',
    `<h1>Shadow DOM page</h1>
${PROBE_HTML}
<div id="open-host"></div>
<div id="closed-host"></div>
<x-slotter><button type="button" slot="main">${M['slotted light-DOM child']}</button></x-slotter>
<div class="cards">${cards.join('')}</div>`,
    {
      script: `<script>
(() => {
  const btn = (label) => '<button type="button">' + label + '</button>';
  const open = document.getElementById('open-host').attachShadow({ mode: 'open' });
  open.innerHTML = '<p>Inside an open root.</p>' + btn(${JSON.stringify(M['open shadow root'])}) + '<div id="inner-host"></div>';
  open.getElementById('inner-host').attachShadow({ mode: 'open' }).innerHTML =
    '<p>Nested open root.</p>' + btn(${JSON.stringify(M['open root nested in open root'])});
  const closed = document.getElementById('closed-host').attachShadow({ mode: 'closed' });
  closed.innerHTML = '<p>Inside a closed root.</p>' + btn(${JSON.stringify(M['closed shadow root'])}) + '<div class="deep"></div>';
  closed.querySelector('.deep').attachShadow({ mode: 'open' }).innerHTML =
    '<p>Open root inside the closed one.</p>' + btn(${JSON.stringify(M['open root nested in closed root'])});
  customElements.define('x-slotter', class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<fieldset><legend>Slot</legend><slot name="main"></slot></fieldset>'; }
  });
  customElements.define('x-card', class extends HTMLElement {
    constructor() { super(); const n = this.dataset.n; this.attachShadow({ mode: 'open' }).innerHTML =
      '<article><h3>Card ' + n + '</h3><p>Component body ' + n + '.</p><label>Qty ' + n + ' <input type="number" value="1"></label><button type="button">Add ' + n + '</button></article>'; }
  });
})();
</script>`,
    },
  );
}

function articlePage() {
  const r = rng(99);
  const paras = [];
  for (let i = 1; i <= 6; i++) {
    paras.push(`<h2>${cap(words(r, 4))}</h2>`);
    for (let j = 0; j < 5; j++) paras.push(`<p>${cap(words(r, 45))}. ${cap(words(r, 30))}.</p>`);
    if (i === 2) paras.push(`<blockquote><p>${cap(words(r, 25))}.</p></blockquote>`);
    if (i === 3) paras.push(`<ul>${[1, 2, 3, 4].map(() => `<li>${cap(words(r, 8))}</li>`).join('')}</ul>`);
    if (i === 4)
      paras.push(
        `<figure><img alt="A chart of ${words(r, 3)}" width="320" height="160" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><figcaption>${cap(words(r, 9))}</figcaption></figure>`,
      );
    if (i === 5) paras.push(`<pre><code>const total = rows.reduce((a, r) => a + r.amount, 0);</code></pre>`);
  }
  const nav = ['Home', 'World', 'Science', 'Culture', 'Sport', 'Opinion']
    .map((n) => `<a href="#${n}">${n}</a>`)
    .join(' ');
  return doc(
    'The quiet river — an article',
    `<header><nav>${nav}</nav><form role="search"><input type="search" aria-label="Search site"><button>Search</button></form></header>
<main><article>
<h1>The quiet river</h1>
<p class="byline">By Ada Lindqvist · 12 min read</p>
${PROBE_HTML}
${paras.join('\n')}
</article>
<aside><h2>Related</h2><ul>${[1, 2, 3, 4, 5].map((i) => `<li><a href="#rel${i}">${cap(words(r, 5))}</a></li>`).join('')}</ul>
<div class="ad">Advertisement: ${words(r, 6)}</div></aside></main>
<footer><p>© 2025 Example Press · <a href="#privacy">Privacy</a> · <a href="#terms">Terms</a></p></footer>`,
  );
}

// ---------------------------------------------------------------- registry

/** name → { path, title, markers?, description } */
export const PAGES = {
  form: { path: '/form.html', description: 'small form' },
  table: { path: '/table.html', description: '3,000-row table' },
  big: { path: '/big.html', description: '20,000-node page' },
  iframes: {
    path: '/iframes.html',
    description: 'iframe-heavy (same + cross origin, 2 deep)',
    markers: FRAME_MARKERS,
  },
  shadow: { path: '/shadow.html', description: 'shadow DOM (open + closed roots)', markers: SHADOW_MARKERS },
  article: { path: '/article.html', description: 'article' },
};
export const PAGE_NAMES = Object.keys(PAGES);

function buildRoutes(port) {
  return {
    '/form.html': formPage(),
    '/table.html': tablePage(),
    '/big.html': bigPage(),
    '/iframes.html': iframePage(port),
    '/shadow.html': shadowPage(),
    '/article.html': articlePage(),
    ...framesRoutes(port),
  };
}

/**
 * Start the page server on 127.0.0.1 (and [::1] on the same port if possible).
 * Returns { port, url(name), crossUrl(path), close() }.
 */
export async function startPageServer() {
  let routes = {};
  const handler = (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const body = routes[path];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };
  const v4 = createServer(handler);
  v4.keepAliveTimeout = 1000;
  await new Promise((resolve, reject) => {
    v4.once('error', reject);
    v4.listen(0, '127.0.0.1', resolve);
  });
  const port = v4.address().port;
  routes = buildRoutes(port);
  let v6 = null;
  try {
    const s = createServer(handler);
    s.keepAliveTimeout = 1000;
    await new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '::1', resolve);
    });
    v6 = s;
  } catch {
    v6 = null; // no IPv6 loopback here: localhost resolves to 127.0.0.1 anyway
  }
  const close = async () => {
    for (const s of [v4, v6]) {
      if (!s) continue;
      s.closeAllConnections?.();
      await new Promise((resolve) => s.close(() => resolve()));
    }
  };
  return {
    port,
    url: (name) => `http://127.0.0.1:${port}${PAGES[name].path}`,
    bytes: (name) => Buffer.byteLength(routes[PAGES[name].path]),
    close,
  };
}
