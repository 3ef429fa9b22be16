/**
 * Runs in the page (sent as source text: it must not use anything from this module). The
 * rendered document as clean HTML for reading: no scripts, styles, hidden elements or event
 * attributes; links made absolute; open shadow roots and same-origin iframes inlined; with
 * `viewport`, only elements whose box meets the viewport.
 */
export function readableHtmlInPage(opts: { viewport: boolean; maxChars: number }): {
  html: string;
  title: string;
  url: string;
  truncated: boolean;
  /** Elements written. */
  elements: number;
  /** Ids (brow page API) of cross-origin iframes whose content the caller must fill in. */
  frames: number[];
} {
  const SKIP = new Set([
    'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'BASE', 'SVG', 'CANVAS', 'OBJECT', 'EMBED',
    'AUDIO', 'VIDEO', 'SOURCE', 'TRACK', 'MAP', 'HEAD', 'SELECT', 'DATALIST', 'BUTTON', 'INPUT', 'TEXTAREA', 'DIALOG',
  ]); // prettier-ignore
  const VOID = new Set(['AREA', 'BR', 'COL', 'HR', 'IMG', 'WBR']);
  const KEEP = [
    'id',
    'class',
    'role',
    'lang',
    'dir',
    'title',
    'alt',
    'colspan',
    'rowspan',
    'start',
    'datetime',
    'itemprop',
  ];
  const vw = innerWidth;
  const vh = innerHeight;
  const out: string[] = [];
  let size = 0;
  let truncated = false;
  let elements = 0;
  const frames: number[] = [];
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const attr = (s: string) => esc(s).replace(/"/g, '&quot;');
  const push = (s: string) => {
    out.push(s);
    size += s.length;
    if (size > opts.maxChars) truncated = true;
  };

  const openTag = (el: Element): string => {
    elements++;
    let s = `<${el.localName}`;
    for (const name of KEEP) {
      const v = el.getAttribute(name);
      if (v !== null && v.length <= 300) s += ` ${name}="${attr(v)}"`;
    }
    if (el instanceof HTMLAnchorElement) {
      const raw = el.getAttribute('href');
      if (raw && !/^\s*javascript:/i.test(raw)) s += ` href="${attr(raw.startsWith('#') ? raw : el.href)}"`;
    } else if (el instanceof HTMLImageElement) {
      const src = el.currentSrc || el.src;
      if (src && !src.startsWith('data:')) s += ` src="${attr(src)}"`;
    }
    return `${s}>`;
  };

  /** 0 = outside the viewport, 1 = partly inside, 2 = wholly inside (no more checks below). */
  const placement = (el: Element): 0 | 1 | 2 => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return 1;
    if (r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) return 0;
    return r.top >= 0 && r.bottom <= vh && r.left >= 0 && r.right <= vw ? 2 : 1;
  };

  const children = (el: Element | ShadowRoot): NodeListOf<ChildNode> | Node[] => {
    if (el instanceof HTMLSlotElement) {
      const assigned = el.assignedNodes({ flatten: true });
      return assigned.length > 0 ? assigned : el.childNodes;
    }
    return el.childNodes;
  };

  const walk = (node: Node, check: boolean): void => {
    if (truncated) return;
    if (node.nodeType === 3) {
      const t = node.nodeValue ?? '';
      if (t) push(esc(t));
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (SKIP.has(el.tagName.toUpperCase())) return;
    const visible = el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
    let inner = check;
    if (!visible) {
      // display:contents has no box of its own but renders its children
      if (getComputedStyle(el).display !== 'contents') return;
    } else if (check) {
      const p = placement(el);
      if (p === 0) return;
      inner = p === 1;
    }
    const tag = el.localName;
    if (VOID.has(el.tagName.toUpperCase())) {
      push(openTag(el));
      return;
    }
    if (el instanceof HTMLIFrameElement) {
      let doc: Document | null = null;
      try {
        doc = el.contentDocument;
      } catch {
        doc = null;
      }
      if (doc?.body) {
        push(`<div data-frame="${attr(el.src)}">`);
        for (const child of Array.from(doc.body.childNodes)) walk(child, false);
        push('</div>');
      } else {
        // another origin: the caller reads that frame itself and puts it in place of the marker
        const api = (globalThis as Record<symbol, { idOf(e: Element): number } | undefined>)[
          Symbol.for('brow.page')
        ];
        const id = api?.idOf(el);
        if (id) {
          frames.push(id);
          push(`<div data-frame="${attr(el.src)}">BROWFRAME${id}X</div>`);
        }
      }
      return;
    }
    push(openTag(el));
    const root = (el as HTMLElement).shadowRoot;
    for (const child of Array.from(children(root ?? el))) walk(child, inner);
    push(`</${tag}>`);
  };

  const head: string[] = [`<title>${esc(document.title)}</title>`];
  for (const m of Array.from(document.querySelectorAll('meta[name], meta[property]'))) {
    const name = m.getAttribute('name') ?? m.getAttribute('property') ?? '';
    const content = m.getAttribute('content') ?? '';
    if (/^(description|author|og:|twitter:|article:|dc\.|citation_)/i.test(name) && content.length < 1000) {
      head.push(`<meta name="${attr(name)}" content="${attr(content)}">`);
    }
  }
  // an SVG or XML document has no body: its root element holds the content
  const top = document.body ?? document.documentElement;
  if (top) walk(top, opts.viewport);
  const lang = document.documentElement?.getAttribute('lang') ?? '';
  return {
    html: `<!doctype html><html lang="${attr(lang)}"><head>${head.join('')}</head>${out.join('')}</html>`,
    title: document.title,
    url: location.href,
    truncated,
    elements,
    frames,
  };
}
