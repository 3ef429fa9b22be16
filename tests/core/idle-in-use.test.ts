/**
 * A session in use never stops for idleness (issue 34, bug 1): every call that names a session
 * (`session_id`) or one of its pages keeps it alive, and no session ends while a call on it is in
 * flight. Generated from the registry: every capability with a `session_id` field is called with
 * only that session named, back to back, for longer than idle_stop_ms. An untouched session still
 * ends, so the checks can fail.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../src/capabilities/registry.js';
import type { BrowEvent } from '../../src/runtime/runtime.js';
import { harness, sampleInputs, type Harness } from '../helpers.js';
import { scaled } from '../scale.js';

/**
 * The idle limit: the schema's least (1000 ms) on an idle machine, scaled on a loaded one. There
 * every step between two calls (the loop's own code, a late timer) takes longer, and a gap that long
 * must not count as idleness; the loops below still run 2.5x past whatever limit it is, so a call
 * that stopped counting as activity still ends its session.
 */
const IDLE_MS = scaled(1000);
/** How long each capability is called back to back: well past the idle limit. */
const BUSY_MS = IDLE_MS * 2.5;

/**
 * The shortest time between the starts of two calls of one loop: a quarter of the idle limit, so a
 * session waits at most that long for its next call, and fourteen loops do not flood two cores.
 */
const PACE_MS = IDLE_MS / 4;
/** Slack for the steps between a call's end and the test reading the clock (a busy event loop). */
const SLACK_MS = scaled(50);

/** Waits until PACE_MS after `started` (an agent's pace between calls). */
function pace(started: number): Promise<void> {
  const left = started + PACE_MS - Date.now();
  return left > 0 ? new Promise((r) => setTimeout(r, left)) : Promise.resolve();
}

/** Capabilities left out, and why. */
const LEFT_OUT: Record<string, string> = {
  browser_stop_session: 'ends the session by design',
};

let h: Harness;
let workspace: string;
const stopped = new Map<string, { reason: string; at: number }>();

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-idle-ws-'));
  writeFileSync(join(workspace, 'upload.txt'), 'x');
  h = await harness({ idle_stop_ms: IDLE_MS, max_sessions: 100, workspace_root: workspace });
  h.rt.subscribe({ types: ['session-stopped'] }, (e: BrowEvent) =>
    stopped.set(e.session_id, { reason: String(e.reason), at: Date.now() }),
  );
});
afterAll(async () => {
  await h?.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** Resolves with the session's stop reason when it stops; rejects after `ms`. */
function stopOf(sessionId: string, ms: number): Promise<{ reason: string; at: number }> {
  return new Promise((resolve, reject) => {
    const seen = stopped.get(sessionId);
    if (seen) return resolve(seen);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`session ${sessionId} did not stop within ${ms} ms`));
    }, ms);
    const off = h.rt.subscribe({ session_id: sessionId, types: ['session-stopped'] }, (e) => {
      clearTimeout(timer);
      off();
      resolve({ reason: String(e.reason), at: Date.now() });
    });
  });
}

/** Inputs naming only the session, with paths inside the workspace and short waits. */
function inputsFor(name: string, sessionId: string, pageId: string): Record<string, unknown>[] {
  const cap = capabilities.find((c) => c.name === name)!;
  return sampleInputs(cap, { page_id: pageId, session_id: sessionId, ref: 'e1' }).map((i) => {
    const input: Record<string, unknown> = { ...i, session_id: sessionId };
    // the session alone names it, unless the capability requires a page
    const pageField = (cap.input.shape as Record<string, z.ZodType>).page_id;
    if (!pageField || pageField.safeParse(undefined).success) delete input.page_id;
    else input.page_id = pageId;
    if ('url' in input) input.url = h.server.url('core/form.html');
    // the loops need the page's document, not its load event (late on a loaded machine)
    if ('wait_until' in cap.input.shape) input.wait_until = 'domcontentloaded';
    if ('path' in input) input.path = join(workspace, `${name}.out`);
    if ('file_paths' in input) input.file_paths = [join(workspace, 'upload.txt')];
    if ('timeout_ms' in cap.input.shape) input.timeout_ms = 1000;
    if (name === 'browser_wait') input.duration_ms = 200;
    return input;
  });
}

describe('a session in use does not stop for idleness', () => {
  const names = capabilities
    .filter((c) => 'session_id' in c.input.shape && !(c.name in LEFT_OUT))
    .map((c) => c.name);

  it('the registry has capabilities with a session_id field', () => {
    expect(names.length).toBeGreaterThan(30);
  });

  it(
    'every capability with a session_id, called back to back past idle_stop_ms, keeps its session',
    async () => {
      const failures: string[] = [];
      const answers: Record<string, Set<string>> = {};
      const run = async (name: string) => {
        const s = await h.ok('browser_start_session', {});
        const sessionId = s.session_id as string;
        const pageId = (
          await h.ok('browser_open_page', {
            session_id: sessionId,
            url: h.server.url('core/form.html'),
            wait_until: 'domcontentloaded',
          })
        ).page_id as string;
        const inputs = inputsFor(name, sessionId, pageId);
        let calls = 0;
        const seen = (answers[name] = new Set());
        const until = Date.now() + BUSY_MS;
        while (Date.now() < until) {
          const started = Date.now();
          const o = await h.rt.invoke(name, inputs[calls++ % inputs.length]);
          const code = o.ok ? 'ok' : String(o.data.error_code);
          seen.add(code);
          if (code === 'session_closed') break;
          // an agent's pace: a call every PACE_MS at most (a tight loop of instant refusals would
          // starve the other loops), a pause well short of the idle limit
          await pace(started);
        }
        const live = h.rt.core.sessions.get(sessionId);
        if (!live || live.closed || seen.has('session_closed')) {
          failures.push(
            `${name}: session ${sessionId} ended (${stopped.get(sessionId)?.reason ?? live?.stopReason ?? '?'}); answers ${[...seen].join(', ')}`,
          );
        }
        await h.call('browser_stop_session', { session_id: sessionId });
      };
      // a few at a time: each runs past the idle limit, all of them one after the other would be slow
      const queue = [...names];
      await Promise.all(
        Array.from({ length: 14 }, async () => {
          for (let name = queue.shift(); name; name = queue.shift()) await run(name);
        }),
      );
      expect(failures).toEqual([]);
      // the inputs were valid ones (the calls reached their handlers)
      const invalid = names.filter((n) =>
        inputsFor(n, 's-x', 'p-x').some(
          (i) => !capabilities.find((c) => c.name === n)!.input.safeParse(i).success,
        ),
      );
      expect(invalid).toEqual([]);
    },
    scaled(180_000),
  );

  it(
    'a call in flight longer than idle_stop_ms keeps the session; it stops for idleness after',
    async () => {
      const s = await h.ok('browser_start_session', {});
      const sessionId = s.session_id as string;
      const pageId = (await h.ok('browser_open_page', { session_id: sessionId })).page_id as string;
      const slow = `new Promise((r) => setTimeout(() => r('done'), ${IDLE_MS * 3}))`;
      const slowTimeout = IDLE_MS * 3 + scaled(15_000);
      // named by its page
      const a = await h.call('browser_evaluate', {
        page_id: pageId,
        expression: slow,
        timeout_ms: slowTimeout,
      });
      expect(a.ok ? a.data.value : a.content).toBe('done');
      // named by nothing (the caller's last page)
      const b = await h.call('browser_evaluate', { expression: slow, timeout_ms: slowTimeout });
      const ended = Date.now();
      expect(b.ok ? b.data.value : b.content).toBe('done');
      expect(stopped.get(sessionId)).toBeUndefined();
      // and once nothing uses it, it ends for idleness, counted from the end of the last call
      const stop = await stopOf(sessionId, IDLE_MS * 4);
      expect(stop.reason).toBe('idle');
      expect(stop.at - ended).toBeGreaterThanOrEqual(IDLE_MS - SLACK_MS);
    },
    IDLE_MS * 10 + scaled(20_000),
  );

  it(
    'an untouched session still stops for idleness',
    async () => {
      const s = await h.ok('browser_start_session', {});
      const started = Date.now();
      const stop = await stopOf(s.session_id as string, IDLE_MS * 4);
      expect(stop.reason).toBe('idle');
      expect(stop.at - started).toBeGreaterThanOrEqual(IDLE_MS - SLACK_MS);
      expect((await h.err('browser_list_pages', { session_id: s.session_id })).code).toBe('session_closed');
    },
    IDLE_MS * 4 + scaled(20_000),
  );
});
