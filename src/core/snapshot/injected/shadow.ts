/**
 * Shadow roots and the composed tree. Open roots come from `el.shadowRoot`; closed roots only
 * from our patched `attachShadow`, so when the script is installed late (evaluated into an
 * already-loaded document) closed roots attached before that are invisible to us, as are
 * closed declarative roots (`<template shadowrootmode="closed">`), which the parser creates
 * without calling attachShadow.
 */
import { SafeWeakMap } from './collections.js';
import { slotAssignedNodes } from './natives.js';

const closedRoots = new SafeWeakMap<Element, ShadowRoot>();
let anyClosed = false;

/** Remember a root returned by attachShadow (open or closed). */
export function recordShadowRoot(host: Element, root: ShadowRoot): void {
  if (root.mode === 'closed') {
    closedRoots.set(host, root);
    anyClosed = true;
  }
}

/** The element's shadow root, open or (if we saw it attached) closed. */
export function shadowRootOf(el: Element): ShadowRoot | null {
  const open = el.shadowRoot;
  if (open) return open;
  return anyClosed ? (closedRoots.get(el) ?? null) : null;
}

const FLATTEN = { flatten: true };

/** The assigned nodes of a slot (flattened), or its fallback children; null when it has none. */
export function slotChildren(slot: HTMLSlotElement): Node[] | null {
  const nodes = slotAssignedNodes(slot, FLATTEN);
  return nodes.length ? nodes : null;
}

/** The parent in the flat tree: assigned slot, parent element, or the host of a shadow root. */
export function composedParent(node: Node): Element | null {
  const slot = (node as Element | Text).assignedSlot;
  if (slot) return slot;
  const p = node.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return (p as ShadowRoot).host ?? null;
  return p.nodeType === 1 ? (p as Element) : null;
}

/** The children of an element in the composed (flat) tree. */
export function composedChildrenOf(el: Element): ArrayLike<Node> {
  const root = shadowRootOf(el);
  if (root) return root.childNodes;
  if (el.localName === 'slot') {
    const assigned = slotChildren(el as HTMLSlotElement);
    if (assigned) return assigned;
  }
  return el.childNodes;
}
