/** The live functions on the bus: browser::handoff(+::confirm), browser::pick, browser::recording::start/stop, and the picked / handoff-requested triggers. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSurface } from '../../src/capabilities/live-surface.js';
import { recorderOf } from '../../src/core/live/recorder.js';
import { busEnv, until, type BusEnv } from '../bus/setup.js';
import { eventually } from '../scale.js';

let env: BusEnv;
let workspace: string;
const got: { fn: string; payload: any }[] = [];

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-bus-live-'));
  env = await busEnv({ config: { workspace_root: workspace } });
  for (const fn of ['sub::picked', 'sub::handoff']) {
    env.agent.registerFunction(fn, async (payload: unknown) => {
      got.push({ fn, payload });
      return null;
    });
  }
});
afterAll(async () => {
  await env?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const bind = async (type: string, function_id: string, config: Record<string, unknown> = {}) => {
  env.agent.registerTrigger({ type, function_id, config });
  await env.engine.waitFor(
    () => env.engine.triggers().some((t) => t.function_id === function_id && t.status === 'ok'),
    `the binding of ${function_id}`,
  );
};

describe('live functions on the bus', () => {
  it('handoff blocks until browser::handoff::confirm, and the trigger tells a watcher', async () => {
    const { session_id } = await env.call('browser::sessions::start', {
      url: env.server.url('live/form.html'),
    });
    await bind('browser::handoff-requested', 'sub::handoff', { session_id });
    const pending = env.call('browser::handoff', {
      session_id,
      instructions: 'Solve it',
      timeout_ms: 20_000,
    });
    await until(() => got.some((g) => g.fn === 'sub::handoff'), 'the handoff-requested trigger');
    const event = got.find((g) => g.fn === 'sub::handoff')!.payload;
    expect(event).toMatchObject({ session_id, instructions: 'Solve it' });
    // the agent's actions answer handoff_pending meanwhile
    expect((await env.fail('browser::act', { session_id, action: 'press', key: 'Tab' })).code).toBe(
      'handoff_pending',
    );
    expect(await env.call('browser::handoff::confirm', { session_id })).toEqual({
      ok: true,
      handoff_id: event.handoff_id,
    });
    const out = await pending;
    expect(out).toMatchObject({ confirmed: true, handoff_id: event.handoff_id, via: 'confirm_call' });
    expect(out.url).toBe(env.server.url('live/form.html'));
    // nothing left to confirm: ok false, not an error
    expect(await env.call('browser::handoff::confirm', { session_id })).toEqual({ ok: false });
  });

  it('records a session to a file', async () => {
    const { session_id } = await env.call('browser::sessions::start', {
      url: env.server.url('live/anim.html'),
    });
    expect(await env.call('browser::recording::start', { session_id, path: 'bus.webm' })).toEqual({
      ok: true,
      path: join(workspace, 'bus.webm'),
      format: 'webm',
    });
    // until it has written more than a second of frames (15 a second)
    const page = [...env.runtime.core.session(session_id).pages.values()][0]!;
    const rec = recorderOf(page)!;
    expect(await eventually(() => rec.frames > 15, 15_000), 'frames written').toBe(true);
    const r = await env.call('browser::recording::stop', { session_id });
    expect(r).toMatchObject({ ok: true, path: join(workspace, 'bus.webm') });
    expect(r.frames).toBeGreaterThan(15);
    const seconds = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', r.path]),
    );
    expect(Math.abs(seconds * 1000 - r.duration_ms)).toBeLessThan(200);
  });

  it('forwards a pick as browser::picked with a ref browser::act takes', async () => {
    const { session_id } = await env.call('browser::sessions::start', {
      url: env.server.url('live/form.html'),
    });
    await bind('browser::picked', 'sub::picked', { session_id });
    const page = [...env.runtime.core.session(session_id).pages.values()][0]!;
    const rect = await page.raw.$eval('#go', (el) => el.getBoundingClientRect().toJSON());
    await liveSurface(env.runtime.core).pick(page.id, rect.x + rect.width / 2, rect.y + rect.height / 2);
    await until(() => got.some((g) => g.fn === 'sub::picked'), 'the picked trigger');
    const payload = got.find((g) => g.fn === 'sub::picked')!.payload;
    expect(payload).toMatchObject({
      session_id,
      element: { tag: 'button', url: env.server.url('live/form.html') },
    });
    const acted = await env.call('browser::act', { session_id, action: 'click', ref: payload.element.ref });
    expect(acted.ok).toBe(true);
  });
  it('browser::pick asks a person and blocks until they point; the answer is a ref browser::act takes', async () => {
    const { session_id } = await env.call('browser::sessions::start', {
      url: env.server.url('live/form.html'),
    });
    const page = [...env.runtime.core.session(session_id).pages.values()][0]!;
    const requested = new Promise<any>((resolve) => {
      const off = env.runtime.subscribe({ session_id, types: ['pick-requested'] }, (e) => {
        off();
        resolve(e);
      });
    });
    const pending = env.call('browser::pick', {
      session_id,
      instructions: 'Point at Go',
      timeout_ms: 20_000,
    });
    const event = await requested;
    const rect = await page.raw.$eval('#go', (el) => el.getBoundingClientRect().toJSON());
    // the person points through the web console
    await liveSurface(env.runtime.core).pick(page.id, rect.x + rect.width / 2, rect.y + rect.height / 2);
    const out = await pending;
    expect(out).toMatchObject({ pick_id: event.pick_id, element: { tag: 'button', name: 'Go' } });
    const acted = await env.call('browser::act', { session_id, action: 'click', ref: out.element.ref });
    expect(acted.ok).toBe(true);
    // nobody points: the call ends at its timeout, typed
    const late = await env.fail('browser::pick', { session_id, timeout_ms: 1000 });
    expect(late.code).toBe('timeout');
  });
});
