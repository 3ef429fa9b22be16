/**
 * Seed 000's `browser` tool as a library function: `open` / `close` / `run` on named tabs.
 * Tabs and browser handles live per BrowCore and go when it closes.
 */
import type { BrowCore } from '../core.js';
import { BrowserError } from '../errors.js';
import { workspaceRoot } from '../paths.js';
import { slot } from '../state-bag.js';
import { pageScriptSource } from '../snapshot/page-script.js';
import { BrowserRegistry, kindKey, resolveAppPath, type BrowserKind } from './browsers.js';
import type { ScreenshotRecord, WorkerSettings } from './protocol.js';
import { stringify } from './run-code.js';
import { clampTimeoutMs, type BrowserToolInput } from './schema.js';
import { TabSupervisor } from './supervisor.js';

export interface BrowserToolResult {
  /** The text a model reads. */
  text: string;
  /** display()ed images and screenshots, in order. */
  images: Array<{ data: string; mimeType: string }>;
  /** Seed 000's `details`. */
  details: Record<string, unknown>;
}

interface ToolState {
  browsers: BrowserRegistry;
  tabs: TabSupervisor;
}

/** The tool's tabs and browsers, in the core's StateBag: released when the core closes. */
const toolSlot = slot<ToolState | null>(
  'browser-tool',
  () => null,
  async (state) => {
    if (!state) return;
    await state.tabs.releaseAll(false, true);
    await state.browsers.closeAll(false);
  },
);

function settingsOf(core: BrowCore): WorkerSettings {
  return {
    workspaceRoot: workspaceRoot(core.config.workspace_root),
    screenshotDir: core.config.screenshot_dir,
    allowedSchemes: core.config.allowed_schemes,
    pageScript: pageScriptSource(),
  };
}

/** The tool's tabs and browsers of this core (created on first use, released when the core closes). */
export function toolState(core: BrowCore): ToolState {
  let s = core.state.get(toolSlot);
  if (!s) {
    const browsers = new BrowserRegistry(core.hosts, () => core.sharedBrowser());
    const tabs = new TabSupervisor(browsers, () => settingsOf(core));
    s = { browsers, tabs };
    core.state.set(toolSlot, s);
  }
  return s;
}

function resolveKind(core: BrowCore, input: BrowserToolInput): BrowserKind {
  const app = input.app;
  if (!app?.cdp_url && !app?.path) return { kind: 'headless' };
  if (!core.config.allow_attach) {
    throw new BrowserError(
      'attach_disabled',
      'Driving an app or a running browser (app.path, app.cdp_url) is disabled.',
      {
        hint: 'Set allow_attach: true in the brow configuration to let the browser tool spawn apps or connect over CDP.',
      },
    );
  }
  if (app.cdp_url) {
    const cdpUrl = app.cdp_url.trim().replace(/\/+$/, '');
    if (!/^(https?|wss?):\/\/[^/]/i.test(cdpUrl)) {
      throw new BrowserError(
        'invalid_request',
        `app.cdp_url "${app.cdp_url}" is not an http(s):// or ws(s):// URL.`,
        {
          hint: 'For example http://127.0.0.1:9222 (a browser started with --remote-debugging-port=9222).',
        },
      );
    }
    return { kind: 'connected', cdpUrl };
  }
  return {
    kind: 'spawned',
    path: resolveAppPath(app.path!, workspaceRoot(core.config.workspace_root)),
    args: app.args ?? [],
  };
}

async function open(core: BrowCore, input: BrowserToolInput, timeoutMs: number): Promise<BrowserToolResult> {
  const { browsers, tabs } = toolState(core);
  const name = input.name;
  const kind = resolveKind(core, input);
  const existing = tabs.get(name);
  if (existing && existing.handle.key !== kindKey(kind)) {
    throw new BrowserError(
      'invalid_request',
      `Tab "${name}" is bound to a different browser (${existing.handle.describe}). Close it first.`,
      {
        hint: `Call {"action": "close", "name": ${JSON.stringify(name)}} and open it again, or use another tab name.`,
      },
    );
  }
  const started = Date.now();
  const handle = await browsers.acquire(kind);
  const { tab, created } = await tabs.acquire(name, handle, {
    url: input.url,
    waitUntil: input.wait_until,
    dialogs: input.dialogs,
    target: input.app?.target,
    viewport: input.viewport && {
      width: input.viewport.width,
      height: input.viewport.height,
      ...(input.viewport.scale !== undefined ? { deviceScaleFactor: input.viewport.scale } : {}),
    },
    timeoutMs: Math.max(1000, timeoutMs - (Date.now() - started)),
  });
  const { url, title, viewport } = tab.info;
  const text = [
    `${created ? 'Opened' : 'Reused'} tab "${name}" on ${handle.describe}`,
    `URL: ${url}`,
    title ? `Title: ${title}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return {
    text,
    images: [],
    details: { action: 'open', name, browser: kind.kind, url, title, viewport, created, result: text },
  };
}

async function close(core: BrowCore, input: BrowserToolInput): Promise<BrowserToolResult> {
  const { tabs } = toolState(core);
  const kill = input.kill === true;
  let text: string;
  let closed: number;
  if (input.all) {
    closed = await tabs.releaseAll(kill);
    text = `Closed ${closed} tab${closed === 1 ? '' : 's'}`;
  } else {
    closed = (await tabs.release(input.name, kill)) ? 1 : 0;
    text = closed ? `Closed tab "${input.name}"` : `No tab named "${input.name}"`;
  }
  return {
    text,
    images: [],
    details: { action: 'close', name: input.name, all: input.all === true, closed, result: text },
  };
}

async function run(
  core: BrowCore,
  input: BrowserToolInput,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<BrowserToolResult> {
  const code = input.code;
  if (code === undefined || code.trim() === '') {
    throw new BrowserError('invalid_request', "Missing required parameter 'code' for action 'run'.", {
      hint: 'Pass code: the body of an async function, e.g. "return await tab.observe();".',
    });
  }
  const { tabs } = toolState(core);
  const name = input.name;
  const before = tabs.get(name);
  const details: Record<string, unknown> = { action: 'run', name };
  if (before) Object.assign(details, { browser: before.handle.kind.kind, url: before.info.url });
  const res = await tabs.run(name, code, timeoutMs, signal);
  const texts: string[] = [];
  const images: BrowserToolResult['images'] = [];
  for (const d of res.displays) {
    if (d.type === 'text') texts.push(d.text);
    else images.push({ data: d.data, mimeType: d.mimeType });
  }
  if (res.returnValue !== undefined) {
    texts.push(typeof res.returnValue === 'string' ? res.returnValue : stringify(res.returnValue));
    details.value = res.returnValue;
  }
  const text = texts.length > 0 || images.length > 0 ? texts.join('\n') : `Ran code on tab "${name}"`;
  details.url = res.info.url;
  details.title = res.info.title;
  if (res.screenshots.length > 0) details.screenshots = res.screenshots satisfies ScreenshotRecord[];
  details.result = text;
  return { text, images, details };
}

/** Run one `browser` tool call. Throws BrowserError for every expected failure. */
export async function browserTool(
  core: BrowCore,
  input: BrowserToolInput,
  signal?: AbortSignal,
): Promise<BrowserToolResult> {
  signal?.throwIfAborted();
  const timeoutMs = clampTimeoutMs(input.timeout);
  switch (input.action) {
    case 'open':
      return open(core, input, timeoutMs);
    case 'close':
      return close(core, input);
    case 'run':
      return run(core, input, timeoutMs, signal);
  }
}
