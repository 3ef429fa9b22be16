import { AgentBrowser } from './agent-browser.mjs';
import { Brow } from './brow.mjs';
import { ChromeDevtoolsMcp } from './chrome-devtools-mcp.mjs';
import { PlaywrightMcp } from './playwright-mcp.mjs';

/** name → factory. brow first: it is what the others are compared with. */
export const SYSTEMS = {
  brow: (opts) => new Brow(opts),
  'playwright-mcp': () => new PlaywrightMcp(),
  'chrome-devtools-mcp': () => new ChromeDevtoolsMcp(),
  'agent-browser': () => new AgentBrowser(),
};
export const SYSTEM_NAMES = Object.keys(SYSTEMS);
export const LABELS = {
  brow: 'brow',
  'playwright-mcp': 'Playwright MCP',
  'chrome-devtools-mcp': 'Chrome DevTools MCP',
  'agent-browser': 'agent-browser',
};
