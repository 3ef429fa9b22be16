// The console: sessions and pages, the handoff queue, the live viewport of the selected page and its activity panes.
import { call, stream } from './api.js';
import { Panes } from './panes.js';
import { Viewport } from './viewport.js';

/** Events that change the session/page list. */
const STRUCTURAL = new Set([
  'session-started',
  'session-stopped',
  'navigated',
  'page-opened',
  'page-closed',
  'handoff-requested',
  'handoff-resolved',
  'pick-requested',
  'picked',
  'dialog',
]);

const $ = (id) => document.getElementById(id);
const state = {
  sessions: [],
  handoffs: [],
  picks: [],
  lastPageId: null,
  selected: null,
  refreshTimer: null,
  // the page a link asked for (?page=…, as handoff answers give it), chosen once it is listed
  wanted: new URLSearchParams(location.search).get('page'),
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

let toastTimer = null;
/** What the toast shown now is about (a handoff id), so its end can clear it. */
let toastAbout = null;
function toast(text, kind = 'info', action, about = null) {
  const t = $('toast');
  toastAbout = about;
  t.replaceChildren(el('span', '', text));
  if (action) {
    const b = el('button', 'mini', action.label);
    b.type = 'button';
    b.addEventListener('click', () => {
      action.run();
      t.hidden = true;
    });
    t.append(b);
  }
  t.dataset.kind = kind;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), action ? 8000 : 4000);
}

const viewport = new Viewport({
  onPicked: (p) => {
    panes.show('picked');
    const what = `Picked ${p.ref} <${p.tag}>${p.name ? ` “${p.name.slice(0, 40)}”` : ''}`;
    // only a waiting browser_pick hears it at once; otherwise it waits to be read
    toast(
      p.delivered
        ? `${what}: sent to the agent, which asked for it.`
        : `${what}: kept for the agent (browser_read_picks, the picked event).`,
      'ok',
    );
    refreshSoon();
  },
  onStats: (text) => ($('stats').textContent = text),
  toast,
});
const panes = new Panes();

const allPages = () => state.sessions.flatMap((s) => s.pages.map((p) => ({ ...p, session: s })));
const selectedPage = () => allPages().find((p) => p.page_id === state.selected) ?? null;
const ago = (ms) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
};
const shortId = (id) => id.split('-').pop();

function select(pageId) {
  state.selected = pageId;
  render();
}

/** A browser_pick waiting for the person: its instructions and a Pick button on its page. */
function pickItem(p) {
  const li = el('li', 'handoff pick-request');
  li.dataset.pickId = p.pick_id;
  const meta = el('div', 'meta', `pick an element · waiting ${ago(p.started_at)}`);
  meta.dataset.since = String(p.started_at);
  const actions = el('div', 'actions');
  const go = el('button', 'continue pick-now', 'Pick');
  go.type = 'button';
  go.addEventListener('click', () => {
    select(p.page_id);
    viewport.setPicking(true);
  });
  actions.append(go);
  li.append(el('p', 'instructions', p.instructions), meta, actions);
  return li;
}

function renderHandoffs() {
  const list = $('handoff-list');
  list.replaceChildren();
  const n = state.handoffs.length + state.picks.length;
  $('handoffs').hidden = n === 0;
  $('handoff-count').textContent = String(n);
  document.title = n ? `(${n}) brow console` : 'brow console';
  for (const p of state.picks) list.append(pickItem(p));
  for (const h of state.handoffs) {
    const li = el('li', 'handoff');
    li.dataset.handoffId = h.handoff_id;
    const text = el('p', 'instructions', h.instructions);
    const meta = el(
      'div',
      'meta',
      `${new URL(h.url, location.href).host || h.url} · waiting ${ago(h.started_at)}`,
    );
    meta.dataset.since = String(h.started_at);
    const actions = el('div', 'actions');
    const view = el('button', 'secondary', 'View');
    view.type = 'button';
    view.addEventListener('click', () => select(h.page_id));
    const go = el('button', 'continue', 'Continue');
    go.type = 'button';
    go.addEventListener('click', async () => {
      go.disabled = true;
      try {
        // what the person typed last lands before the page goes back to the agent
        await viewport.drained();
        await call(`handoffs/${encodeURIComponent(h.handoff_id)}/confirm`, {});
        toast('Handed back to the agent.', 'ok');
      } catch (err) {
        go.disabled = false;
        toast(`Could not continue: ${err.message}`, 'error');
      }
    });
    actions.append(view, go);
    li.append(text, meta, actions);
    list.append(li);
  }
}

function renderSessions() {
  const ul = $('sessions');
  ul.replaceChildren();
  $('no-sessions').hidden = state.sessions.length > 0;
  for (const s of state.sessions) {
    const li = el('li', 'session');
    const head = el('div', 'session-head');
    head.append(
      el('span', 'sid', `session ${shortId(s.session_id)}`),
      el('span', 'chip', s.headless ? 'headless' : 'window'),
    );
    if (s.read_only) head.append(el('span', 'chip warn', 'read-only'));
    li.append(head);
    const pages = el('ul', 'pages');
    for (const p of s.pages) {
      const item = el('li');
      const b = el('button', 'page');
      b.type = 'button';
      b.dataset.pageId = p.page_id;
      b.setAttribute('aria-current', String(p.page_id === state.selected));
      const title = el('span', 'title', p.title || p.url || 'about:blank');
      const url = el('span', 'url', p.url);
      const chips = el('span', 'chips');
      if (p.state === 'handoff') chips.append(el('span', 'chip amber', 'your turn'));
      if (p.state === 'dialog') chips.append(el('span', 'chip amber', 'dialog'));
      if (p.recording) chips.append(el('span', 'chip red', '● rec'));
      if (p.watched) chips.append(el('span', 'chip', 'live'));
      b.append(title, url, chips);
      b.addEventListener('click', () => select(p.page_id));
      item.append(b);
      pages.append(item);
    }
    li.append(pages);
    ul.append(li);
  }
  const n = allPages().length;
  $('summary').textContent =
    `${state.sessions.length} session${state.sessions.length === 1 ? '' : 's'} · ${n} page${n === 1 ? '' : 's'}`;
}

function render() {
  const listed = (id) => (id && allPages().some((p) => p.page_id === id) ? id : null);
  // a page a link named, once; else keep the selection, else the page waiting for a person,
  // the page the agent used last, the first page
  if (listed(state.wanted)) {
    state.selected = state.wanted;
    state.wanted = null;
  }
  if (!selectedPage()) {
    const waiting = state.handoffs[0]?.page_id ?? state.picks[0]?.page_id;
    state.selected = listed(waiting) ?? listed(state.lastPageId) ?? allPages()[0]?.page_id ?? null;
  }
  renderHandoffs();
  renderSessions();
  const page = selectedPage();
  $('page-title').textContent = page ? page.title || 'Untitled page' : 'No page selected';
  $('page-url').textContent = page?.url ?? '';
  $('pick').disabled = !page;
  viewport.watch(page ? { page_id: page.page_id, read_only: page.session.read_only } : null);
  void panes.setSession(page?.session.session_id ?? null);
  $('dialog-bar').hidden = page?.state !== 'dialog';
}

async function refresh() {
  try {
    const { data } = await call('overview');
    state.sessions = data.sessions;
    state.handoffs = data.handoffs;
    state.picks = data.picks ?? [];
    state.lastPageId = data.last_page_id ?? null;
    render();
  } catch (err) {
    $('summary').textContent = `cannot reach brow: ${err.message}`;
  }
}

function refreshSoon() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(refresh, 60);
}

/** Follow every event type brow has (the list comes from the server, which declares them). */
function connect(types) {
  const handlers = {
    open: () => {
      $('conn').dataset.state = 'live';
      $('conn-text').textContent = 'live';
      refreshSoon();
    },
    error: () => {
      $('conn').dataset.state = 'down';
      $('conn-text').textContent = 'reconnecting';
    },
  };
  for (const type of types) {
    handlers[type] = (e) => {
      panes.onEvent(e);
      if (STRUCTURAL.has(type)) refreshSoon();
      if (type === 'handoff-requested') {
        toast(
          `A person is needed: ${e.instructions}`,
          'warn',
          { label: 'View', run: () => select(e.page_id) },
          e.handoff_id,
        );
      }
      if (type === 'pick-requested') {
        toast(
          `The agent asks you to pick an element: ${e.instructions}`,
          'warn',
          { label: 'Pick', run: () => (select(e.page_id), viewport.setPicking(true)) },
          e.pick_id,
        );
      }
      // a resolved request's toast goes with it
      const ended = type === 'handoff-resolved' ? e.handoff_id : type === 'picked' ? e.pick_id : null;
      if (ended && ended === toastAbout) {
        $('toast').hidden = true;
        toastAbout = null;
      }
      if (type === 'dialog' && e.page_id === state.selected && e.dialog?.handled === 'pending') {
        $('dialog-text').textContent = `The page shows a ${e.dialog.type}: “${e.dialog.message}”`;
      }
    };
  }
  stream('events', handlers);
}

async function answerDialog(accept) {
  const page = selectedPage();
  if (!page) return;
  try {
    await call(`pages/${encodeURIComponent(page.page_id)}/dialog`, { accept });
  } catch (err) {
    toast(`Could not answer the dialog: ${err.message}`, 'error');
  }
  refreshSoon();
}

$('pick').addEventListener('click', () => viewport.setPicking(!viewport.picking));
$('dialog-accept').addEventListener('click', () => answerDialog(true));
$('dialog-dismiss').addEventListener('click', () => answerDialog(false));
setInterval(() => {
  for (const m of document.querySelectorAll('.handoff .meta')) {
    m.textContent = m.textContent.replace(/waiting .*$/, `waiting ${ago(Number(m.dataset.since))}`);
  }
}, 1000);

call('event-types').then(
  ({ data }) => connect(data.types),
  (err) => toast(`Could not reach brow: ${err.message}`, 'error'),
);
void refresh();
