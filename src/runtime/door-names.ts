/**
 * What a capability is called at each door, and text rewritten for a door. Capabilities name each
 * other by tool name in messages and hints (`Call browser_list_pages for live page ids`): MCP, the
 * HTTP tool API and the library call tools by those names, the CLI by its commands
 * (`brow list-pages`), the bus by its function ids (`browser::sessions::list`).
 */
import { capabilities } from '../capabilities/registry.js';

export type Door = 'mcp' | 'http' | 'lib' | 'cli' | 'bus';

/** The CLI command of a capability: its name without `browser_`, in kebab-case (`browser_open_page` → `open-page`). */
export function cliCommandName(capabilityName: string): string {
  return capabilityName.replace(/^browser_/, '').replace(/_/g, '-');
}

/** Doors whose names are not derived from the capability name register them here (the bus, from its function table). */
const registered = new Map<Door, Map<string, string>>();

/** Set a door's capability → name rows (the bus worker does, from its function table). */
export function setDoorNames(door: Door, rows: Iterable<[capability: string, name: string]>): void {
  registered.set(door, new Map(rows));
}

let cliTable: Map<string, string> | null = null;

/** capability name → how a caller of this door calls it; empty for doors that use the tool names. */
export function doorNames(door: Door): ReadonlyMap<string, string> {
  if (door === 'cli') {
    cliTable ??= new Map(capabilities.map((c) => [c.name, `brow ${cliCommandName(c.name)}`]));
    return cliTable;
  }
  return registered.get(door) ?? new Map();
}

/** How a caller of `door` calls the capability `name`. */
export function doorName(name: string, door: Door): string {
  return doorNames(door).get(name) ?? name;
}

/** A tool name in a text (global: use with replace or matchAll). */
export const TOOL_NAME = /\bbrowser_[a-z][a-z0-9_]*\b/g;

/**
 * Text (a message, a hint, an answer's content) with every capability name written as `door` calls
 * it. MCP, HTTP and the library keep the tool names; unknown `browser_*` words stay as they are.
 */
export function renderHint(text: string, door: Door): string {
  const names = doorNames(door);
  if (names.size === 0 || !text) return text;
  return text.replace(TOOL_NAME, (w) => names.get(w) ?? w);
}
