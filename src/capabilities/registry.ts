/** Every capability, declared once. Doors derive their tools, routes and commands from this list. */
import * as actions from './actions.js';
import * as attach from './attach.js';
import * as browserTool from './browser-tool.js';
import type { AnyCapability } from './define.js';
import * as dialogs from './dialogs.js';
import * as forms from './forms.js';
import * as emulation from './emulation.js';
import * as live from './live.js';
import * as navigation from './navigation.js';
import * as network from './network.js';
import * as observe from './observe.js';
import * as pages from './pages.js';
import * as pdf from './pdf.js';
import * as performance from './performance.js';
import * as pointer from './pointer.js';
import * as read from './read.js';
import * as replay from './replay.js';
import * as screenshots from './screenshots.js';
import * as scripts from './scripts.js';
import * as sessions from './sessions.js';
import * as snapshot from './snapshot.js';
import * as storage from './storage.js';
import * as styles from './styles.js';
import * as vision from './vision.js';

/** The capability modules, in the order doors list them; the library's typed methods map over them. */
export const MODULES = [
  sessions,
  attach,
  pages,
  navigation,
  snapshot,
  actions,
  forms,
  pointer,
  observe,
  performance,
  scripts,
  dialogs,
  replay,
  read,
  styles,
  screenshots,
  pdf,
  vision,
  storage,
  network,
  emulation,
  live,
  browserTool,
] as const;

const isCapability = (v: unknown): v is AnyCapability =>
  typeof v === 'object' && v !== null && 'name' in v && 'handle' in v && 'input' in v;

/**
 * All capabilities: by module in the order above, by name within a module (a module namespace
 * lists its exports by name, so declaration order is not observable; sorting keeps vitest and
 * Node in agreement).
 */
export const capabilities: AnyCapability[] = MODULES.flatMap((m) =>
  Object.values(m as Record<string, unknown>)
    .filter(isCapability)
    .sort((a, b) => a.name.localeCompare(b.name)),
);

const byName = new Map(capabilities.map((c) => [c.name, c]));
if (byName.size !== capabilities.length) throw new Error('Two capabilities share a name.');

export function getCapability(name: string): AnyCapability | undefined {
  return byName.get(name);
}
