/**
 * Where brow's role or name for an element of the accname fixture corpus deliberately differs from
 * Chromium's accessibility tree. Keys are `<page>#<data-testid>`; every entry says why. The
 * differential test (accname-diff.test.ts) fails on any disagreement not listed here, and on an
 * entry that no longer disagrees (so the list cannot go stale).
 */
const ORPHAN =
  'Chromium demotes a widget role whose required context is missing (option outside a listbox, ' +
  'treeitem outside a tree); brow keeps the author’s role so the agent still sees what it can act on';
const FOLDED_TEXT_LEVEL =
  'a text-level element inside an element named from its content (heading, link, button, cell): ' +
  'its text is already in that name, so brow shows no extra, empty line for it';
const LIST_KEEPS_ROLE =
  'a role=none list that keeps its list role by the conflict rule (global ARIA attribute, name) keeps ' +
  'listitems too; Chromium still drops its items';
const GENERATED_WORD =
  'CSS generated text is its own word in a name (the accname WPT tests, comp_name_from_content, expect ' +
  '"before label"); Chromium 156 glues inline ::before/::after text to the content';
const NO_ARIA_ROLE = 'no ARIA role (Chromium-internal role); brow shows its content, not a wrapper';

export const KNOWN_DISAGREEMENTS: Record<string, string> = {
  'aria#pc-option': ORPHAN,
  'aria#role-treeitem': ORPHAN,
  'aria#role-math':
    'ARIA 1.2 names math from the author only; Chromium names role=math from its content (brow shows it as text)',
  'embedded#grid-row':
    'brow does not name rows from their content (a row’s name would repeat every cell; ARIA leaves it ' +
    'optional and Chromium does not do it for <tr>)',
  'misc#t2-row':
    'brow does not name rows from their content (a row’s name would repeat every cell); Chromium names ' +
    'the rows of grids',
  'misc#video':
    'brow shows media as an opaque line named by its author; Chromium names an unplayable video by its ' +
    'error message',
  'misc#audio':
    'brow shows media as an opaque line named by its author; Chromium names an unplayable audio by its ' +
    'error message',
  'contextual#li-in-none-ul-described': LIST_KEEPS_ROLE,
  'contextual#li-in-none-ul-labelled': LIST_KEEPS_ROLE,
  'html#btn-both': GENERATED_WORD,
  'shadow#glue-before': GENERATED_WORD,
  'shadow#glue-after': GENERATED_WORD,
  'shadow#glue-both': GENERATED_WORD,
  'text#b':
    'HTML-AAM maps <b> to strong (its WPT roles test expects it); Chromium 156 leaves <b> out of its tree',
  'misc#tfoot-plain':
    'a static row group is not shown (the HTML-AAM WPT table-roles test expects no role for a plain ' +
    'thead/tbody/tfoot); Chromium 156 exposes a tfoot as rowgroup',
  'html#fig-cap':
    'HTML-AAM: a figure is named by its figcaption; Chromium 156 leaves it unnamed. brow follows the spec',
  'html#fig-cap-first':
    'HTML-AAM: a figure is named by its figcaption; Chromium 156 leaves it unnamed. brow follows the spec',
  'html#dl': NO_ARIA_ROLE,
  'text#dl': NO_ARIA_ROLE,
  'text#ruby': NO_ARIA_ROLE,
  'html#lbl-hidden':
    'a display:none <label> gives no text (accname 2A), so HTML-AAM’s next source, title, names the ' +
    'input; Chromium lets the hidden label block the title',
  'html#img-empty-title':
    'HTML-AAM: <img alt=""> is presentational whatever its title; Chromium keeps an unnamed image',
  'text#strong-in-heading': FOLDED_TEXT_LEVEL,
  'text#em-in-link': FOLDED_TEXT_LEVEL,
  'text#mark-in-button': FOLDED_TEXT_LEVEL,
  'text#strong-in-td': FOLDED_TEXT_LEVEL,
  'text#del-in-td': FOLDED_TEXT_LEVEL,
};
