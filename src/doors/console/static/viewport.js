// The live viewport: screencast frames in, a person's mouse and keyboard out, and pick mode.
import { call, stream } from './api.js';

const BUTTONS = ['left', 'middle', 'right'];
const modifiers = (e) =>
  (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);

export class Viewport {
  /** @param {{onPicked(el: object): void, onStats(text: string): void, toast(text: string, kind?: string): void}} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    this.el = document.getElementById('viewport');
    this.img = document.getElementById('screen');
    this.placeholder = document.getElementById('placeholder');
    this.highlight = document.getElementById('highlight');
    this.page = null;
    this.frame = null;
    this.es = null;
    this.picking = false;
    this.queue = [];
    this.sending = false;
    this.drainers = [];
    this.frameTimes = [];
    this.latencies = [];
    this.inspecting = false;
    this.bind();
    setInterval(() => this.stats(), 1000);
    addEventListener('resize', () => (this.highlight.hidden = true));
  }

  /** Watch a page (or nothing): one frame stream at a time. */
  watch(page) {
    if (this.page?.page_id === page?.page_id) {
      this.page = page;
      return;
    }
    this.es?.close();
    this.es = null;
    this.page = page;
    this.frame = null;
    this.frameTimes = [];
    this.setPicking(false);
    this.img.hidden = true;
    this.img.removeAttribute('src');
    this.el.dataset.seq = '0';
    this.placeholder.hidden = false;
    this.placeholder.textContent = page ? 'Waiting for the first frame…' : 'Select a page to watch it live.';
    if (!page) return;
    this.es = stream(`pages/${encodeURIComponent(page.page_id)}/frames`, {
      frame: (f) => this.show(f),
      end: () => {
        this.placeholder.hidden = false;
        this.placeholder.textContent = 'The page closed.';
        this.img.hidden = true;
      },
    });
  }

  show(f) {
    this.frame = f;
    this.img.src = `data:image/jpeg;base64,${f.data}`;
    this.img.hidden = false;
    this.placeholder.hidden = true;
    this.el.dataset.seq = String(f.seq);
    this.img.dataset.w = String(f.width);
    this.img.dataset.h = String(f.height);
    this.frameTimes.push(performance.now());
  }

  stats() {
    const now = performance.now();
    this.frameTimes = this.frameTimes.filter((t) => now - t < 2000);
    if (!this.page) return this.hooks.onStats('—');
    const fps = this.frameTimes.length / 2;
    // Chromium sends frames only when the page repaints: a still page is idle, not frozen
    const rate = fps === 0 ? 'idle' : `${fps.toFixed(fps < 10 ? 1 : 0)} fps`;
    const size = this.frame ? `${this.frame.width}×${this.frame.height}` : '…';
    const lat = this.latencies.length
      ? ` · input ${Math.round(this.latencies.reduce((a, b) => a + b, 0) / this.latencies.length)} ms`
      : '';
    this.hooks.onStats(`${rate} · ${size}${lat}${this.page.read_only ? ' · read-only: watching only' : ''}`);
  }

  /** Page CSS px of a mouse event over the image. */
  toPage(e) {
    const r = this.img.getBoundingClientRect();
    if (!this.frame || r.width === 0) return null;
    const x = ((e.clientX - r.left) * this.frame.width) / r.width;
    const y = ((e.clientY - r.top) * this.frame.height) / r.height;
    if (x < 0 || y < 0 || x > this.frame.width || y > this.frame.height) return null;
    return { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
  }

  canAct() {
    return !!this.page && !!this.frame && !this.page.read_only;
  }

  /** Queue an input event; mouse moves are coalesced so the page never lags behind the pointer. */
  send(ev) {
    if (!this.canAct()) return;
    const last = this.queue[this.queue.length - 1];
    if (ev.type === 'mouse' && ev.event === 'move' && last?.ev.type === 'mouse' && last.ev.event === 'move') {
      last.ev = ev;
    } else {
      this.queue.push({ ev, at: performance.now() });
    }
    void this.flush();
  }

  async flush() {
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    const batch = this.queue.splice(0);
    const pageId = this.page.page_id;
    try {
      await call(`pages/${encodeURIComponent(pageId)}/input`, { events: batch.map((b) => b.ev) });
      this.latencies.push(performance.now() - batch[0].at);
      if (this.latencies.length > 20) this.latencies.shift();
    } catch (err) {
      this.hooks.toast(`Input refused: ${err.message}`, 'error');
    } finally {
      this.sending = false;
      if (this.queue.length) void this.flush();
      else for (const done of this.drainers.splice(0)) done();
    }
  }

  /** Resolves once every input event sent so far has reached the page (before Continue hands it back). */
  drained() {
    if (!this.sending && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainers.push(resolve));
  }

  setPicking(on) {
    this.picking = on && !!this.page;
    this.el.classList.toggle('picking', this.picking);
    const btn = document.getElementById('pick');
    btn.setAttribute('aria-pressed', String(this.picking));
    if (!this.picking) this.highlight.hidden = true;
  }

  async inspect(e) {
    const p = this.toPage(e);
    if (!p || this.inspecting) return;
    this.inspecting = true;
    try {
      const { data } = await call(`pages/${encodeURIComponent(this.page.page_id)}/inspect`, p);
      if (this.picking) this.box(data);
    } catch {
      this.highlight.hidden = true;
    } finally {
      this.inspecting = false;
    }
  }

  /** Draw the highlight over the image for an element's page bounds. */
  box(el) {
    const r = this.img.getBoundingClientRect();
    const host = this.el.getBoundingClientRect();
    const k = r.width / this.frame.width;
    const h = this.highlight;
    h.style.left = `${r.left - host.left + el.bounds.x * k}px`;
    h.style.top = `${r.top - host.top + el.bounds.y * k}px`;
    h.style.width = `${Math.max(2, el.bounds.width * k)}px`;
    h.style.height = `${Math.max(2, el.bounds.height * k)}px`;
    h.dataset.label = `${el.tag}${el.name ? ` “${el.name.slice(0, 40)}”` : ''}`;
    h.hidden = false;
  }

  async pickAt(e) {
    const p = this.toPage(e);
    if (!p) return;
    this.setPicking(false);
    try {
      const { data } = await call(`pages/${encodeURIComponent(this.page.page_id)}/pick`, p);
      this.hooks.onPicked(data);
    } catch (err) {
      this.hooks.toast(`Pick failed: ${err.message}`, 'error');
    }
  }

  bind() {
    const img = this.img;
    img.addEventListener('mousedown', (e) => {
      e.preventDefault();
      this.el.focus({ preventScroll: true });
      if (this.picking) return void this.pickAt(e);
      const p = this.toPage(e);
      const button = BUTTONS[e.button] ?? 'left';
      if (p)
        this.send({
          type: 'mouse',
          event: 'down',
          ...p,
          button,
          buttons: e.buttons,
          click_count: e.detail || 1,
          modifiers: modifiers(e),
        });
    });
    img.addEventListener('mouseup', (e) => {
      if (this.picking) return;
      const p = this.toPage(e);
      const button = BUTTONS[e.button] ?? 'left';
      if (p)
        this.send({
          type: 'mouse',
          event: 'up',
          ...p,
          button,
          buttons: e.buttons,
          click_count: e.detail || 1,
          modifiers: modifiers(e),
        });
    });
    img.addEventListener('mousemove', (e) => {
      if (this.picking) return void this.inspect(e);
      const p = this.toPage(e);
      if (p) this.send({ type: 'mouse', event: 'move', ...p, buttons: e.buttons, modifiers: modifiers(e) });
    });
    img.addEventListener(
      'wheel',
      (e) => {
        const p = this.toPage(e);
        if (!p || !this.canAct()) return;
        e.preventDefault();
        this.send({ type: 'wheel', ...p, delta_x: e.deltaX, delta_y: e.deltaY, modifiers: modifiers(e) });
      },
      { passive: false },
    );
    img.addEventListener('contextmenu', (e) => e.preventDefault());
    const key = (event) => (e) => {
      if (e.key === 'Escape' && this.picking) return this.setPicking(false);
      if (!this.canAct() || e.isComposing) return;
      // leave the browser's own shortcuts for leaving the view alone
      if (e.key === 'Tab' && e.shiftKey && e.ctrlKey) return;
      e.preventDefault();
      this.send({
        type: 'key',
        event,
        key: e.key,
        code: e.code,
        key_code: e.keyCode || 0,
        modifiers: modifiers(e),
      });
    };
    this.el.addEventListener('keydown', key('down'));
    this.el.addEventListener('keyup', key('up'));
    this.el.addEventListener('paste', (e) => {
      const text = e.clipboardData?.getData('text');
      if (text && this.canAct()) {
        e.preventDefault();
        this.send({ type: 'text', text });
      }
    });
  }
}
