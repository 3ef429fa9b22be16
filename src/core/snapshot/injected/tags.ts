/** What the walker needs to know about a tag, as bit flags from one switch (cheaper than several set lookups). */

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

/** The flags of a lower-case tag name. */
export function tagFlags(tag: string): number {
  switch (tag) {
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
    case 'button':
      return INLINE | FORM_CONTROL;
    case 'optgroup':
    case 'option':
    case 'fieldset':
      return FORM_CONTROL;
    case 'label':
      return INLINE | NO_SCROLL;
    case 'a':
    case 'abbr':
    case 'b':
    case 'bdi':
    case 'bdo':
    case 'cite':
    case 'code':
    case 'data':
    case 'del':
    case 'dfn':
    case 'em':
    case 'font':
    case 'i':
    case 'ins':
    case 'kbd':
    case 'mark':
    case 'q':
    case 's':
    case 'samp':
    case 'small':
    case 'span':
    case 'strong':
    case 'sub':
    case 'sup':
    case 'time':
    case 'tt':
    case 'u':
    case 'var':
    case 'slot':
      return INLINE;
    case 'html':
    case 'body':
    case 'tr':
    case 'td':
    case 'th':
    case 'tbody':
    case 'thead':
    case 'tfoot':
      return NO_SCROLL;
    case 'legend':
    case 'caption':
    case 'figcaption':
      return CAPTION;
    default:
      return 0;
  }
}
