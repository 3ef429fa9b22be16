/** The outline walk: the composed tree in pre-order, emitting the elements an agent can see or use. */
import { descendantPrefix, inlineInName, namePrefix, nameSuffix, namedFromContent } from './accname.js';
import { readAttrs, type Attrs } from './attrs.js';
import { labelNamesVisibleControl } from './labels.js';
import { idOf } from './ids.js';
import { observeRoot } from './mutations.js';
import { ANY_PSEUDO, pseudoRulesIn, withPseudo, type PseudoRules } from './pseudo-content.js';
import { BoxJobs } from './boxes.js';
import { freeze, nodeGetRootNode, setPrototypeOf } from './natives.js';
import { CHILDREN_PRESENTATIONAL, enterTable, roleFlags } from './roles.js';
import { CAPTION, CELL, INLINE, LEAF, NO_SCROLL, SHADOW_HOST, SKIP, tagFlags } from './tags.js';
import { RowCells, TableGeometry, cellColumn, rowCells } from './table-boxes.js';
import {
  TextCtxStack,
  addText,
  endSegment,
  joinContent,
  takeSegments,
  type TextCtx,
} from './outline-text.js';
import { emitOptions, type Emitter } from './select-options.js';
import { shadowRootOf, slotChildren } from './shadow.js';
import { StyleCache } from './style-cache.js';
import { CAP, collapse, hasText } from './text.js';
import type { WalkNode } from './types.js';
import { GONE, visibilityOf } from './visibility.js';
import { emitSvgParts } from './svg.js';
import { Visit, contentAnswer, decide, fillNode, isTextLevel, parentCursor, shownRole } from './visit.js';
import { actionsOf, isDisabled } from './widget.js';

const NO_STRINGS = freeze([]) as unknown as string[];
const NO_ATTRS = freeze({}) as Record<string, string>;
const NO_BOX = freeze([0, 0, 0, 0]) as unknown as [number, number, number, number];

/**
 * A WalkNode. Its prototype chain stops short of Object.prototype, so setting an optional field
 * (text, value, level…) never reaches a setter a page may have defined there.
 */
class OutlineNode {
  states = NO_STRINGS;
  actions = NO_STRINGS;
  attrs = NO_ATTRS;
  box = NO_BOX;
  inView = false;
  constructor(
    readonly id: number,
    readonly depth: number,
    public role: string,
    public name: string,
    readonly tag: string,
  ) {}
}
setPrototypeOf(OutlineNode.prototype, null);

/** One walk of one document (or subtree). */
export class Walker implements Emitter {
  readonly nodes: WalkNode[] = [];
  truncated = false;
  readonly focused: Element | null;
  private readonly boxes = new BoxJobs(innerWidth, innerHeight);
  private readonly styles = new StyleCache();
  /** Disabled <fieldset>s around the current element (their controls are :disabled). */
  private disabledFieldsets = 0;
  private readonly ctxs = new TextCtxStack();
  /** The table and row being walked, for inferring cell boxes. */
  private table: TableGeometry | null = null;
  private row: RowCells | null = null;
  /** Text-level nodes per context depth, shown after the text they sit in (see textLevel). */
  private readonly deferred: (WalkNode[] | null)[] = [];
  /** The page's ::before/::after rules with content, if any: names from content read their text. */
  private pseudo: PseudoRules | null = null;

  /** `measure` false leaves every box empty and nothing in view (see WalkOptions.boxes). */
  constructor(
    private readonly max: number,
    private readonly measure = true,
  ) {
    this.focused = deepActiveElement();
  }

  /** Walk the subtree of `el` (included); depth starts at 0. */
  walkFrom(el: Element, parent: Element | null): void {
    const ctx = this.ctxs.at(0, null, false);
    enterTable(undefined);
    this.table = null;
    this.row = null;
    this.deferred.length = 0;
    this.pseudo = pseudoRulesIn(nodeGetRootNode(el));
    // Below the document root an enclosing fieldset may be disabled: match each control then.
    this.disabledFieldsets = parent ? 1 : 0;
    this.visitElement(el, ctx, parent, undefined, false);
    this.flush(ctx);
    if (this.measure) this.boxes.fill();
  }

  push(node: WalkNode): boolean {
    if (this.nodes.length >= this.max) {
      this.truncated = true;
      return false;
    }
    this.nodes[this.nodes.length] = node;
    return true;
  }

  /** A node; its box is measured from `source` after the walk (see fillBoxes). */
  node(id: number, depth: number, role: string, name: string, tag: string, source: Element | null): WalkNode {
    const node = new OutlineNode(id, depth, role, name, tag) as WalkNode;
    if (source) this.boxes.add(node, source, null);
    return node;
  }

  /** Emit the text of a context as text nodes, one per segment. */
  private flush(ctx: TextCtx): void {
    const segs = takeSegments(ctx);
    if (segs) {
      for (let i = 0; i < segs.length; i++) {
        const seg = segs[i]!;
        const node = this.node(0, ctx.depth, 'text', collapse(seg.text, CAP), '', null);
        if (!this.push(node)) return;
        this.boxes.add(node, null, seg);
      }
    }
    this.pushDeferred(ctx.depth);
  }

  /** Emit the text-level nodes gathered at a depth. */
  private pushDeferred(depth: number): void {
    const list = this.deferred[depth];
    if (!list) return;
    this.deferred[depth] = null;
    for (let i = 0; i < list.length; i++) if (!this.push(list[i]!)) return;
  }

  /** Text of the context as the `text` of its element (it has no emitted children). */
  private ownText(ctx: TextCtx): string {
    const segs = takeSegments(ctx);
    if (!segs) return '';
    let out = '';
    for (let i = 0; i < segs.length && out.length < CAP; i++) out += (i ? ' ' : '') + segs[i]!.text;
    return collapse(out, CAP);
  }

  /** Walk the composed children; returns their text for a name from content when `collect`. */
  private visitChildren(v: Visit, ctx: TextCtx, textHidden: boolean, collect: boolean): string {
    const { el, tag } = v;
    // A closed <details> shows only its summary; loose text in it has no element to check.
    if (tag === 'details' && !(el as HTMLDetailsElement).open) textHidden = true;
    let content = '';
    const root = v.tf & SHADOW_HOST ? shadowRootOf(el) : null;
    let n: Node | null;
    if (root) {
      observeRoot(root);
      const rules = pseudoRulesIn(root);
      if (rules) this.pseudo = this.pseudo && this.pseudo !== rules ? ANY_PSEUDO : rules;
      n = root.firstChild;
    } else {
      if (tag === 'slot') {
        const assigned = slotChildren(el as HTMLSlotElement);
        if (assigned) {
          for (let i = 0; i < assigned.length && !this.truncated; i++) {
            const part = this.visitNode(assigned[i]!, ctx, textHidden, v, collect);
            if (collect) content += part;
          }
          return content;
        }
      }
      n = el.firstChild;
    }
    for (; n && !this.truncated; n = n.nextSibling) {
      const part = this.visitNode(n, ctx, textHidden, v, collect);
      if (collect) content += part;
    }
    return content;
  }

  /** A child of `parent`: an element is visited, text joins the context. */
  private visitNode(n: Node, ctx: TextCtx, textHidden: boolean, parent: Visit, collect: boolean): string {
    const t = n.nodeType;
    if (t === 1) return this.visitElement(n as Element, ctx, parent.el, parent.cursor, collect);
    if (t !== 3 || textHidden) return '';
    const data = (n as Text).data;
    if (!ctx.covered) addText(ctx, n as Text, data);
    return data;
  }

  /** Visit an element; returns its text alternative for an ancestor's name when `collect`. */
  private visitElement(
    el: Element,
    ctx: TextCtx,
    parent: Element | null,
    parentCursor: string | undefined,
    collect: boolean,
  ): string {
    if (this.truncated) return '';
    let tag = '';
    try {
      tag = el.localName;
      const tf = tagFlags(tag);
      if (tf & SKIP) return '';
      // A child of the row whose cells are being inferred must turn out an emitted cell.
      const row = this.row !== null && this.row.el === parent ? this.row : null;
      const a = readAttrs(el);
      const vis = a.hidden ? GONE : visibilityOf(el);
      if (vis === GONE) {
        if (row) row.valid = false;
        return '';
      }
      const part = this.element(new Visit(el, tag, tf, a, vis, ctx, parent, parentCursor, collect));
      if (row && row.lastCell !== el) row.valid = false;
      return collect && part ? joinContent('', part, inlineInName(el, tf)) : '';
    } catch (e) {
      // One odd element (a throwing getter, a stack overflow) costs its subtree, not the walk.
      this.flush(ctx);
      this.push(this.opaqueError(el, tag, ctx.depth, e));
      return '';
    }
  }

  private opaqueError(el: Element, tag: string, depth: number, e: unknown): WalkNode {
    // the reason first: near the end of the stack (a document nested too deep) any call may throw
    // again, and the reason is what tells that case (snapshot.ts failedWhole)
    let reason = 'error';
    try {
      reason = 'error: ' + collapse(String((e as Error)?.message ?? e), 100);
    } catch {
      if (e instanceof RangeError) reason = 'error: Maximum call stack size exceeded';
    }
    let id = 0;
    try {
      id = idOf(el);
    } catch {
      // no id: the line still says what went wrong
    }
    const node = this.node(id, depth, 'generic', '', tag, null);
    node.opaque = reason;
    return node;
  }

  /** A visible element: a line of its own, a text-level line beside its text, or none. */
  private element(v: Visit): string {
    decide(v, this.styles);
    // What this element gives an ancestor's name from content, when asked.
    v.given = v.collect ? descendantPrefix(v.el, v.tag, v.a, v.rawRole) : '';
    if (isTextLevel(v)) return this.textLevel(v);
    if (!v.emit) return this.passThrough(v);
    return this.emitted(v);
  }

  /** An element without a line: its children are walked in its context, its text flows into it. */
  private passThrough(v: Visit): string {
    const { el, tag, tf, ctx, given } = v;
    if (tf & LEAF) {
      if (tag === 'br') {
        if (!ctx.covered) ctx.pending += ' ';
        return ' ';
      }
      return given ?? '';
    }
    const block = !(tf & INLINE);
    if (block && !ctx.covered) endSegment(ctx);
    // an inline tag laid out as a box of its own (a flex item, inline-block) touching its
    // neighbours: its words do not run into theirs ("Bob" "Invoice" is not "BobInvoice")
    const spaced = !block && !ctx.covered && !inlineInName(el, tf);
    if (spaced) ctx.pending += ' ';
    // A label's text is its control's name, a legend's or caption's its group's: do not repeat it.
    const coverLabel =
      !ctx.covered &&
      ((tag === 'label' && labelNamesVisibleControl(el)) || (tf & CAPTION && this.namesParent(el, ctx)));
    if (coverLabel) ctx.covered = true;
    let content = this.visitChildren(v, ctx, v.invisible, given === null);
    if (this.pseudo && given === null) content = withPseudo(el, content, this.pseudo);
    if (coverLabel) ctx.covered = false;
    if (block && !ctx.covered) endSegment(ctx);
    if (spaced && !ctx.covered) ctx.pending += ' ';
    return contentAnswer(v, content);
  }

  /** An element with a line of its own: its node, then its children in a context under it. */
  private emitted(v: Visit): string {
    const { el, tag, tf, a, ctx } = v;
    this.flush(ctx);
    ctx.children++;
    const role = (v.role = shownRole(v));
    v.roleF = role === v.rawRole ? v.rf : roleFlags(role);
    const prefix = v.labelled && role === 'generic' ? v.labelled : namePrefix(el, tag, a, role);
    const fromContent = !prefix && namedFromContent(tag, role, v.roleF, tf);
    v.disabled = isDisabled(el, tag, a, this.disabledFieldsets > 0, tf);
    if (!v.scrollable && !(tf & (LEAF | NO_SCROLL)) && el.firstElementChild)
      v.scrollable = this.styles.scrollable(el, tag, a);
    const node = this.node(idOf(el), ctx.depth, role, prefix, tag, el);
    const job = this.boxes.last;
    this.inferCell(v, job);
    fillNode(v, node, this.styles, this.focused);
    if (!this.push(node)) return v.given ?? '';
    if (tf & LEAF) {
      this.leafParts(v, node);
      return v.given ?? '';
    }
    const covered =
      ctx.covered ||
      fromContent ||
      v.editable ||
      (v.roleF & CHILDREN_PRESENTATIONAL) !== 0 ||
      // a table's caption line: its words are already the table's name
      (tag === 'caption' && this.namesParent(el, ctx));
    const inner = this.ctxs.at(ctx.depth + 1, node, covered);
    const collect = fromContent || v.given === null;
    let content = this.descend(v, inner, job, collect);
    if (this.pseudo && collect) content = withPseudo(el, content, this.pseudo);
    if (fromContent) node.name = collapse(content, CAP);
    if (!node.name) node.name = nameSuffix(el, a, role);
    if (!node.name) titleDescription(node, a);
    if (inner.children === 0) {
      const text = this.ownText(inner);
      if (text) node.text = text;
      this.pushDeferred(inner.depth);
    } else {
      this.flush(inner);
    }
    return contentAnswer(v, content);
  }

  /** A cell of the row whose cells are being inferred: its column, for its box. */
  private inferCell(v: Visit, job: number): void {
    const row = this.row;
    if (!(v.tf & CELL) || row === null || row.el !== v.parent) return;
    row.lastCell = v.el;
    const col = cellColumn(row, v.el, v.tag, v.a);
    if (col >= 0) this.boxes.cell(job, row.table, col, row.job);
  }

  /** What an emitted leaf shows past its line: a select's options, MathML's text, an SVG's parts. */
  private leafParts(v: Visit, node: WalkNode): void {
    const { el, tag, ctx } = v;
    if (tag === 'select') {
      emitOptions(this, el as HTMLSelectElement, ctx.depth + 1, v.role === 'combobox');
      return;
    }
    // MathML is not walked; its text content is the best plain rendering we have.
    if (tag === 'math') {
      const text = collapse(el.textContent ?? '', CAP);
      if (text) node.text = text;
    }
    // Clickable shapes, links and groups of an inline SVG get lines (and refs) of their own.
    if (tag === 'svg')
      emitSvgParts(
        this,
        el,
        ctx.depth + 1,
        v.cursor ?? this.styles.cursor(el, tag, v.a, parentCursor(v.parent, v.parentCursor)),
      );
  }

  /**
   * Walk an emitted element's children in their context `inner`, inside the table, row or
   * disabled fieldset it opens; returns their text when `collect`.
   */
  private descend(v: Visit, inner: TextCtx, job: number, collect: boolean): string {
    const { el, tag } = v;
    const previousTable = tag === 'table' ? enterTable(v.explicit ?? '') : undefined;
    const previousGeometry = this.table;
    const previousRow = this.row;
    if (tag === 'table') this.table = new TableGeometry();
    else if (tag === 'tr')
      this.row = v.role === 'row' ? rowCells(this.table, el, v.a, job, v.parent?.localName ?? '') : null;
    const fieldset = tag === 'fieldset' && v.disabled ? 1 : 0;
    this.disabledFieldsets += fieldset;
    try {
      return this.visitChildren(v, inner, false, collect);
    } finally {
      if (tag === 'table') enterTable(previousTable);
      this.table = previousGeometry;
      this.row = previousRow;
      this.disabledFieldsets -= fieldset;
    }
  }

  /**
   * An inline text-level element: a node of its own (named by aria-label; abbr by its title, a
   * term by its content), with its text as `text`, while that text also stays in the parent's.
   * It is not counted as an emitted child and follows the text it sits in.
   */
  private textLevel(v: Visit): string {
    const { el, tag, a, rawRole: role, ctx } = v;
    const node = this.node(idOf(el), ctx.depth, role, namePrefix(el, tag, a, role), tag, el);
    node.actions = actionsOf(el, tag, role, a, false, false, false, false);
    if (a.keep) node.attrs = a.keep;
    // Pushed with the text around it (flush), so the parent keeps its text whole when it has no
    // other emitted children and the outline stays in reading order.
    const list = this.deferred[ctx.depth];
    if (list) list[list.length] = node;
    else this.deferred[ctx.depth] = [node];
    const content = this.visitChildren(v, ctx, false, true);
    const text = collapse(content, CAP);
    if (!node.name) node.name = role === 'term' ? text : nameSuffix(el, a, role);
    if (!node.name) titleDescription(node, a);
    if (text && text !== node.name) node.text = text;
    return contentAnswer(v, content);
  }

  /** The computed cursor of an element, through this walk's cache (for the SVG parts). */
  cursorOf(el: Element, tag: string, a: Attrs, parentCursor: string): string {
    return this.styles.cursor(el, tag, a, parentCursor);
  }

  /** A legend, caption or figcaption that gave its emitted parent the name. */
  private namesParent(el: Element, ctx: TextCtx): boolean {
    const p = el.parentElement;
    return (
      !!ctx.node &&
      ctx.node.name !== '' &&
      !!p &&
      p.localName === ctx.node.tag &&
      !p.hasAttribute('aria-label') &&
      !p.hasAttribute('aria-labelledby')
    );
  }
}

/** A title that did not name its element describes it (accname: the description's last source). */
function titleDescription(node: WalkNode, a: Attrs): void {
  if (node.description === undefined && a.title !== null && hasText(a.title))
    node.description = collapse(a.title, CAP);
}

/** The focused element, through shadow roots. */
export function deepActiveElement(): Element | null {
  let f = document.activeElement;
  for (let i = 0; f && i < 64; i++) {
    const inner = shadowRootOf(f)?.activeElement;
    if (!inner || inner === f) break;
    f = inner;
  }
  return f;
}
