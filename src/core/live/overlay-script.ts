/**
 * The in-page overlay: handoff banner, ghost cursor and status badge. It runs in brow's own
 * isolated world, inside a closed shadow root on a host attached to <html>: the page's scripts
 * cannot reach it (other world, closed root), brow's walker does not see into it (the root was
 * not made by the patched attachShadow of the main world), and only brow's binding, which exists
 * in this world alone, hears the Continue button.
 */

export interface OverlayState {
  /** The handoff banner (role=dialog, the instructions, a Continue button). */
  banner: { id: string; instructions: string } | null;
  /** Status badge text; shown only while someone watches. */
  badge: string | null;
  /** The ghost cursor: where the agent acts. */
  cursor: { x: number; y: number; label: string } | null;
  /** Trusted mouse events move the ghost cursor (while the agent acts). */
  follow: boolean;
  /** An agent asks the person to point at an element (browser_pick): a prompt, and clicks pick. */
  pick: { id: string; instructions: string } | null;
}

/** The isolated world's name (also the binding's context name). */
export const WORLD = 'brow-live';
/** The binding the banner calls; exists in WORLD only. */
export const BINDING = '__browLiveSignal';

/** The overlay's style sheet (inside its shadow root). */
const OVERLAY_CSS = `
:host { all: initial !important; position: fixed !important; inset: 0 !important; z-index: 2147483647 !important;
  pointer-events: none !important; display: block !important; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
.banner { position: absolute; right: 16px; bottom: 16px; width: min(380px, calc(100% - 32px));
  background: #111827; color: #f9fafb; border-radius: 12px; padding: 16px 16px 14px;
  box-shadow: 0 10px 30px rgba(0,0,0,.35); pointer-events: auto; border: 2px solid #f59e0b; }
.banner h2 { margin: 0 0 6px; font-size: 15px; font-weight: 650; color: #fbbf24; }
.banner p { margin: 0 0 12px; font-size: 14px; line-height: 1.45; white-space: pre-wrap; }
.banner button { font-size: 14px; font-weight: 600; padding: 8px 18px; border-radius: 8px; border: 0;
  background: #f59e0b; color: #111827; cursor: pointer; }
.banner button:focus-visible { outline: 3px solid #fde68a; outline-offset: 2px; }
.badge { position: absolute; top: 10px; right: 10px; padding: 4px 10px; border-radius: 999px;
  background: rgba(17,24,39,.78); color: #f9fafb; font-size: 12px; font-weight: 600; letter-spacing: .02em; }
.badge::before { content: ""; display: inline-block; width: 7px; height: 7px; margin-right: 6px;
  border-radius: 50%; background: #a78bfa; vertical-align: 1px; }
.cursor { position: absolute; left: 0; top: 0; transition: transform .18s ease-out; will-change: transform; }
.cursor svg { display: block; filter: drop-shadow(0 1px 2px rgba(0,0,0,.5)); }
.cursor path { fill: #7c3aed; stroke: #fff; stroke-width: 1.5; }
.cursor span { position: absolute; left: 18px; top: 18px; white-space: nowrap; padding: 2px 7px;
  border-radius: 6px; background: #7c3aed; color: #fff; font-size: 11px; font-weight: 600; }
.cursor.click::after { content: ""; position: absolute; left: -14px; top: -14px; width: 28px; height: 28px;
  border-radius: 50%; border: 3px solid #a78bfa; animation: ripple .45s ease-out forwards; }
@keyframes ripple { from { transform: scale(.3); opacity: 1 } to { transform: scale(1.4); opacity: 0 } }
.catcher { position: absolute; inset: 0; pointer-events: auto; cursor: crosshair; background: transparent; }
.pickbox { position: absolute; left: 0; top: 0; pointer-events: none; border: 2px solid #f59e0b;
  background: rgba(245,158,11,.12); border-radius: 3px; }
.banner.prompt { bottom: auto; top: 16px; }
[hidden] { display: none !important; }
`;

/** Apply a state in the page. Runs in the isolated world; self-contained (serialised). */
function applyOverlay(state: OverlayState, binding: string, css: string): string {
  type Ui = {
    host: HTMLElement;
    root: ShadowRoot;
    banner: HTMLElement;
    text: HTMLElement;
    button: HTMLButtonElement;
    badge: HTMLElement;
    cursor: HTMLElement;
    label: HTMLElement;
    state: OverlayState;
    keeper: MutationObserver;
    catcher: HTMLElement;
    pickbox: HTMLElement;
    prompt: HTMLElement;
    promptText: HTMLElement;
  };
  const g = globalThis as unknown as { __browOverlay?: Ui };
  const visible = (s: OverlayState) => !!(s.banner || s.badge || s.cursor || s.pick);
  if (!document.documentElement) {
    // the new document has no <html> yet: apply once it has
    document.addEventListener('readystatechange', () => applyOverlay(state, binding, css), { once: true });
    return 'deferred';
  }
  let ui = g.__browOverlay;
  if (!ui && !visible(state)) return 'hidden';
  if (!ui) {
    // built with DOM calls and a constructed stylesheet: pages with Trusted Types or a strict
    // style-src block innerHTML, <style> and style attributes, but not these
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, parent: Node, text = '') => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text) e.textContent = text;
      parent.appendChild(e);
      return e;
    };
    const host = document.createElement('div');
    const hostStyle = { all: 'initial', position: 'fixed', inset: '0', 'z-index': '2147483647' };
    for (const [k, v] of Object.entries({ ...hostStyle, 'pointer-events': 'none', display: 'block' })) {
      host.style.setProperty(k, v, 'important');
    }
    // brow's own hit tests (pick) skip the host: its catcher covers the page while a pick is asked for
    host.setAttribute('data-brow-overlay', '');
    const root = host.attachShadow({ mode: 'closed' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    const banner = el('div', 'banner', root);
    banner.setAttribute('role', 'dialog');
    banner.setAttribute('aria-labelledby', 'brow-t');
    banner.hidden = true;
    el('h2', '', banner, 'brow: your turn').id = 'brow-t';
    const text = el('p', '', banner);
    const button = el('button', '', banner, 'Continue');
    button.type = 'button';
    const catcher = el('div', 'catcher', root);
    catcher.hidden = true;
    const pickbox = el('div', 'pickbox', root);
    pickbox.hidden = true;
    const prompt = el('div', 'banner prompt', root);
    prompt.setAttribute('role', 'status');
    prompt.hidden = true;
    el('h2', '', prompt, 'brow: point at an element');
    const promptText = el('p', '', prompt);
    const badge = el('div', 'badge', root);
    badge.hidden = true;
    const cursor = el('div', 'cursor', root);
    cursor.hidden = true;
    const svgNs = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNs, 'svg');
    const arrow = document.createElementNS(svgNs, 'path');
    for (const [k, v] of Object.entries({
      width: '22',
      height: '22',
      viewBox: '0 0 22 22',
      'aria-hidden': 'true',
    }))
      svg.setAttribute(k, v);
    arrow.setAttribute('d', 'M2 2 L2 18 L7 13.5 L10.5 20.5 L13.5 19 L10 12 L17 12 Z');
    svg.appendChild(arrow);
    cursor.appendChild(svg);
    const label = el('span', '', cursor);
    const created: Ui = {
      host,
      root,
      banner,
      text,
      button,
      badge,
      cursor,
      label,
      state,
      catcher,
      pickbox,
      prompt,
      promptText,
      // a page that rewrites <html> must not lose the banner
      keeper: new MutationObserver(() => {
        if (visible(created.state) && !host.isConnected) document.documentElement?.appendChild(host);
      }),
    };
    ui = created;
    created.button.addEventListener('click', (e) => {
      const s = created.state;
      if (!e.isTrusted || !s.banner) return;
      const signal = (globalThis as unknown as Record<string, (p: string) => void>)[binding];
      signal?.(JSON.stringify({ type: 'continue', id: s.banner.id }));
    });
    // a pick: outline what is under the pointer, and a trusted click names the point to brow
    const under = (x: number, y: number): Element | null => {
      created.catcher.hidden = true;
      const hit = document.elementFromPoint(x, y);
      created.catcher.hidden = !created.state.pick;
      return hit;
    };
    created.catcher.addEventListener('mousemove', (e) => {
      if (!e.isTrusted) return;
      const hit = under(e.clientX, e.clientY);
      const r = hit?.getBoundingClientRect();
      created.pickbox.hidden = !r;
      if (r) {
        created.pickbox.style.transform = `translate(${r.x}px, ${r.y}px)`;
        created.pickbox.style.width = `${r.width}px`;
        created.pickbox.style.height = `${r.height}px`;
      }
    });
    for (const type of [
      'mousedown',
      'mouseup',
      'pointerdown',
      'pointerup',
      'click',
      'dblclick',
      'contextmenu',
    ]) {
      created.catcher.addEventListener(type, (e) => {
        // the page never sees a click meant for the pick
        e.preventDefault();
        e.stopPropagation();
        const s = created.state;
        if (type !== 'click' || !e.isTrusted || !s.pick) return;
        const m = e as MouseEvent;
        created.catcher.hidden = true;
        created.pickbox.hidden = true;
        const signal = (globalThis as unknown as Record<string, (p: string) => void>)[binding];
        signal?.(JSON.stringify({ type: 'pick', id: s.pick.id, x: m.clientX, y: m.clientY }));
      });
    }
    const move = (e: MouseEvent, click: boolean) => {
      if (!e.isTrusted || !created.state.follow || !created.state.cursor) return;
      created.cursor.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
      if (click) {
        created.cursor.classList.remove('click');
        void created.cursor.offsetWidth;
        created.cursor.classList.add('click');
      }
    };
    addEventListener('mousemove', (e) => move(e, false), true);
    addEventListener('mousedown', (e) => move(e, true), true);
    g.__browOverlay = created;
  }
  const prev = ui.state;
  ui.state = state;
  ui.banner.hidden = !state.banner;
  if (state.banner) ui.text.textContent = state.banner.instructions;
  ui.prompt.hidden = !state.pick;
  ui.catcher.hidden = !state.pick;
  if (!state.pick) ui.pickbox.hidden = true;
  if (state.pick)
    ui.promptText.textContent = `${state.pick.instructions} Click it here, or use Pick in the brow console.`;
  ui.badge.hidden = !state.badge;
  ui.badge.textContent = state.badge ?? '';
  ui.cursor.hidden = !state.cursor;
  if (state.cursor) {
    const c = state.cursor;
    const moved = !prev.cursor || prev.cursor.x !== c.x || prev.cursor.y !== c.y;
    if (moved) ui.cursor.style.transform = `translate(${c.x}px, ${c.y}px)`;
    ui.label.textContent = c.label;
  }
  if (visible(state)) {
    if (!ui.host.isConnected) document.documentElement.appendChild(ui.host);
    ui.keeper.observe(document.documentElement, { childList: true });
  } else {
    ui.keeper.disconnect();
    ui.host.remove();
  }
  return visible(state) ? 'shown' : 'hidden';
}

/** The expression that applies `state` in the isolated world. */
export function overlayExpression(state: OverlayState): string {
  return `(${applyOverlay.toString()})(${JSON.stringify(state)}, ${JSON.stringify(BINDING)}, ${JSON.stringify(OVERLAY_CSS)})`;
}

/** The pick prompt's text, or null when no pick is asked for (tests). */
export const PICK_PROMPT_EXPRESSION = `(() => {
  const ui = globalThis.__browOverlay;
  return ui && ui.host.isConnected && !ui.prompt.hidden ? ui.promptText.textContent : null;
})()`;

/** Where the banner's Continue button is (viewport CSS px), for tests and the console. */
export const CONTINUE_RECT_EXPRESSION = `(() => {
  const ui = globalThis.__browOverlay;
  if (!ui || ui.banner.hidden || !ui.host.isConnected) return null;
  const r = ui.button.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
})()`;
