/** `--caps`: turn capability groups off (or name the only ones on) for a smaller tool list, in every door alike. */
import type { AnyCapability, CapabilityGroup } from '../../capabilities/define.js';
import { TOOL_NAME } from '../../runtime/door-names.js';
import { failure, failureText } from '../../runtime/outcome.js';
import type { Runtime, Outcome } from '../../runtime/runtime.js';

// Typed as a record so the compiler asks for an update when define.ts gains a group.
const GROUPS: Record<CapabilityGroup, true> = {
  sessions: true,
  pages: true,
  navigation: true,
  snapshot: true,
  actions: true,
  read: true,
  observe: true,
  scripts: true,
  styles: true,
  screenshots: true,
  network: true,
  emulation: true,
  storage: true,
  dialogs: true,
  live: true,
  tool: true,
};

export const CAPABILITY_GROUPS = Object.keys(GROUPS) as CapabilityGroup[];

/**
 * `--caps=core`, the set `brow mcp` lists when no --caps is given: the tools an agent needs to
 * finish a task on a page, in a tool list within 24 KB (every tool is about three times that):
 * open, move and close pages, look, act, wait, answer a dialog, read, check with a script or a
 * picture, and hand a step to a person. Each declares it itself (`tier: 'core'` in its
 * defineCapability). Add groups to it (`--caps=core,storage`) or take all (`--caps=all`).
 */
export function coreTools(all: AnyCapability[]): string[] {
  return all.filter((c) => c.tier === 'core').map((c) => c.name);
}

/** What `brow mcp` lists without --caps (SPEC §8: the default tool list within 24 KB). */
export const MCP_DEFAULT_CAPS = 'core';

/**
 * Parse a `--caps` value into a predicate over capabilities. Items are group names (or tool
 * names, `core` for the core tier, `all` for every tool); `-x` turns x off. With only `-x` items
 * everything else stays on (`-scripts,-styles`); with any plain item only the named ones are on
 * (`sessions,pages,snapshot,actions`, `core,storage`). Throws on a name that is neither.
 */
export function parseCaps(spec: string | undefined, all: AnyCapability[]): (cap: AnyCapability) => boolean {
  const items = (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return () => true;
  const names = new Set(all.map((c) => c.name));
  const on = new Set<string>();
  const off = new Set<string>();
  for (const item of items) {
    const negated = item.startsWith('-');
    const name = item.replace(/^[-+]/, '');
    if (name === 'all' && !negated) continue;
    if (name === 'core' && !negated) {
      for (const t of coreTools(all)) on.add(t);
      continue;
    }
    if (!(name in GROUPS) && !names.has(name)) {
      throw new Error(
        `--caps: "${name}" is neither a capability group (${CAPABILITY_GROUPS.join(', ')}), core, all, nor a tool name.`,
      );
    }
    (negated ? off : on).add(name);
  }
  if (items.some((i) => i.replace(/^\+/, '') === 'all')) on.clear();
  const named = (c: AnyCapability, set: Set<string>) => set.has(c.group) || set.has(c.name);
  return (c) => (on.size === 0 || named(c, on)) && !named(c, off);
}

/**
 * A failure whose hint names tools outside the set, with how to get each: a hint written for the
 * whole tool list ("close pages with browser_close_page") must not send an agent to a tool its
 * client was never given without saying so.
 */
function hintForSet(
  outcome: Outcome,
  all: AnyCapability[],
  enabled: (cap: AnyCapability) => boolean,
): Outcome {
  if (outcome.ok || outcome.data.error_code === 'capability_unavailable') return outcome;
  const { error_code, message, hint } = outcome.data;
  const missing = new Map<string, string>();
  for (const m of `${message} ${hint}`.matchAll(TOOL_NAME)) {
    const cap = all.find((c) => c.name === m[0]);
    if (cap && !enabled(cap)) missing.set(cap.name, cap.group);
  }
  if (missing.size === 0) return outcome;
  const groups = [...new Set(missing.values())].join(',');
  const note = `(${[...missing.keys()].join(', ')} ${missing.size > 1 ? 'are' : 'is'} not in this server's tool set: --caps=core,${groups} adds ${missing.size > 1 ? 'them' : 'it'}.)`;
  const more = `${hint} ${note}`;
  return {
    ...outcome,
    content: failureText(error_code, message, more),
    data: { ...outcome.data, hint: more },
  };
}

function disabledOutcome(cap: AnyCapability): Outcome {
  const message = `${cap.name} is not in this server's tool set (--caps).`;
  const hint =
    `Use a tool from the tool list, or start the server with --caps=core,${cap.group} ` +
    `(adds the ${cap.group} tools) or --caps=all.`;
  return failure('capability_unavailable', message, hint);
}

/**
 * A view of the runtime that lists and runs only the enabled capabilities. Everything else
 * (core, sessions, close) is the runtime itself, so doors can take the view in its place.
 */
export function restrictRuntime<R extends Runtime>(runtime: R, enabled: (cap: AnyCapability) => boolean): R {
  const view = Object.create(runtime) as R;
  const allowed = () => runtime.capabilities.filter(enabled);
  Object.defineProperty(view, 'capabilities', { get: allowed, enumerable: true });
  view.invoke = (name, input, opts) => {
    const cap = runtime.capabilities.find((c) => c.name === name);
    if (cap && !enabled(cap)) return Promise.resolve(disabledOutcome(cap));
    return runtime.invoke(name, input, opts).then((o) => hintForSet(o, runtime.capabilities, enabled));
  };
  return view;
}
