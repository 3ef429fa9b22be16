/**
 * `import { createBrow } from 'brow'`: brow as a TypeScript library. See docs/library.md.
 * The code-mode HTTP client is `brow/sdk`; the command line is `brow` (bin/brow.js).
 */
export { createBrow, BrowError } from './doors/lib/brow.js';
export type {
  Brow,
  BrowOptions,
  CapabilityInfo,
  BrowEvent,
  EventFilter,
  Outcome,
  OkOutcome,
  ErrorOutcome,
} from './doors/lib/brow.js';
export type { BrowData, BrowInput, BrowMethods, ToolData, ToolInput, ToolName } from './doors/lib/methods.js';
export { loadConfig } from './doors/lib/config.js';
export type { BrowConfig, BrowConfigInput, LoadedConfig, ConfigSource } from './doors/lib/config.js';
