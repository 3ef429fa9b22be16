/** Read the attributes the walker cares about in one pass (most elements have none: a fast path). */
import { elGetAttribute, elGetAttributeNames, elHasAttributes, setPrototypeOf, table } from './natives.js';
import { cap } from './text.js';

/** Attributes copied to WalkNode.attrs. */
const KEEP = table<true>({
  id: true,
  name: true,
  type: true,
  href: true,
  placeholder: true,
  title: true,
  alt: true,
  role: true,
  'aria-label': true,
  'aria-keyshortcuts': true,
  for: true,
  action: true,
  method: true,
  autocomplete: true,
  src: true,
  'data-testid': true,
  contenteditable: true,
});

/** Kept attributes: a fast object whose prototype chain does not reach Object.prototype (no page setters). */
class Kept {}
setPrototypeOf(Kept.prototype, null);

/** The attributes of one element that change its role, name, states or actions. */
export class Attrs {
  role: string | null = null;
  label: string | null = null;
  labelledby: string | null = null;
  hidden = false;
  tabindex: string | null = null;
  title: string | null = null;
  checked: string | null = null;
  pressed: string | null = null;
  expanded: string | null = null;
  selected: string | null = null;
  disabled = false;
  required = false;
  readonly = false;
  invalid = false;
  level: string | null = null;
  modal = false;
  multiselectable = false;
  valuetext: string | null = null;
  valuenow: string | null = null;
  valuemin: string | null = null;
  valuemax: string | null = null;
  /** aria-multiline. */
  multiline: string | null = null;
  /** aria-description. */
  description: string | null = null;
  /** aria-describedby. */
  describedby: string | null = null;
  /** aria-roledescription. */
  roledescription: string | null = null;
  placeholder: string | null = null;
  editable: string | null = null;
  draggable = false;
  onclick = false;
  href = false;
  alt: string | null = null;
  cls: string | null = null;
  /** colspan / rowspan other than 1. */
  colspan = false;
  rowspan = false;
  style = false;
  keep: Record<string, string> | null = null;
}

const NONE = new Attrs();

/** Collect an element's attributes; the returned object must not be modified. */
export function readAttrs(el: Element): Attrs {
  if (!elHasAttributes(el)) return NONE;
  const a = new Attrs();
  const names = elGetAttributeNames(el);
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    const v = elGetAttribute(el, n) ?? '';
    if (KEEP[n]) (a.keep ??= new Kept() as Record<string, string>)[n] = cap(v);
    switch (n) {
      case 'role':
        a.role = v;
        break;
      case 'aria-label':
        a.label = v;
        break;
      case 'aria-labelledby':
        a.labelledby = v;
        break;
      case 'aria-hidden':
        a.hidden = v === 'true';
        break;
      case 'tabindex':
        a.tabindex = v;
        break;
      case 'title':
        a.title = v;
        break;
      case 'aria-checked':
        a.checked = v;
        break;
      case 'aria-pressed':
        a.pressed = v;
        break;
      case 'aria-expanded':
        a.expanded = v;
        break;
      case 'aria-selected':
        a.selected = v;
        break;
      case 'aria-disabled':
        a.disabled = v === 'true';
        break;
      case 'aria-required':
        a.required = v === 'true';
        break;
      case 'aria-readonly':
        a.readonly = v === 'true';
        break;
      case 'aria-invalid':
        a.invalid = v !== '' && v !== 'false';
        break;
      case 'aria-level':
        a.level = v;
        break;
      case 'aria-modal':
        a.modal = v === 'true';
        break;
      case 'aria-multiselectable':
        a.multiselectable = v === 'true';
        break;
      case 'aria-valuetext':
        a.valuetext = v;
        break;
      case 'aria-valuenow':
        a.valuenow = v;
        break;
      case 'aria-valuemin':
        a.valuemin = v;
        break;
      case 'aria-valuemax':
        a.valuemax = v;
        break;
      case 'aria-multiline':
        a.multiline = v;
        break;
      case 'aria-description':
        a.description = v;
        break;
      case 'aria-describedby':
        a.describedby = v;
        break;
      case 'aria-roledescription':
        a.roledescription = v;
        break;
      case 'aria-placeholder':
      case 'placeholder':
        a.placeholder ??= v;
        break;
      case 'contenteditable':
        a.editable = v;
        break;
      case 'draggable':
        a.draggable = v === 'true';
        break;
      case 'onclick':
      case 'onmousedown':
      case 'onpointerdown':
      case 'onmouseup':
        a.onclick = true;
        break;
      case 'href':
        a.href = true;
        break;
      case 'alt':
        a.alt = v;
        break;
      case 'class':
        a.cls = v;
        break;
      case 'style':
        a.style = true;
        break;
      case 'colspan':
        a.colspan = v !== '1';
        break;
      case 'rowspan':
        a.rowspan = v !== '1';
        break;
    }
  }
  return a;
}
