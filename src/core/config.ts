/** brow's configuration: one schema with seed 002's defaults, shared by every door. */
import { z } from 'zod';

/**
 * The vision model browser_visual_query and browser_find_visual ask: any OpenAI-compatible
 * chat-completions server that takes images (OpenAI, Ollama, vLLM, llama.cpp, LM Studio). The key
 * is never configured here, only the name of the environment variable that holds it.
 */
const visionSchema = z
  .object({
    base_url: z
      .string()
      .default('')
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v), 'must be an http(s) URL')
      .describe(
        'OpenAI-compatible API root, e.g. http://127.0.0.1:11434/v1 (Ollama); empty = no vision model',
      ),
    model: z
      .string()
      .default('')
      .describe('Model name the server knows, e.g. "qwen2.5vl:7b" or "gpt-4o-mini"'),
    api_key_env: z
      .string()
      .default('')
      .refine((v) => v === '' || /^[A-Za-z_][A-Za-z0-9_]*$/.test(v), 'must be an environment variable NAME')
      .describe('Name of the environment variable holding the API key (sent as Bearer); empty = no key'),
    timeout_ms: z
      .number()
      .int()
      .min(1000)
      .max(600_000)
      .default(120_000)
      .describe('Longest one vision-model call may take'),
  })
  .strict()
  .refine((v) => v.base_url === '' || v.model !== '', {
    message: 'required when vision.base_url is set',
    path: ['model'],
  })
  .prefault({})
  .describe(
    'Vision model for browser_visual_query / browser_find_visual (unset = they answer capability_unavailable)',
  );

/**
 * A test override for the default of a constant the test suite would otherwise wait on: the number in
 * `BROW_TEST_<KEY>` (e.g. BROW_TEST_EFFECT_WINDOW_MS=300, set by vitest.config.ts) replaces the
 * default, in this process and the brow processes it spawns. It is only a default: a value given in
 * the config, a `BROW_<KEY>` variable or a flag still wins, so a test that needs the product's value
 * sets it on its runtime. Unset (always, outside tests) = the product default.
 */
function testDefault(key: string, productDefault: number): number {
  const raw = process.env[`BROW_TEST_${key.toUpperCase()}`];
  const v = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(v) && v >= 0 ? v : productDefault;
}

export const configSchema = z
  .object({
    executable: z
      .string()
      .default('')
      .describe('Chromium executable; empty = auto-detect (BROW_CHROME, CHROME_PATH, /usr/bin/chromium, …)'),
    headless: z.boolean().default(true).describe('Launch sessions headless unless a session asks otherwise'),
    max_sessions: z.number().int().min(1).max(256).default(4).describe('Most sessions alive at once'),
    max_pages_per_session: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .describe('Most pages one session may hold'),
    stealth: z
      .boolean()
      .default(false)
      .describe('Headless sessions hide the usual automation tells (a session may ask otherwise)'),
    max_download_bytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 ** 4)
      .default(1024 ** 3)
      .describe('Largest download kept (bytes); a bigger one is cancelled and reported as resource_limit'),
    console_buffer: z
      .number()
      .int()
      .min(10)
      .max(100_000)
      .default(500)
      .describe('Console ring buffer size per session'),
    network_buffer: z
      .number()
      .int()
      .min(10)
      .max(100_000)
      .default(500)
      .describe('Network ring buffer size per session'),
    viewport: z
      .object({ width: z.number().int().min(100).max(7680), height: z.number().int().min(100).max(4320) })
      .default({ width: 1280, height: 800 })
      .describe('Default viewport of new pages'),
    default_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(30_000)
      .describe('Timeout when a call gives none'),
    max_timeout_ms: z
      .number()
      .int()
      .min(1000)
      .max(600_000)
      .default(120_000)
      .describe('Caller timeouts are clamped to this'),
    idle_stop_ms: z
      .number()
      .int()
      .min(1000)
      .default(300_000)
      .describe('Stop a session after this long without calls'),
    allowed_schemes: z
      .array(z.string())
      .default(['http', 'https'])
      .describe('URL schemes navigation may open'),
    allow_attach: z.boolean().default(false).describe('Allow attaching to a running browser over CDP'),
    dialog_policy: z
      .enum(['accept', 'dismiss', 'report'])
      .default('report')
      .describe('What to do with JavaScript dialogs'),
    workspace_root: z
      .string()
      .default('')
      .describe('Root for uploads and saved files; empty = current directory'),
    data_dir: z
      .string()
      .default('')
      .describe('Where sessions keep downloads and profiles; empty = OS temp dir'),
    user_data_dir: z
      .string()
      .default('')
      .describe(
        "A Chromium profile directory sessions start in, kept between runs (logins, cookies, storage); '' = a fresh context per session",
      ),
    process_per_session: z
      .boolean()
      .default(false)
      .describe('Launch a Chromium process per session instead of sharing one'),
    prelaunch: z
      .boolean()
      .default(true)
      .describe('brow mcp starts the shared Chromium while the client connects, not on the first call'),
    console: z
      .boolean()
      .default(true)
      .describe(
        'brow mcp and the CLI daemon serve the web console on a loopback port (--no-console turns it off)',
      ),
    console_port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(0)
      .describe('Port of the web console brow mcp and the CLI daemon serve on 127.0.0.1; 0 = a free one'),
    screenshot_dir: z
      .string()
      .default('')
      .describe('Where the browser tool saves screenshots; empty = OS temp dir'),
    walk_ahead: z
      .boolean()
      .default(true)
      .describe(
        'Walk a page in the background once its document has loaded, so the first listing after a navigation is answered from that walk (false: walk only when asked)',
      ),
    settle_quiet_ms: z
      .number()
      .int()
      .min(0)
      .max(5000)
      .default(60)
      .describe('DOM-quiet window that ends an action settle'),
    settle_max_ms: z
      .number()
      .int()
      .min(0)
      .max(30_000)
      .default(3000)
      .describe('Longest an action waits to settle'),
    effect_window_ms: z
      .number()
      .int()
      .min(0)
      .max(30_000)
      .default(testDefault('effect_window_ms', 1000))
      .describe(
        'After an action settles with no visible change, how long to keep watching for DOM changes or new requests (then followed until they finish, within the settle bounds) before answering no_change; 0 turns the window off (default 1000; tests lower it with BROW_TEST_EFFECT_WINDOW_MS)',
      ),
    call_grace_ms: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(testDefault('call_grace_ms', 15_000))
      .describe(
        "How long past its own bound (max_timeout_ms, or a handoff's or pick's longer limit) a call may run before brow fails it with timeout and aborts its work: the last guard against a call that never ends (default 15000)",
      ),
    script_watchdog_max_stretch: z
      .number()
      .min(1)
      .max(20)
      .default(testDefault('script_watchdog_max_stretch', 5))
      .describe(
        "The most the machine's load (load average per CPU) stretches script_watchdog_ms (and the second without progress that counts as none), so a long but finite task on a busy machine is not taken for a loop; 1 turns stretching off (default 5)",
      ),
    script_watchdog_ms: z
      .number()
      .int()
      .min(1000)
      .max(120_000)
      .default(6000)
      .describe(
        "How long a page's script may go without yielding during a call before brow stops it so the page answers again (stretched up to 5× while the machine's CPUs are oversubscribed: load average per CPU above 1); while the page still shows progress (console output, errors, new requests) brow waits on, up to 5× the limit (at least 15 s)",
      ),
    screenshot_quality: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "JPEG quality of screenshots: the model copy's first try (lower ones follow only to fit 150 KB) and a saved .jpg/.webp's default; unset = 80 and 85",
      ),
    max_snapshot_nodes: z
      .number()
      .int()
      .min(10)
      .max(1_000_000)
      .optional()
      .describe('Most DOM nodes an outline snapshot walks (then truncated); unset = 200000'),
    snapshot_max_chars: z
      .number()
      .int()
      .min(1000)
      .max(2_000_000)
      .default(24_000)
      .describe('Default snapshot budget'),
    vision: visionSchema,
    structured: z
      .enum(['compact', 'full', 'off'])
      .default('compact')
      .describe(
        'MCP structuredContent: compact (the data a program needs), full (all of it), off (text only, no outputSchema)',
      ),
    content_boundaries: z
      .array(z.enum(['mcp', 'http', 'lib']))
      .default(['mcp'])
      .describe(
        'Doors whose answers mark page text with a nonce (<<<page_content nonce=…>>> … <<<end_page_content nonce=…>>>, docs/content-boundaries.md); [] = none',
      ),
  })
  .strict();

export type BrowConfig = z.infer<typeof configSchema>;
export type BrowConfigInput = z.input<typeof configSchema>;

/** Fill defaults and validate; throws a ZodError naming the bad key. */
export function resolveConfig(input: BrowConfigInput = {}): BrowConfig {
  return configSchema.parse(input);
}
