/**
 * The bus door's one table: `browser::*` function id → capability + input mapping + output mapping.
 * No capability is implemented here; the door only translates seed 002 payloads and results.
 */
import type { z } from 'zod';
import type { BrowRuntime } from '../../runtime/runtime.js';
import type { ImageContent } from '../../capabilities/define.js';
import type { ErrorOutcome, Outcome } from '../../runtime/outcome.js';
import { actCapability, actInput, defined, seedConsole, seedNetwork, sid, type Data } from './act.js';
import type { BusError } from './errors.js';
import { requests as rq, responses as rs } from './schemas.js';

export interface MapContext {
  /** Invoke another capability (for functions that take two steps). */
  call(name: string, input: Data): Promise<Outcome>;
  /** The capability's text for a model. */
  content: string;
  images?: ImageContent[];
  /** The bus error for a failed outcome (capability names in its text become function ids). */
  error(o: ErrorOutcome): BusError;
  /** The configuration in force (read-only). */
  config: Readonly<BrowRuntime['config']>;
  /** Tell the triggers which URL a new session was asked to open (browser::session-started carries it). */
  startedWith?(sessionId: string, url: string): void;
}

export interface BusFunction<S extends z.ZodObject = z.ZodObject> {
  id: string;
  description: string;
  request: S;
  response: z.ZodType;
  /** The capability this function maps onto (by input, for `act`). */
  capability: string | ((p: z.output<S>) => string);
  /** Seed payload → capability input. `fields` are the capability's declared input fields. */
  input(p: z.output<S>, fields: Set<string>): Data;
  /** Capability data → seed result. */
  output(data: Data, p: z.output<S>, ctx: MapContext): unknown;
  /** Some failures are results in seed 002 (navigate reports net errors in `error`); undefined = throw. */
  recover?(err: ErrorOutcome['data'], p: z.output<S>): unknown;
}

/**
 * The outline's truncation line names the fields browser::snapshot takes (ref, max_chars), not
 * another door's.
 */
export const busTruncationLine = (tree: string, truncated: boolean): string => {
  const line = /… \[snapshot truncated: (\d+) more lines;[^\]\n]*\]/;
  if (line.test(tree))
    return tree.replace(
      line,
      '… [snapshot truncated: $1 more lines; call browser::snapshot with ref (a subtree) or a larger max_chars]',
    );
  // cut by the walk (max_snapshot_nodes), not the budget
  return truncated && tree
    ? `${tree}\n… [snapshot truncated: the page walk stopped at max_snapshot_nodes; call browser::snapshot with ref (a subtree)]`
    : tree;
};

const fn = <S extends z.ZodObject>(f: BusFunction<S>): BusFunction => f as unknown as BusFunction;

export const BUS_FUNCTIONS: BusFunction[] = [
  fn({
    id: 'browser::sessions::start',
    description:
      'Launch a Chromium session and open its page; returns the session_id every other function needs.',
    request: rq.start,
    response: rs.start,
    capability: 'browser_start_session',
    input: (p) =>
      defined({
        headless: p.headful === undefined ? undefined : !p.headful,
        read_only: p.read_only,
        incognito: p.incognito,
        ttl_ms: p.ttl_ms,
      }),
    async output(d, p, ctx) {
      ctx.startedWith?.(d.session_id, p.url ?? 'about:blank');
      const s = {
        session_id: d.session_id,
        headless: d.headless,
        read_only: d.read_only,
        incognito: d.incognito,
      };
      const opened = await ctx.call('browser_open_page', {
        session_id: d.session_id,
        url: p.url ?? 'about:blank',
        wait_until: 'load',
      });
      if (opened.ok)
        return { ...s, url: (opened.data.page as Data | undefined)?.url ?? p.url ?? 'about:blank' };
      const e = opened.data;
      if ((e.error_code === 'navigation_failed' || e.error_code === 'timeout') && e.page_id) {
        return { ...s, url: p.url ?? 'about:blank', error: e.message };
      }
      await ctx.call('browser_stop_session', { session_id: d.session_id });
      throw ctx.error(opened);
    },
  }),
  fn({
    id: 'browser::sessions::list',
    description: 'Live sessions with their current URL.',
    request: rq.none,
    response: rs.list,
    capability: 'browser_list_sessions',
    input: () => ({}),
    async output(d, _p, ctx) {
      const sessions = await Promise.all(
        (d.sessions as Data[]).map(async (s) => {
          // the title of the page the url is of (the session's active page)
          const pages = await ctx.call('browser_list_pages', { session_id: s.session_id });
          const list = pages.ok ? (pages.data.pages as Data[]) : [];
          const shown = list.find((x) => x.active) ?? list.find((x) => x.url === s.url);
          return defined({
            session_id: s.session_id,
            url: s.url,
            title: (shown?.title as string | undefined) || undefined,
            headless: s.headless,
            read_only: s.read_only,
            incognito: s.incognito,
            active: s.state === 'open',
            created_ms: s.created_at,
            last_used_ms: s.last_used_at,
            console_entries: s.console_entries,
          });
        }),
      );
      return { sessions };
    },
  }),
  fn({
    id: 'browser::sessions::stop',
    description:
      'Stop a session; idempotent (stopping a stopped or unknown session answers was_running: false).',
    request: rq.session,
    response: rs.stop,
    capability: 'browser_stop_session',
    input: sid,
    output: (d) => ({ ok: true, was_running: d.was_running }),
    recover: (e) => (e.error_code === 'session_not_found' ? { ok: true, was_running: false } : undefined),
  }),
  fn({
    id: 'browser::sessions::attach',
    description:
      'Bind a session to a running Chrome over CDP: a fresh tab, or an adopted tab by URL substring. Off unless allow_attach.',
    request: rq.attach,
    response: rs.attach,
    capability: 'browser_attach_session',
    input: (p) => defined({ ...p }),
    output: (d) => ({ session_id: d.session_id, url: d.url, read_only: d.read_only, adopted: d.adopted }),
  }),
  fn({
    id: 'browser::tabs::list',
    description:
      'Open tabs of a running browser at a CDP endpoint, with which are already adopted; read-only.',
    request: rq.tabs,
    response: rs.tabs,
    capability: 'browser_list_tabs',
    input: (p) => ({ cdp_url: p.cdp_url }),
    output: (d) => ({
      tabs: (d.tabs as Data[]).map((t) =>
        defined({ url: t.url, title: t.title || undefined, adopted: !!t.adopted }),
      ),
    }),
  }),
  fn({
    id: 'browser::doctor',
    description:
      'Read-only environment report: which Chromium would launch, capacity, attach and recording; never launches a browser.',
    request: rq.none,
    response: rs.doctor,
    capability: 'browser_doctor',
    input: () => ({}),
    output: (d, _p, ctx) =>
      defined({
        ...d,
        data_dir: d.data_dir ?? ctx.config.data_dir,
        chromium_path: d.chromium_path ?? undefined,
        chromium_version: d.chromium_version ?? undefined,
        browser_running: d.browser_running ?? d.active_sessions > 0,
        recording_available: !!d.recording_available,
      }),
  }),
  fn({
    id: 'browser::navigate',
    description:
      'Go to a URL and wait for the load. Network and HTTP errors come back in `error`, not thrown.',
    request: rq.navigate,
    response: rs.navigate,
    capability: 'browser_navigate',
    input: (p) => defined({ ...sid(p), url: p.url, wait_until: 'load', timeout_ms: p.timeout_ms }),
    output: (d) =>
      defined({ ok: true, url: d.page?.url, title: d.page?.title || undefined, timed_out: false }),
    recover(e, p) {
      if (e.error_code === 'navigation_failed') {
        return defined({
          ok: false,
          url: e.url ?? p.url,
          title: e.title || undefined,
          timed_out: false,
          error: e.message,
        });
      }
      if (e.error_code === 'timeout')
        return { ok: false, url: e.current_url ?? p.url, timed_out: true, error: e.message };
      return undefined;
    },
  }),
  fn({
    id: 'browser::snapshot',
    description:
      'The page as an accessibility outline with [ref=eN] handles; diff: true returns only what changed.',
    request: rq.snapshot,
    response: rs.snapshot,
    capability: 'browser_list_elements',
    input: (p) =>
      defined({
        ...sid(p),
        scope: p.diff ? 'changes' : p.ref ? 'subtree' : 'full',
        ref: p.diff ? undefined : p.ref,
        max_chars: p.max_chars,
        format: 'outline',
      }),
    output: (d) => {
      const o = d.outline as Data;
      return defined({
        url: o.url,
        title: o.title || undefined,
        tree: busTruncationLine(o.tree as string, !!o.truncated),
        truncated: o.truncated,
        generation: o.generation,
        diff: o.diff,
      });
    },
  }),
  fn({
    id: 'browser::act',
    description:
      'Click, hover, type, press, scroll, select or drag, addressed by ref or (click, hover) viewport x,y.',
    request: rq.act,
    response: rs.act,
    capability: actCapability,
    input: actInput,
    output: (d, _p, ctx) => ({ ok: d.action?.ok ?? true, detail: ctx.content, effect: d.action }),
  }),
  fn({
    id: 'browser::screenshot',
    description: 'A viewable JPEG of the viewport (or the full page), as image content.',
    request: rq.screenshot,
    response: rs.screenshot,
    capability: 'browser_screenshot',
    input: (p) => defined({ ...sid(p), full_page: p.full_page }),
    async output(d, p, ctx) {
      const img = ctx.images?.[0];
      const pages = await ctx.call('browser_list_pages', { session_id: p.session_id });
      const shown = pages.ok ? (pages.data.pages as Data[]).find((x) => x.page_id === d.page_id) : undefined;
      return {
        content: [
          ...(img ? [{ type: 'image', mime: img.mimeType, data: img.data }] : []),
          { type: 'text', text: ctx.content },
        ],
        details: {
          session_id: p.session_id,
          url: shown?.url ?? '',
          width: d.screenshot?.image_width ?? 0,
          height: d.screenshot?.image_height ?? 0,
        },
      };
    },
  }),
  fn({
    id: 'browser::evaluate',
    description: 'Run a JavaScript expression in the page and get its completion value.',
    request: rq.evaluate,
    response: rs.evaluate,
    capability: 'browser_evaluate',
    input: (p, fields) =>
      defined({
        ...sid(p),
        expression: p.expression,
        timeout_ms: fields.has('timeout_ms') ? p.timeout_ms : undefined,
      }),
    output: (d) => ({ ok: true, value: 'value' in d ? d.value : d.result }),
    // seed 002: evaluate{…} → {ok, value?, error?}: a script error and a timeout are results
    recover: (e) =>
      e.error_code === 'script_error' || e.error_code === 'timeout'
        ? { ok: false, error: e.message }
        : undefined,
  }),
  fn({
    id: 'browser::execute',
    description:
      'Run a multi-step async script in the page: await, return, log(), sleep(ms), waitFor(selector), persisted state.',
    request: rq.execute,
    response: rs.execute,
    capability: 'browser_execute',
    input: (p, fields) =>
      defined({ ...sid(p), code: p.code, timeout_ms: fields.has('timeout_ms') ? p.timeout_ms : undefined }),
    output: (d) =>
      defined({
        ok: d.ok ?? true,
        result: d.result,
        error: d.error,
        logs: d.logs ?? [],
        state: d.state ?? {},
      }),
    recover: (e) =>
      e.error_code === 'script_error'
        ? { ok: false, error: e.message, logs: e.logs ?? [], state: e.state ?? {} }
        : undefined,
  }),
  fn({
    id: 'browser::console::read',
    description:
      'Captured console entries and uncaught exceptions; filter with pattern/level, page with since_seq.',
    request: rq.console,
    response: rs.console,
    capability: 'browser_read_console',
    // the bus pages with since_seq: reads never clear (browser_read_console clears by default)
    input: (p) => defined({ ...p, clear: false }),
    output: (d) => ({
      entries: (d.entries as Data[]).map(seedConsole),
      last_seq: d.last_seq,
      dropped: d.dropped,
    }),
  }),
  fn({
    id: 'browser::network::read',
    description: 'Captured requests; failed_only: true is the fast path for what broke. Page with since_seq.',
    request: rq.network,
    response: rs.network,
    capability: 'browser_read_network',
    // failed_only keeps requests still in flight (pending: true): one may yet end in a 500
    input: (p) =>
      p.failed_only
        ? defined({ ...p, failed_only: undefined, limit: 500, clear: false })
        : defined({ ...p, clear: false }),
    output: (d, p) => {
      let entries = d.entries as Data[];
      if (p.failed_only) {
        entries = entries.filter((e) => e.failed || e.pending);
        entries = entries.slice(Math.max(0, entries.length - (p.limit ?? 100)));
      }
      // last_seq stops before the oldest request still in flight, so the next since_seq read
      // returns it again once it has finished (failed or not)
      const pending = entries.filter((e) => e.pending).map((e) => e.seq as number);
      const last = pending.length > 0 ? Math.min(d.last_seq, Math.min(...pending) - 1) : d.last_seq;
      return { entries: entries.map(seedNetwork), last_seq: last, dropped: d.dropped };
    },
  }),
  fn({
    id: 'browser::history',
    description: 'Back, forward or reload.',
    request: rq.history,
    response: rs.history,
    capability: 'browser_history',
    input: (p) => ({ ...sid(p), action: p.action }),
    output: (d) => ({ ok: true, url: d.url, moved: d.moved }),
  }),
  fn({
    id: 'browser::dom::read',
    description: 'DOM tag outline with refs, for structure the accessibility tree hides.',
    request: rq.dom,
    response: rs.dom,
    capability: 'browser_read_dom',
    input: (p) => defined({ ...p }),
    output: (d) => ({ root: d.root, truncated: !!d.truncated }),
  }),
  fn({
    id: 'browser::styles::read',
    description: "Computed styles of one element (a curated set, or properties: ['*'] for all).",
    request: rq.stylesRead,
    response: rs.stylesRead,
    capability: 'browser_read_styles',
    input: (p) => defined({ ...p }),
    output: (d, p) =>
      defined({ ref: d.ref ?? p.ref, properties: d.properties, inline_style: d.inline_style }),
  }),
  fn({
    id: 'browser::styles::write',
    description:
      'Set (or remove, with "") one inline CSS property on an element; a visual experiment that dies on navigation.',
    request: rq.stylesWrite,
    response: rs.stylesWrite,
    capability: 'browser_write_styles',
    input: (p) => defined({ ...p }),
    output: (d) => ({ ok: true, inline_style: d.inline_style ?? '' }),
  }),
  fn({
    id: 'browser::handoff',
    description:
      'Pause for a human-only step (CAPTCHA, 2FA, payment): an in-page Continue banner; blocks until the person continues, browser::handoff::confirm, or the timeout.',
    request: rq.handoff,
    response: rs.handoff,
    capability: 'browser_handoff',
    input: (p) => defined({ ...p }),
    output: (d) =>
      defined({
        confirmed: d.confirmed,
        handoff_id: d.handoff_id,
        via: d.via,
        url: d.url,
        title: d.title || undefined,
        navigated: d.navigated,
        changes: d.changes ?? undefined,
        cookies_added: d.cookies_added,
      }),
  }),
  fn({
    id: 'browser::pick',
    description:
      'Ask a person to point at an element (in the page, or in the web console); blocks until they do or the timeout; element.ref feeds browser::act. browser::picked fires too.',
    request: rq.pick,
    response: rs.pick,
    capability: 'browser_pick',
    input: (p) => defined({ ...p }),
    output: (d) => ({ pick_id: d.pick_id, element: d.element }),
  }),
  fn({
    id: 'browser::handoff::confirm',
    description:
      'Resolve a pending handoff from outside the page: by handoff_id, or the one pending for a session_id.',
    request: rq.handoffConfirm,
    response: rs.handoffConfirm,
    capability: 'browser_confirm_handoff',
    input: (p) => defined({ ...p }),
    output: (d) => ({ ok: true, handoff_id: d.handoff_id }),
    recover: (e) => (e.error_code === 'invalid_request' ? { ok: false } : undefined),
  }),
  fn({
    id: 'browser::recording::start',
    description:
      "Record the session's live viewport to a webm or mp4 file (ffmpeg, 15 fps) inside the workspace.",
    request: rq.recordingStart,
    response: rs.recordingStart,
    capability: 'browser_start_recording',
    input: (p) => defined({ ...p }),
    output: (d) => ({ ok: true, path: d.path, format: d.format }),
  }),
  fn({
    id: 'browser::recording::stop',
    description: "Stop the session's recording; returns the path, duration and frame count.",
    request: rq.session,
    response: rs.recordingStop,
    capability: 'browser_stop_recording',
    input: sid,
    output: (d) =>
      defined({ ok: true, path: d.path, duration_ms: d.duration_ms, frames: d.frames, dropped: d.dropped }),
  }),
];
