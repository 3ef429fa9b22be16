/** Recording: screencast frames through ffmpeg, a duration that matches the wall clock, a queue that drops instead of stalling. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorderOf } from '../../src/core/live/recorder.js';
import { harness, type Harness } from '../helpers.js';
import { eventually, scaled } from '../scale.js';
import { corePage } from './helpers.js';

let h: Harness;
let workspace: string;
beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'brow-rec-'));
  h = await harness({ workspace_root: workspace });
});
afterAll(async () => {
  await h?.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** Until the page's recording has written `n` frames (15 a second): what a fixed sleep stood for. */
async function framesWritten(pageId: string, n: number): Promise<void> {
  const rec = recorderOf(corePage(h.rt, pageId))!;
  expect(await eventually(() => rec.frames >= n, (n / 15) * 1000 + 10_000), `${n} frames`).toBe(true);
}
function probe(path: string): { duration: number; codec: string; width: number; height: number } {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0'],
    ...['-show_entries', 'format=duration:stream=codec_name,width,height', '-of', 'json', path],
  ]).toString();
  const j = JSON.parse(out);
  return { duration: Number(j.format.duration), codec: j.streams[0].codec_name, ...j.streams[0] };
}

describe('recording', () => {
  it('records an animated page to webm with the wall-clock duration', async () => {
    const pageId = await h.open('live/anim.html');
    const started = await h.ok('browser_start_recording', { page_id: pageId, path: 'runs/anim.webm' });
    expect(started).toMatchObject({ ok: true, format: 'webm', path: join(workspace, 'runs/anim.webm') });
    await framesWritten(pageId, 30);
    const r = await h.ok('browser_stop_recording', { page_id: pageId });
    expect(r).toMatchObject({ ok: true, path: join(workspace, 'runs/anim.webm'), format: 'webm' });
    const p = probe(r.path);
    console.log(
      `webm: wall ${r.wall_ms} ms, video ${Math.round(p.duration * 1000)} ms, ${r.frames} frames, ${r.dropped} dropped`,
    );
    expect(p.codec).toBe('vp9');
    expect(p.width).toBe(1280);
    // the video plus the ticks dropped while ffmpeg was behind (a loaded machine) covers the wall clock
    const covered = ((r.frames + r.dropped) * 1000) / 15;
    expect(covered).toBeGreaterThan(r.wall_ms * 0.7);
    expect(p.duration * 1000).toBeLessThan(r.wall_ms * 1.3);
    expect(Math.abs(r.duration_ms - p.duration * 1000)).toBeLessThan(200);
  });

  it('holds frames of a page that does not repaint (mp4)', async () => {
    const pageId = await h.open('live/form.html');
    await h.ok('browser_start_recording', { page_id: pageId, path: 'still.mp4' });
    await framesWritten(pageId, 20);
    // stop by session: the session's one recording
    const r = await h.ok('browser_stop_recording', { session_id: corePage(h.rt, pageId).session.id });
    const p = probe(r.path);
    console.log(
      `mp4 (static page): wall ${r.wall_ms} ms, video ${Math.round(p.duration * 1000)} ms, ${r.frames} frames`,
    );
    expect(p.codec).toBe('h264');
    expect(((r.frames + r.dropped) * 1000) / 15).toBeGreaterThan(r.wall_ms * 0.7);
    expect(p.duration * 1000).toBeLessThan(r.wall_ms * 1.3);
  });

  it(
    'drops frames rather than stalling the page when ffmpeg falls behind',
    async () => {
      const pageId = await h.open('live/anim.html');
      await h.ok('browser_start_recording', { page_id: pageId, path: 'stalled.webm' });
      const rec = recorderOf(corePage(h.rt, pageId))!;
      const button = (await h.refs(pageId)).find((r) => r.accessible_name === 'Button').ref;
      const clicks = async (ms: number) => {
        const times: number[] = [];
        const end = Date.now() + ms;
        // at least two clicks, however slow a loaded machine makes them (a stalled page hangs one for 30 s)
        while (Date.now() < end || times.length < 2) {
          const t0 = Date.now();
          await h.ok('browser_click', { page_id: pageId, ref: button });
          times.push(Date.now() - t0);
        }
        return times;
      };
      const before = await clicks(1000);
      process.kill(rec.proc.pid!, 'SIGSTOP');
      try {
        const during = await clicks(2500);
        console.log(
          `clicks with ffmpeg running: ${before.length}, slowest ${Math.max(...before)} ms; stopped: ${during.length}, slowest ${Math.max(...during)} ms`,
        );
        // a recorder that stalled the page would hang these clicks; a loaded machine only slows them
        expect(during.length).toBeGreaterThanOrEqual(2);
        // a stalled page holds a click until its 30 s timeout; anything far below that is a loaded machine
        expect(Math.max(...during)).toBeLessThan(Math.min(scaled(10_000), 25_000));
        expect(rec.dropped).toBeGreaterThan(0);
      } finally {
        process.kill(rec.proc.pid!, 'SIGCONT');
      }
      const r = await h.ok('browser_stop_recording', { page_id: pageId });
      console.log(`stalled: ${r.frames} frames written, ${r.dropped} dropped over ${r.wall_ms} ms`);
      expect(r.dropped).toBeGreaterThan(10);
      expect(probe(r.path).duration).toBeGreaterThan(0);
    },
    // many clicks, each slower on a loaded machine (it timed out at 60 s under a load of 24)
    scaled(60_000),
  );

  it('finishes the file when the page closes, and a later stop returns it', async () => {
    const pageId = await h.open('live/anim.html');
    await h.ok('browser_start_recording', { page_id: pageId, path: 'closed.webm' });
    await framesWritten(pageId, 8);
    await h.ok('browser_close_page', { page_id: pageId });
    const r = await h.ok('browser_stop_recording', { page_id: pageId });
    expect(existsSync(r.path)).toBe(true);
    expect(probe(r.path).duration).toBeGreaterThan(0.3);
  });

  it('refuses paths outside the workspace, a second recording and a stop with nothing recording', async () => {
    const pageId = await h.open('live/form.html');
    expect((await h.err('browser_start_recording', { page_id: pageId, path: '../out.webm' })).code).toBe(
      'path_not_allowed',
    );
    expect((await h.err('browser_start_recording', { page_id: pageId, path: '/etc/out.webm' })).code).toBe(
      'path_not_allowed',
    );
    expect((await h.err('browser_stop_recording', { page_id: pageId })).code).toBe('invalid_request');
    await h.ok('browser_start_recording', { page_id: pageId, path: 'twice.webm' });
    expect((await h.err('browser_start_recording', { page_id: pageId, path: 'twice2.webm' })).code).toBe(
      'invalid_request',
    );
    await h.ok('browser_stop_recording', { page_id: pageId });
  });

  it('answers capability_unavailable without ffmpeg', async () => {
    const pageId = await h.open('live/form.html');
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect((await h.err('browser_start_recording', { page_id: pageId, path: 'x.webm' })).code).toBe(
        'capability_unavailable',
      );
    } finally {
      process.env.PATH = path;
    }
  });
});
