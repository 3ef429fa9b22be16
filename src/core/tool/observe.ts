/**
 * `tab.observe()`: seed 000's observation JSON, rendered from brow's in-page walker (every
 * frame, shadow roots included) instead of the accessibility tree. Ids come from ElementIds.
 */
import type { Frame, Page } from 'puppeteer-core';
import type { BrowPageApi, WalkNode, WalkResult } from '../snapshot/injected/types.js';
import { frameOwners } from '../snapshot/frames.js';
import { withApi } from '../snapshot/page-script.js';
import type { ElementIds } from './element-ids.js';

export interface ObserveOptions {
  /** Every element, not only interactive ones. */
  includeAll?: boolean;
  /** Only elements that intersect the viewport. */
  viewportOnly?: boolean;
}

export interface ObservationEntry {
  id: number;
  role: string;
  name: string;
  value?: string;
  /** The accessible description (seed 000's `description`), when there is one. */
  description?: string;
  /** aria-keyshortcuts (seed 000's `keyshortcuts`), when set. */
  keyshortcuts?: string;
  text?: string;
  level?: number;
  /** Bounds of a range widget, when known (puppeteer's valuemin / valuemax). */
  valuemin?: number;
  valuemax?: number;
  states: string[];
}

export interface Observation {
  url: string;
  title: string;
  viewport: { width: number; height: number; deviceScaleFactor: number };
  scroll: { x: number; y: number; width: number; height: number; scrollWidth: number; scrollHeight: number };
  elements: ObservationEntry[];
}

/** Seed 000's interactive roles. */
const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'combobox',
  'listbox',
  'option',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'slider',
  'spinbutton',
  'searchbox',
  'treeitem',
]);
const STATEFUL = new Set(['checked', 'mixed', 'pressed', 'selected', 'expanded', 'collapsed', 'focused']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** The fields of a walked node an observation uses; `shown` = kept by the page-side filter. */
type Slim = Pick<
  WalkNode,
  | 'id'
  | 'role'
  | 'name'
  | 'value'
  | 'valueMin'
  | 'valueMax'
  | 'description'
  | 'text'
  | 'level'
  | 'states'
  | 'tag'
  | 'inView'
  | 'frame'
> & {
  shown: boolean;
  keyshortcuts?: string;
};
type Walk = Omit<WalkResult, 'nodes'> & { nodes: Slim[]; dpr: number };

interface PageFilter {
  maxNodes: number;
  includeAll: boolean;
  interactive: string[];
  stateful: string[];
}

/**
 * Page side: walk, keep what the observation shows (plus frame owners, to stitch frames in),
 * and send only the fields it uses — on a big page most of the cost is the transfer.
 */
function walkInPage(api: BrowPageApi, f: PageFilter): Walk {
  const res = api.walk({ maxNodes: f.maxNodes });
  const nodes: Slim[] = [];
  for (const n of res.nodes) {
    const shown =
      n.id > 0 &&
      (f.includeAll ||
        f.interactive.includes(n.role) ||
        n.clickable === true ||
        n.states.some((st) => f.stateful.includes(st)));
    if (!shown && !n.frame) continue;
    const s: Slim = {
      id: n.id,
      role: n.role,
      name: n.name,
      states: n.states,
      tag: n.tag,
      inView: n.inView,
      shown,
    };
    if (n.value !== undefined) s.value = n.value;
    if (n.valueMin !== undefined) s.valueMin = n.valueMin;
    if (n.valueMax !== undefined) s.valueMax = n.valueMax;
    if (n.description) s.description = n.description;
    const keys = n.attrs?.['aria-keyshortcuts'];
    if (keys) s.keyshortcuts = keys;
    if (n.text) s.text = n.text;
    if (n.level !== undefined) s.level = n.level;
    if (n.frame) s.frame = true;
    nodes.push(s);
  }
  return { ...res, nodes, dpr: devicePixelRatio };
}

const MAX_NODES = 100_000;

/** Walk the page (all frames) and build the observation. */
export async function observe(page: Page, ids: ElementIds, opts: ObserveOptions = {}): Promise<Observation> {
  const elements: ObservationEntry[] = [];
  const walkFrame = async (frame: Frame, visible: boolean): Promise<Walk | null> => {
    let res: Walk;
    try {
      res = await withApi(frame, walkInPage, {
        maxNodes: MAX_NODES,
        includeAll: opts.includeAll === true,
        interactive: [...INTERACTIVE],
        stateful: [...STATEFUL],
      });
    } catch {
      return null; // a frame that refuses or went away has no elements
    }
    ids.sawDocument(frame, res.docKey);
    const owners = await frameOwners(frame);
    for (const n of res.nodes) {
      if (n.shown && (!opts.viewportOnly || (visible && n.inView)))
        elements.push(entry(ids.idFor(frame, res.docKey, n.id), n));
      const child = n.frame && n.id ? owners.get(n.id) : undefined;
      if (child) await walkFrame(child, visible && n.inView);
    }
    return res;
  };
  const main = await walkFrame(page.mainFrame(), true);
  const vp = main?.viewport ?? {
    width: 0,
    height: 0,
    scrollX: 0,
    scrollY: 0,
    scrollWidth: 0,
    scrollHeight: 0,
  };
  return {
    url: main?.url ?? page.url(),
    title: main?.title ?? '',
    viewport: { width: vp.width, height: vp.height, deviceScaleFactor: main?.dpr ?? 1 },
    scroll: {
      x: vp.scrollX,
      y: vp.scrollY,
      width: vp.width,
      height: vp.height,
      scrollWidth: vp.scrollWidth,
      scrollHeight: vp.scrollHeight,
    },
    elements,
  };
}

/** Seed 000's state words: disabled, checked=…, pressed=…, selected=…, expanded=…, required, … */
function states(n: Slim): string[] {
  const out: string[] = [];
  const has = (s: string) => n.states.includes(s);
  for (const s of n.states) {
    if (s === 'checked') out.push('checked=true');
    else if (s === 'mixed') out.push('checked=mixed');
    else if (s === 'pressed') out.push('pressed=true');
    else if (s === 'selected') out.push('selected=true');
    else if (s === 'expanded') out.push('expanded=true');
    else if (s === 'collapsed') out.push('expanded=false');
    else out.push(s);
  }
  if (CHECKABLE.has(n.role) && !has('checked') && !has('mixed')) out.push('checked=false');
  return out;
}

function entry(id: number, n: Slim): ObservationEntry {
  const e: ObservationEntry = { id, role: n.role, name: n.name, states: states(n) };
  if (n.value !== undefined) e.value = n.value;
  if (n.description) e.description = n.description;
  if (n.keyshortcuts) e.keyshortcuts = n.keyshortcuts;
  if (n.text) e.text = n.text;
  if (n.valueMin !== undefined) e.valuemin = n.valueMin;
  if (n.valueMax !== undefined) e.valuemax = n.valueMax;
  if (n.level !== undefined) e.level = n.level;
  return e;
}
