/** Scopes: which nodes of a snapshot a caller asked for. */
import type { SnapNode } from './snapshot.js';

export type Scope = 'interactive' | 'viewport' | 'subtree' | 'full' | 'changes';

const ACTING = new Set(['click', 'fill', 'type', 'press', 'select', 'check', 'upload', 'drag']);

/** Containers kept around interactive nodes so the hierarchy still tells forms and regions apart (and panes: isPane). */
const CONTEXT_ROLES = new Set([
  'main',
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'search',
  'region',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'tablist',
  'listbox',
  'tree',
  'grid',
  'table',
  'toolbar',
  'group',
  'radiogroup',
  'iframe',
  'heading',
  'article',
]);

const WIDGETS = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
]);

/** Controls an agent can act on, and disabled controls it should know are there. */
export const isInteractive = (n: SnapNode): boolean =>
  n.actions.some((a) => ACTING.has(a)) || (WIDGETS.has(n.role) && n.states.includes('disabled'));

/**
 * Keep the nodes a scope wants, plus the ancestors that give them context. Returns indexes
 * into `nodes` in document order.
 */
export function selectScope(nodes: SnapNode[], scope: Scope): number[] {
  if (scope === 'full' || scope === 'subtree' || scope === 'changes') return nodes.map((_, i) => i);
  const want =
    scope === 'interactive'
      ? (n: SnapNode) => isInteractive(n) || n.role === 'heading' || !!n.opaque
      : (n: SnapNode) => n.inView;
  return withAncestors(nodes, want, scope === 'interactive' ? keptAround : () => true);
}

/** An ancestor the interactive scope keeps around the controls inside it: a region, form, pane… */
export const keptAround = (n: SnapNode): boolean => CONTEXT_ROLES.has(n.role) || isPane(n);

/**
 * A pane that scrolls and does nothing else (an inbox list, a feed, a windowed list): kept around
 * the controls inside it, whose ref an agent needs to scroll it to more of them.
 */
const isPane = (n: SnapNode): boolean => n.actions.length === 1 && n.actions[0] === 'scroll';

/**
 * Of the shown nodes (indexes in document order), those at most `depth` levels deep in the listing:
 * a line's level is the number of shown ancestors above it, as its indentation shows (0 = top).
 */
export function limitDepth(nodes: SnapNode[], indexes: number[], depth: number): number[] {
  const chain: number[] = []; // raw depths of the shown ancestors of the current node
  const out: number[] = [];
  for (const i of indexes) {
    const d = nodes[i]!.depth;
    while (chain.length > 0 && chain[chain.length - 1]! >= d) chain.pop();
    if (chain.length <= depth) out.push(i);
    chain.push(d);
  }
  return out;
}

/** Indexes of wanted nodes plus those of their ancestors that `keepAncestor` accepts. */
export function withAncestors(
  nodes: SnapNode[],
  want: (n: SnapNode) => boolean,
  keepAncestor: (n: SnapNode) => boolean,
): number[] {
  const keep = new Uint8Array(nodes.length);
  const stack: number[] = []; // indexes of the current ancestor chain
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    while (stack.length > 0 && nodes[stack[stack.length - 1]!]!.depth >= n.depth) stack.pop();
    if (want(n)) {
      keep[i] = 1;
      for (let j = stack.length - 1; j >= 0; j--) {
        const a = stack[j]!;
        if (keep[a]) break;
        if (keepAncestor(nodes[a]!)) keep[a] = 1;
      }
    }
    stack.push(i);
  }
  const out: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (keep[i]) out.push(i);
  return out;
}

/** Longest content label, and how many hidden descendants are read for one. */
const CONTENT_CHARS = 80;
const CONTENT_SCAN = 400;

/**
 * Whether hiddenContent's words for node i (given) stay the same however many nodes come after the
 * last of `nodes`: its scan ended within them, or its words were already full.
 */
export const wordsComplete = (nodes: readonly SnapNode[], i: number, words: string | undefined): boolean =>
  i + CONTENT_SCAN < nodes.length || (words?.length ?? 0) >= CONTENT_CHARS;

/** A shown node that hiddenContent may label with words of its hidden descendants. */
export const borrowsWords = (n: SnapNode): boolean => !!n.ref && !n.name && !n.text && n.role !== 'text';

/**
 * Labels for shown nodes that have neither name nor text of their own while the scope hides the
 * descendants that carry their words (a role-less clickable around an icon `<img alt>`, a sortable
 * `<li>` whose text sits in spans): the names and texts of those hidden descendants, in order, at most
 * 80 chars. Keyed by index into `nodes`. Shown descendants keep their own words.
 */
export function hiddenContent(nodes: SnapNode[], indexes: number[]): Map<number, string> {
  const out = new Map<number, string>();
  const shown = new Uint8Array(nodes.length);
  for (const i of indexes) shown[i] = 1;
  for (const i of indexes) {
    const n = nodes[i]!;
    if (!borrowsWords(n)) continue;
    let words = '';
    let skipDepth = -1; // inside a shown descendant's subtree
    for (let j = i + 1, seen = 0; j < nodes.length && seen < CONTENT_SCAN; j++, seen++) {
      const d = nodes[j]!;
      if (d.depth <= n.depth) break;
      if (skipDepth >= 0) {
        if (d.depth > skipDepth) continue;
        skipDepth = -1;
      }
      if (shown[j]) {
        skipDepth = d.depth;
        continue;
      }
      const w = d.name || d.text || '';
      if (w) words = words ? `${words} ${w}` : w;
      if (words.length >= CONTENT_CHARS) break;
    }
    if (words) out.set(i, words.length > CONTENT_CHARS ? `${words.slice(0, CONTENT_CHARS - 1)}…` : words);
  }
  return out;
}
