/**
 * Where the web console is, for the doors that serve it: a light module of its own, so `brow mcp`
 * records the address before it connects without loading the console's view of the core.
 */
export { consoleUrl, setConsoleUrl } from '../core/live/console-link.js';
