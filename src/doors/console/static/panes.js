// The activity panes of the selected session: console, network, picked elements, events. They follow the event stream live.
import { call } from './api.js';

const MAX_ROWS = 500;
const time = (ms) => new Date(ms).toLocaleTimeString([], { hour12: false });

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

class Pane {
  constructor(name) {
    this.list = document.getElementById(`pane-${name}`);
    this.count = document.getElementById(`n-${name}`);
    this.rows = new Map();
  }

  clear() {
    this.list.replaceChildren();
    this.rows.clear();
    this.setCount();
  }

  setCount() {
    if (!this.count) return;
    const n = this.list.children.length;
    this.count.textContent = n ? String(n) : '';
  }

  /** Add or replace the row with this key; keeps the view pinned to the bottom when it was. */
  put(key, row) {
    const pinned = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    const old = this.rows.get(key);
    if (old) old.replaceWith(row);
    else this.list.append(row);
    this.rows.set(key, row);
    while (this.list.children.length > MAX_ROWS) {
      const first = this.list.firstElementChild;
      for (const [k, v] of this.rows) if (v === first) this.rows.delete(k);
      first.remove();
    }
    if (pinned) this.list.scrollTop = this.list.scrollHeight;
    this.setCount();
  }
}

function consoleRow(e) {
  const li = el('li', `row level-${e.level}`);
  li.append(el('time', 'ts', time(e.timestamp)), el('span', 'lvl', e.level), el('span', 'msg', e.text));
  if (e.source) li.append(el('span', 'src', e.source));
  return li;
}

function networkRow(e) {
  const li = el('li', `row net${e.failed ? ' failed' : ''}${e.pending ? ' pending' : ''}`);
  const status = e.pending ? '…' : (e.status ?? (e.failed ? 'ERR' : ''));
  li.append(
    el('time', 'ts', time(e.timestamp)),
    el('span', 'method', e.method),
    el('span', 'status', String(status)),
    el('span', 'msg', e.url),
    el('span', 'src', e.duration_ms !== undefined ? `${e.duration_ms} ms` : (e.resource_type ?? '')),
  );
  if (e.error) li.title = e.error;
  return li;
}

function pickedRow(p) {
  const li = el('li', 'row picked');
  const head = el('div', 'picked-head');
  const ref = el('code', 'ref', p.ref);
  const copy = el('button', 'mini', 'Copy ref');
  copy.type = 'button';
  copy.addEventListener('click', () => void navigator.clipboard?.writeText(p.ref));
  head.append(
    ref,
    el('span', 'tag', `<${p.tag}>`),
    el('span', 'msg', p.name || p.text.slice(0, 80)),
    el('span', 'src', p.delivered ? 'sent to the agent' : 'kept for the agent'),
    copy,
  );
  const html = el('pre', 'html', p.outer_html);
  li.append(head, html);
  return li;
}

const shortPage = (id) => (id ? String(id) : '');
const quote = (t, n = 60) => (t ? ` “${String(t).slice(0, n)}”` : '');

/** An event as a person reads it: what happened, on which ref and page, and how it ended. */
function describeEvent(e) {
  const on = e.page_id ? ` on ${shortPage(e.page_id)}` : '';
  switch (e.type) {
    case 'action':
      return `agent ${e.action ?? 'acts'}${e.ref ? ` ${e.ref}` : ''}${on}${e.outcome ? ` → ${e.outcome}` : ''}`;
    case 'navigated':
      return `${shortPage(e.page_id)} → ${e.url}`;
    case 'page-opened':
      return `opened ${shortPage(e.page_id)}${e.opener_page_id ? ` (from ${e.opener_page_id})` : ''}`;
    case 'page-closed':
      return `closed ${shortPage(e.page_id)}`;
    case 'session-started':
      return `session started${e.url ? ` at ${e.url}` : ''}`;
    case 'session-stopped':
      return `session stopped (${e.reason ?? 'stopped'})`;
    case 'handoff-requested':
      return `handoff ${e.handoff_id}${on}: ${e.instructions} → waiting for a person`;
    case 'handoff-resolved':
      return `handoff ${e.handoff_id}${on} → ${e.confirmed ? 'confirmed' : 'not confirmed'} (${e.via})${e.page_closed ? ', page closed' : ''}`;
    case 'pick-requested':
      return `agent asks for a pick${on}: ${e.instructions}`;
    case 'picked': {
      const el = e.element ?? {};
      return `picked ${el.ref} <${el.tag}>${quote(el.name || el.text, 40)}${on} → ${e.delivered ? 'sent to the agent' : 'kept for the agent'}`;
    }
    case 'dialog': {
      const d = e.dialog ?? {};
      return `${d.type ?? 'dialog'}${quote(d.message)}${on} → ${d.handled ?? 'pending'}`;
    }
    case 'download': {
      const d = e.download ?? {};
      return `download ${d.suggested_filename ?? d.filename ?? d.url ?? ''}${on} → ${d.state ?? ''}`;
    }
    default:
      return String(e.url ?? e.instructions ?? e.action ?? e.reason ?? e.entry?.text ?? e.entry?.url ?? '');
  }
}

function eventRow(e) {
  const li = el('li', `row ev ev-${e.type}`);
  li.append(
    el('time', 'ts', time(e.timestamp)),
    el('span', 'lvl', e.type),
    el('span', 'msg', describeEvent(e)),
  );
  return li;
}

export class Panes {
  constructor() {
    this.panes = {
      console: new Pane('console'),
      network: new Pane('network'),
      picked: new Pane('picked'),
      events: new Pane('events'),
    };
    this.sessionId = null;
    for (const tab of document.querySelectorAll('.tabs [role=tab]')) {
      tab.addEventListener('click', () => this.show(tab.dataset.pane));
    }
  }

  show(name) {
    for (const tab of document.querySelectorAll('.tabs [role=tab]')) {
      tab.setAttribute('aria-selected', String(tab.dataset.pane === name));
    }
    for (const [n, pane] of Object.entries(this.panes)) pane.list.hidden = n !== name;
  }

  /** Follow a session: fill from its ring buffers, then live from events. */
  async setSession(sessionId) {
    if (sessionId === this.sessionId) return;
    this.sessionId = sessionId;
    for (const pane of Object.values(this.panes)) pane.clear();
    if (!sessionId) return;
    const [c, n] = await Promise.all([
      call(`sessions/${encodeURIComponent(sessionId)}/console`).catch(() => null),
      call(`sessions/${encodeURIComponent(sessionId)}/network`).catch(() => null),
    ]);
    if (this.sessionId !== sessionId) return;
    for (const e of c?.data?.console_entries ?? c?.data?.entries ?? [])
      this.panes.console.put(e.seq, consoleRow(e));
    for (const e of n?.data?.network_entries ?? n?.data?.entries ?? [])
      this.panes.network.put(e.seq, networkRow(e));
  }

  onEvent(e) {
    if (e.session_id !== this.sessionId) return;
    if (e.type === 'console-event') this.panes.console.put(e.entry.seq, consoleRow(e.entry));
    else if (e.type === 'network-event') this.panes.network.put(e.entry.seq, networkRow(e.entry));
    else if (e.type === 'picked')
      this.panes.picked.put(`${e.seq}`, pickedRow({ ...e.element, delivered: e.delivered }));
    if (e.type !== 'console-event' && e.type !== 'network-event')
      this.panes.events.put(`${e.seq}`, eventRow(e));
  }
}
