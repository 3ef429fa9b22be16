/**
 * The web console's view of the core (sessions, frames, a person's input, pick): not a capability,
 * so apart from live.ts, whose declarations the CLI client reads without loading the core.
 */
export { liveSurface, type LiveSurface } from '../core/live/surface.js';
export { consoleUrl, setConsoleUrl } from './console-link.js';
