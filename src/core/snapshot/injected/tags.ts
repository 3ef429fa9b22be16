/** What the walker needs to know about a tag, as bit flags from one switch (cheaper than several set lookups). */
import { strIndexOf } from './natives.js';

/** Not rendered content: never walked. */
export const SKIP = 1;
/** Emitted (if at all) without walking its children. */
export const LEAF = 2;
/** Inline box: its text joins the neighbours' without a space. */
export const INLINE = 4;
/** Never worth a scrollability check. */
export const NO_SCROLL = 8;
/** Names its parent (fieldset, table, figure). */
export const CAPTION = 16;
/** Its content never names it. */
export const NO_CONTENT = 32;
/** A form-associated control (can be :disabled). */
export const FORM_CONTROL = 64;
/** May host a shadow root (attachShadow allows these and custom elements only). */
export const SHADOW_HOST = 128;
/** A table cell (td, th). */
export const CELL = 256;

/** The flags of a lower-case tag name (the commonest tags first: a string switch tests in order). */
export function tagFlags(tag: string): number {
  switch (tag) {
    case 'td':
    case 'th':
      return NO_SCROLL | CELL;
    case 'tr':
    case 'tbody':
    case 'thead':
    case 'tfoot':
    case 'html':
      return NO_SCROLL;
    case 'div':
    case 'p':
    case 'section':
    case 'article':
    case 'aside':
    case 'blockquote':
    case 'footer':
    case 'header':
    case 'main':
    case 'nav':
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return SHADOW_HOST;
    case 'span':
      return INLINE | SHADOW_HOST;
    case 'a':
    case 'b':
    case 'i':
    case 'em':
    case 'strong':
    case 'small':
    case 'code':
    case 'abbr':
    case 'bdi':
    case 'bdo':
    case 'cite':
    case 'data':
    case 'del':
    case 'dfn':
    case 'font':
    case 'ins':
    case 'kbd':
    case 'mark':
    case 'q':
    case 's':
    case 'samp':
    case 'sub':
    case 'sup':
    case 'time':
    case 'tt':
    case 'u':
    case 'var':
    case 'slot':
      return INLINE;
    case 'li':
    case 'ul':
    case 'ol':
    case 'table':
    case 'form':
    case 'dl':
    case 'dt':
    case 'dd':
    case 'pre':
    case 'figure':
    case 'picture':
    case 'details':
    case 'summary':
    case 'dialog':
    case 'menu':
    case 'address':
    case 'colgroup':
    case 'col':
      return 0;
    case 'button':
      return INLINE | FORM_CONTROL;
    case 'input':
    case 'textarea':
    case 'select':
      return LEAF | INLINE | NO_CONTENT | FORM_CONTROL;
    case 'img':
    case 'wbr':
      return LEAF | INLINE;
    case 'svg':
    case 'canvas':
    case 'iframe':
    case 'frame':
    case 'embed':
    case 'object':
    case 'video':
    case 'audio':
      return LEAF | NO_CONTENT;
    case 'math':
    case 'meter':
    case 'progress':
    case 'hr':
    case 'br':
      return LEAF;
    case 'optgroup':
    case 'option':
    case 'fieldset':
      return FORM_CONTROL;
    case 'label':
      return INLINE | NO_SCROLL;
    case 'body':
      return NO_SCROLL | SHADOW_HOST;
    case 'legend':
    case 'caption':
    case 'figcaption':
      return CAPTION;
    case 'script':
    case 'style':
    case 'template':
    case 'head':
    case 'noscript':
    case 'link':
    case 'meta':
    case 'title':
    case 'base':
      return SKIP;
    default:
      // custom elements (a hyphen in the name) may host shadow roots
      return strIndexOf(tag, '-') > 0 ? SHADOW_HOST : 0;
  }
}
