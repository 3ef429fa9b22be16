/**
 * The compact data form: what the MCP door sends as `structuredContent` by default. A pure function
 * of the full `data` (which the library and the tool API keep): snapshots, find matches and action
 * effects lose what a program does not need (long frame ids, attributes, empty and false fields,
 * repeated ids), boxes are rounded, and every other field passes through unchanged. Shape-driven:
 * nothing here names a tool, and compactSchema() rewrites a capability's output schema the same way,
 * so the schema a client validates against always matches what it gets.
 */
import { z } from 'zod';

/** How the MCP door fills structuredContent: the whole data, the compact form, or none. */
export type StructuredMode = 'full' | 'compact' | 'off';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drop undefined, null, false, '' and empty arrays/objects (0 stays: it is a value). */
function prune(o: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === false || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isRec(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** [x, y, width, height] in whole CSS px. */
function box(b: unknown): number[] | undefined {
  if (!isRec(b)) return undefined;
  return [whole(b.x), whole(b.y), whole(b.width), whole(b.height)];
}

const whole = (n: unknown) => Math.round(Number(n) || 0);

const list = (v: unknown): string | undefined => (Array.isArray(v) && v.length > 0 ? v.join(',') : undefined);

/**
 * One element as a row: [ref, role, name, box, actions?, more?]. name is '' when empty, box is
 * [x, y, width, height] in whole CSS px, actions are comma-separated (left out when there are none
 * and nothing follows, else ''), and `more` (left out when empty) holds text (when it adds words), value, min, max, states (comma-separated) and the
 * frame alias of an element outside the main frame. Rows rather than objects: an object per ref
 * spends more on its keys than the listing's text line spends on the whole element.
 */
function compactRef(r: Rec, frame?: string): unknown[] {
  const name = ((r.accessible_name ?? r.name) as string | undefined) ?? '';
  const text = r.text as string | undefined;
  // `more` is built field by field (as prune would leave it): this runs once per ref of a listing
  let more: Rec | undefined;
  if (text && text !== name) (more ??= {}).text = text;
  if (kept(r.value)) (more ??= {}).value = r.value;
  if (kept(r.value_min)) (more ??= {}).min = r.value_min;
  if (kept(r.value_max)) (more ??= {}).max = r.value_max;
  const states = list(r.states);
  if (states) (more ??= {}).states = states;
  if (frame) (more ??= {}).frame = frame;
  const row: unknown[] = [r.ref, r.role, name, box(r.bounding_box) ?? []];
  const actions = list(r.allowed_actions ?? r.actions);
  if (actions || more) row.push(actions ?? '');
  if (more) row.push(more);
  return row;
}

/** Whether prune keeps a scalar field (arrays and objects are not passed here). */
const kept = (v: unknown) => v !== undefined && v !== null && v !== false && v !== '';

function compactDiff(d: unknown): Rec | undefined {
  if (!isRec(d)) return undefined;
  const out = prune({ added: d.added, removed: d.removed, changed: d.changed, truncated: d.truncated });
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A snapshot: header fields a program reads (scope, url, title, generation, counts, cursor), the refs
 * of the returned window, and frame aliases: refs outside the main frame carry `frame: "f1"`…, and
 * `frames` maps each alias to its frame id.
 */
function compactSnapshot(s: Rec, mainFrame: unknown): Rec {
  const aliases = new Map<string, string>();
  const refs = Array.isArray(s.refs) ? (s.refs as Rec[]) : [];
  const out = refs.map((r) => {
    const id = r.frame_id as string | undefined;
    if (!id || id === mainFrame) return compactRef(r);
    let alias = aliases.get(id);
    if (!alias) aliases.set(id, (alias = `f${aliases.size + 1}`));
    return compactRef(r, alias);
  });
  return prune({
    scope: s.scope,
    url: s.url,
    title: s.title,
    generation: s.document_generation,
    node_count: s.node_count,
    shown_count: s.shown_count,
    truncated: s.truncated,
    partial: s.partial,
    cursor: s.cursor,
    refs: out,
    frames: Object.fromEntries([...aliases].map(([id, a]) => [a, id])),
    diff: compactDiff(s.diff),
  });
}

/** An action's effect: what happened, without empty lists, nulls or the repeated page id. */
function compactEffect(e: Rec): Rec {
  // the target's role and name are the listing's; what the action left in it is news
  // (checked stays even when false: unchecked is the news of an uncheck)
  const target = isRec(e.target)
    ? {
        ...prune({ value: e.target.value }),
        ...(e.target.checked !== undefined ? { checked: e.target.checked } : {}),
      }
    : undefined;
  const waited = isRec(e.waited) ? prune(e.waited) : undefined;
  const requests = Array.isArray(e.requests)
    ? (e.requests as Rec[]).map((r) =>
        prune({ method: r.method, url: r.url, status: r.status, failed: r.failed }),
      )
    : undefined;
  return prune({
    action: e.action,
    ref: e.ref,
    outcome: e.outcome,
    message: e.message,
    navigation: e.navigation,
    opened_pages: e.opened_pages,
    dialogs: e.dialogs,
    downloads: e.downloads,
    console_errors: e.console_errors,
    requests,
    changes: compactDiff(e.changes),
    target,
    settle_ms: e.settle_ms,
    waited: waited && (Array.isArray(waited.saw) || Array.isArray(waited.pending)) ? waited : undefined,
  });
}

/**
 * The compact form of a capability's data: snapshots, matches and effects compacted, every other
 * field as it is (error data too: it is small already).
 */
export function compactData(data: Rec): Rec {
  const out: Rec = { ...data };
  if (isRec(data.snapshot) && Array.isArray(data.snapshot.refs)) {
    out.snapshot = compactSnapshot(data.snapshot, data.main_frame_id);
    delete out.main_frame_id;
  }
  if (Array.isArray(data.matches)) {
    out.matches = (data.matches as Rec[]).map((m) => compactRef(m));
    // every match is listed: the total and truncated:false say nothing more
    if (data.truncated === false) {
      delete out.truncated;
      if (data.total === data.matches.length) delete out.total;
    }
  }
  if (isRec(data.action) && typeof data.action.outcome === 'string') out.action = compactEffect(data.action);
  // a log read lists its entries twice (entries, and console_entries or network_entries): once is enough
  if (
    Array.isArray(data.entries) &&
    (data.entries === data.console_entries || data.entries === data.network_entries)
  )
    delete out.entries;
  return out;
}

/** What a door sends as structured data in a mode; undefined for `off`. */
export function structuredData(data: Rec, mode: StructuredMode): Rec | undefined {
  if (mode === 'off') return undefined;
  return mode === 'compact' ? compactData(data) : data;
}

// ---------------------------------------------------------------- schemas of the compact form

const diffOut = z.looseObject({}).describe('Outline diff: added, removed, changed lines');

/** A ref or find match in the compact form: a row (see compactRef). */
export const compactRefSchema = z
  .array(z.unknown())
  .describe('[ref, role, name, box [x,y,w,h], actions? "a,b", more? {text,value,states,frame}]');

const compactSnapshotSchema = z
  .looseObject({
    truncated: z.boolean().optional().describe('More: follow cursor'),
    cursor: z.string().optional().describe('Cursor'),
    refs: z.array(compactRefSchema).optional().describe('Elements shown'),
    frames: z.record(z.string(), z.string()).optional().describe('Frame alias → frame id'),
    diff: diffOut.optional(),
  })
  .describe('Snapshot: scope, url, title, counts, refs');

const compactEffectSchema = z
  .looseObject({ outcome: z.string().describe('completed|dispatched|no_change|failed') })
  .describe('Effect');

const COMPACT_FIELDS: Record<string, z.ZodType> = {
  snapshot: compactSnapshotSchema,
  matches: z.array(compactRefSchema).describe('Matches (total only when more exist)'),
  action: compactEffectSchema,
};

/**
 * The schema of compactData(data) for data of this schema: the compacted fields swapped for their
 * compact schemas, everything optional (compaction leaves empty and false fields out).
 */
export function compactSchema(output: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(output.shape as Record<string, z.ZodType>)) {
    if (k === 'main_frame_id') continue;
    const field = COMPACT_FIELDS[k] ?? v;
    shape[k] = field instanceof z.ZodOptional ? field : field.optional();
  }
  return z.looseObject(shape).describe(output.description ?? 'Result');
}
