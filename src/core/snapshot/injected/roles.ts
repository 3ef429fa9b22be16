/** Roles per WAI-ARIA and HTML-AAM, as Chromium exposes them. */
import type { Attrs } from './attrs.js';
import { SafeSet } from './collections.js';
import { elClosest, elGetAttribute, parseIntNative, strCharCode, strToLower } from './natives.js';
import { tokens } from './text.js';

const ARIA_ROLES = new SafeSet(
  tokens(
    'alert alertdialog application article banner blockquote button caption cell checkbox code columnheader ' +
      'combobox comment complementary contentinfo definition deletion dialog directory document emphasis feed ' +
      'figure form generic grid gridcell group heading img image insertion link list listbox listitem log main ' +
      'mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option ' +
      'paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox ' +
      'separator slider spinbutton status strong subscript superscript suggestion switch tab table tablist tabpanel ' +
      'term textbox time timer toolbar tooltip tree treegrid treeitem graphics-document graphics-object graphics-symbol ' +
      // DPUB-ARIA, which Chromium exposes under these names
      'doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink doc-biblioentry doc-bibliography ' +
      'doc-biblioref doc-chapter doc-colophon doc-conclusion doc-cover doc-credit doc-credits doc-dedication ' +
      'doc-endnote doc-endnotes doc-epigraph doc-epilogue doc-errata doc-example doc-footnote doc-foreword ' +
      'doc-glossary doc-glossref doc-index doc-introduction doc-noteref doc-notice doc-pagebreak doc-pagefooter ' +
      'doc-pageheader doc-pagelist doc-part doc-preface doc-prologue doc-pullquote doc-qna doc-subtitle doc-tip doc-toc',
  ),
);

/** Implicit roles we do not emit: structure or text styling, not something an agent acts on or navigates by. */
export const QUIET = 1;
/** The name comes from the content (accname 1.2 / Chromium; rows do not in Chromium). */
export const NAME_FROM_CONTENT = 2;
/** Children are presentational: their text is never shown apart from the name. */
export const CHILDREN_PRESENTATIONAL = 4;
/** Content roles checked for click signals (table cells are not: too many, rarely the target). */
export const CLICK_CHECKED = 8;
/** checked / mixed apply. */
export const CHECKABLE = 16;
/** Widgets acted on by clicking. */
export const CLICK_ROLE = 32;
/** Text entry. */
export const TEXT_ROLE = 64;
/** Has a value in a range (aria-valuenow / aria-valuetext). */
export const RANGE_ROLE = 128;
/**
 * Text-level semantics (ARIA 1.2/1.3 insertion, strong, code…, Chromium's abbr): on an inline element
 * they are shown in `full` without cutting the text around them out of their parent's text.
 */
export const TEXT_LEVEL = 256;

/** The flags of a role, from one switch. */
export function roleFlags(role: string): number {
  switch (role) {
    case 'generic':
    case 'none':
    case 'presentation':
    case 'rowgroup':
      return QUIET;
    case 'caption':
      // shown, but its words stay in its table's name when it gives it (see Walker.element)
      return 0;
    case 'emphasis':
    case 'strong':
    case 'code':
    case 'time':
    case 'deletion':
    case 'insertion':
    case 'mark':
    case 'subscript':
    case 'superscript':
    case 'abbr':
      return QUIET | TEXT_LEVEL;
    case 'separator':
      return CHILDREN_PRESENTATIONAL;
    case 'term':
      // named from its content in Chromium (ARIA leaves it open)
      return NAME_FROM_CONTENT | CLICK_CHECKED | TEXT_LEVEL;
    case 'definition':
      return CLICK_CHECKED;
    case 'button':
    case 'tab':
      return NAME_FROM_CONTENT | CHILDREN_PRESENTATIONAL | CLICK_ROLE;
    case 'checkbox':
    case 'radio':
    case 'switch':
    case 'menuitemcheckbox':
    case 'menuitemradio':
      return NAME_FROM_CONTENT | CHILDREN_PRESENTATIONAL | CHECKABLE | CLICK_ROLE;
    case 'option':
      return NAME_FROM_CONTENT | CHILDREN_PRESENTATIONAL | CLICK_ROLE;
    case 'link':
    case 'menuitem':
    case 'treeitem':
    case 'gridcell':
    case 'doc-backlink':
    case 'doc-biblioref':
    case 'doc-glossref':
    case 'doc-noteref':
      return NAME_FROM_CONTENT | CLICK_ROLE;
    case 'cell':
    case 'columnheader':
    case 'rowheader':
    case 'tooltip':
      return NAME_FROM_CONTENT;
    case 'heading':
    case 'doc-subtitle':
      return NAME_FROM_CONTENT | CLICK_CHECKED;
    case 'combobox':
    case 'listbox':
      return CLICK_ROLE;
    case 'textbox':
    case 'searchbox':
      return TEXT_ROLE;
    case 'slider':
    case 'progressbar':
    case 'meter':
    case 'scrollbar':
      return RANGE_ROLE | CHILDREN_PRESENTATIONAL;
    case 'spinbutton':
      return RANGE_ROLE;
    case 'image':
    case 'math':
      return CHILDREN_PRESENTATIONAL | (role === 'image' ? CLICK_CHECKED : 0);
    case 'listitem':
    case 'row':
    case 'group':
    case 'article':
    case 'figure':
    case 'paragraph':
    case 'region':
    case 'complementary':
    case 'status':
    case 'note':
      return CLICK_CHECKED;
    default:
      return 0;
  }
}

const TEXT_INPUT_TYPES = new SafeSet(tokens('text email tel url password'));

/** The role of an <input> by its type. */
function inputRole(el: HTMLInputElement): string {
  const type = el.type;
  switch (type) {
    case 'button':
    case 'submit':
    case 'reset':
    case 'image':
    case 'file':
      return 'button';
    case 'checkbox':
      return 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'search':
      return el.hasAttribute('list') ? 'combobox' : 'searchbox';
    case 'hidden':
      return 'none';
    case 'color':
      // Chromium: ColorWell; it opens a picker like a button
      return 'button';
    default:
      if (TEXT_INPUT_TYPES.has(type)) return el.hasAttribute('list') ? 'combobox' : 'textbox';
      // date, time, datetime-local, month, week: Chromium exposes internal roles; they take text
      return 'textbox';
  }
}

const SECTIONING =
  'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]';

/**
 * The role attribute of the table being walked ('' for none), or undefined when unknown. The walker
 * sets it while inside a table so cells need not look their table up.
 */
let knownTableRole: string | undefined;

/** Set the table role for the cells that follow; returns the previous value to restore. */
export function enterTable(role: string | undefined): string | undefined {
  const previous = knownTableRole;
  knownTableRole = role;
  return previous;
}

/** The role of the table an element belongs to ('' for a plain table). */
function tableRole(el: Element): string {
  if (knownTableRole !== undefined) return knownTableRole;
  const table = elClosest(el, 'table');
  return table ? strToLower(elGetAttribute(table, 'role') ?? '') : '';
}

function cellRole(el: Element, header: boolean): string {
  const t = tableRole(el);
  if (t === 'none' || t === 'presentation') return 'none';
  if (!header) return t === 'grid' || t === 'treegrid' ? 'gridcell' : 'cell';
  const scope = strToLower(elGetAttribute(el, 'scope') ?? '');
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  const p = el.parentElement;
  if (p?.parentElement?.localName === 'thead') return 'columnheader';
  // a th in a row that also has data cells heads that row
  for (let c = p?.firstElementChild; c; c = c.nextElementSibling)
    if (c.localName === 'td') return 'rowheader';
  return 'columnheader';
}

/** The implicit (native) role of an element. */
export function implicitRole(el: Element, tag: string, a: Attrs): string {
  switch (tag) {
    case 'a':
    case 'area':
      return a.href ? 'link' : 'generic';
    case 'abbr':
      // no ARIA role; Chromium exposes it (named by its title) as Abbr
      return 'abbr';
    case 'address':
    case 'hgroup':
      return 'group';
    case 'article':
      return 'article';
    case 'aside':
      // HTML-AAM: inside other sectioning content an aside needs a name to be a landmark
      return a.label || a.labelledby || a.title || !inSectioning(el) ? 'complementary' : 'generic';
    case 'blockquote':
      return 'blockquote';
    case 'button':
      return 'button';
    case 'summary':
      return isDetailsSummary(el) ? 'button' : 'generic';
    case 'caption':
      return 'caption';
    case 'code':
      return 'code';
    case 'datalist':
      return 'listbox';
    case 'del':
    case 's':
      return 'deletion';
    case 'details':
    case 'fieldset':
    case 'optgroup':
      return 'group';
    case 'dialog':
      return 'dialog';
    case 'dfn':
    case 'dt':
      return 'term';
    case 'dd':
      return 'definition';
    case 'em':
      return 'emphasis';
    case 'figure':
      return 'figure';
    case 'footer':
    case 'header':
      if (elClosest(el, SECTIONING)) return 'generic';
      return tag === 'header' ? 'banner' : 'contentinfo';
    case 'form':
      return 'form';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'hr':
      return 'separator';
    case 'iframe':
    case 'frame':
      return 'iframe';
    case 'img':
      // alt="" makes an image presentational unless it is named, focusable or has global ARIA
      return a.alt === '' && !presentationConflict(el, a) ? 'none' : 'image';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'ins':
      return 'insertion';
    case 'li':
      return inPresentationalList(el) ? 'none' : 'listitem';
    case 'main':
      return 'main';
    case 'mark':
      return 'mark';
    case 'math':
      return 'math';
    case 'menu':
    case 'ol':
    case 'ul':
      return 'list';
    case 'meter':
      return 'meter';
    case 'nav':
      return 'navigation';
    case 'option':
      return 'option';
    case 'output':
      return 'status';
    case 'p':
      return 'paragraph';
    case 'progress':
      return 'progressbar';
    case 'search':
      return 'search';
    case 'section':
      return a.label || a.labelledby || a.title ? 'region' : 'generic';
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'strong':
    case 'b':
      // HTML-AAM (and its WPT tests) map b to strong too; Chromium 156 still leaves it generic
      return 'strong';
    case 'sub':
      return 'subscript';
    case 'sup':
      return 'superscript';
    case 'svg':
      return 'image';
    case 'table':
      return 'table';
    case 'tbody':
    case 'thead':
    case 'tfoot': {
      const t = tableRole(el);
      return t === 'none' || t === 'presentation' ? 'none' : 'rowgroup';
    }
    case 'td':
      return cellRole(el, false);
    case 'th':
      return cellRole(el, true);
    case 'textarea':
      return 'textbox';
    case 'time':
      return 'time';
    case 'div':
      // Chromium exposes a draggable div as a group
      return a.draggable ? 'group' : 'generic';
    case 'tr': {
      const t = tableRole(el);
      return t === 'none' || t === 'presentation' ? 'none' : 'row';
    }
    default:
      return 'generic';
  }
}

/** Inside article, aside, nav or section (the element itself aside). */
function inSectioning(el: Element): boolean {
  const p = el.parentElement;
  return !!p && elClosest(p, 'article,aside,nav,section') !== null;
}

/** A <summary> that is its <details>' summary (HTML-AAM: button; any other summary is generic). */
function isDetailsSummary(el: Element): boolean {
  const p = el.parentElement;
  if (!p || p.localName !== 'details') return false;
  for (let c = p.firstElementChild; c; c = c.nextElementSibling)
    if (c.localName === 'summary') return c === el;
  return false;
}

/** An <li> of a list whose role is none/presentation: ARIA passes the presentation on to it. */
function inPresentationalList(el: Element): boolean {
  const p = el.parentElement;
  if (!p) return false;
  const t = p.localName;
  if (t !== 'ul' && t !== 'ol' && t !== 'menu') return false;
  const r = elGetAttribute(p, 'role');
  if (!r) return false;
  const first = strToLower(tokens(r)[0] ?? '');
  return (first === 'none' || first === 'presentation') && !presentationConflict(p, null);
}

/** Global ARIA attributes besides aria-label(ledby): any of them keeps an element's role (ARIA 1.2 §9.3). */
const GLOBAL_ARIA = tokens(
  'aria-describedby aria-description aria-controls aria-owns aria-live aria-details aria-keyshortcuts ' +
    'aria-roledescription aria-flowto aria-atomic aria-busy aria-relevant aria-current aria-dropeffect ' +
    'aria-grabbed aria-braillelabel aria-brailleroledescription',
);

/** A tabindex attribute that makes an element focusable, negative ones too (an integer). */
function focusableByAttr(tabindex: string | null): boolean {
  if (tabindex === null) return false;
  const n = parseIntNative(tabindex, 10);
  return n === n;
}

/**
 * Whether role none/presentation yields to the element's own role: it is focusable or carries a
 * global ARIA attribute (the ARIA conflict rule, as Chromium applies it).
 */
function presentationConflict(el: Element, a: Attrs | null): boolean {
  if (
    a
      ? a.label || a.labelledby
      : elGetAttribute(el, 'aria-label') !== null || elGetAttribute(el, 'aria-labelledby') !== null
  )
    return true;
  if ((el as HTMLElement).tabIndex >= 0 || focusableByAttr(a ? a.tabindex : elGetAttribute(el, 'tabindex')))
    return true;
  for (let i = 0; i < GLOBAL_ARIA.length; i++) if (elGetAttribute(el, GLOBAL_ARIA[i]!) !== null) return true;
  return false;
}

/**
 * The first valid token of the role attribute, or null. none/presentation is ignored on
 * focusable elements or ones with a global ARIA attribute (the ARIA conflict rule). role=img is
 * reported by its ARIA 1.3 name, image; a region needs a name (else it is generic, as in Chromium).
 */
export function explicitRole(el: Element, a: Attrs): string | null {
  if (!a.role) return null;
  const list = tokens(strToLower(a.role));
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!;
    if (!ARIA_ROLES.has(r)) continue;
    if ((r === 'none' || r === 'presentation') && presentationConflict(el, a)) continue;
    if (r === 'region' && !a.label && !a.labelledby && !a.title) return 'generic';
    // ARIA 1.3 names: image for img; directory is deprecated in favour of list
    return r === 'img' ? 'image' : r === 'directory' ? 'list' : r;
  }
  return null;
}

/** The computed role: explicit if valid, else implicit. */
export function computeRole(el: Element, tag: string, a: Attrs): string {
  return explicitRole(el, a) ?? implicitRole(el, tag, a);
}

/** The heading level (h1–h6, or aria-level, default 2 for role=heading). */
export function headingLevel(tag: string, a: Attrs): number {
  const n = a.level ? parseIntNative(a.level, 10) : NaN;
  if (n >= 1) return n;
  const c = tag.length === 2 && tag[0] === 'h' ? strCharCode(tag, 1) - 48 : 0;
  return c >= 1 && c <= 6 ? c : 2;
}
