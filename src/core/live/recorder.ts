/**
 * Recording: the page's screencast frames piped to ffmpeg at a fixed 15 fps. Chromium sends a
 * frame only when something repaints, so the latest frame is held (written again) on every tick:
 * the video lasts as long as the wall clock. A slow ffmpeg never slows the page: at most 8
 * frames wait for it, further ticks are dropped and counted.
 */
import { slot, type StateBag } from '../state-bag.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { which } from '../browser/doctor.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { liveOf } from './page-live.js';
import { settledWithin } from '../deadline.js';

export const RECORDING_FPS = 15;
export const RECORDING_QUEUE = 8;
const FIRST_FRAME_WAIT_MS = 1500;
const DRAIN_WAIT_MS = 10_000;
const EXIT_WAIT_MS = 20_000;

export type RecordingFormat = 'webm' | 'mp4';

export interface RecordingResult {
  page_id: string;
  session_id: string;
  path: string;
  format: RecordingFormat;
  /** The video's length: frames / 15 fps. */
  duration_ms: number;
  /** Frames written (held frames included). */
  frames: number;
  /** Ticks dropped because ffmpeg was behind. */
  dropped: number;
  /** Wall-clock time from start to stop. */
  wall_ms: number;
}

/** Width and height from a JPEG's SOF marker. */
export function jpegSize(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    const len = buf.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

const CODEC: Record<RecordingFormat, string[]> = {
  webm: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-b:v', '1500k'],
  mp4: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-movflags', '+faststart'],
};

export class Recorder {
  frames = 0;
  dropped = 0;
  readonly startedAt = Date.now();
  private readonly queue: Buffer[] = [];
  private ticks = 0;
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stderr = '';
  private stopping: Promise<RecordingResult> | null = null;
  /** ffmpeg's end: its exit code, or the signal that ended it (code null). */
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** brow killed ffmpeg itself (it had not finished the file EXIT_WAIT_MS after its input ended). */
  private killed = false;

  constructor(
    readonly page: BrowPage,
    readonly path: string,
    readonly format: RecordingFormat,
    private latest: Buffer,
    readonly proc: ChildProcess,
    private readonly unsubscribe: () => void,
  ) {
    this.exited = new Promise((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
    proc.stderr?.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    proc.stdin?.on('error', () => undefined);
    this.timer = setInterval(() => this.tick(), 1000 / RECORDING_FPS / 2);
    this.timer.unref();
    this.tick();
  }

  /** A new screencast frame: held until the next one. */
  offer(jpeg: Buffer): void {
    this.latest = jpeg;
  }

  /** Queue the latest frame for every frame slot the wall clock has passed. */
  private tick(): void {
    const due = Math.floor(((Date.now() - this.startedAt) * RECORDING_FPS) / 1000) + 1;
    while (this.ticks < due) {
      this.ticks += 1;
      if (this.queue.length >= RECORDING_QUEUE) this.dropped += 1;
      else {
        this.queue.push(this.latest);
        this.frames += 1;
      }
    }
    this.writing ??= this.pump().finally(() => (this.writing = null));
  }

  private async pump(): Promise<void> {
    const stdin = this.proc.stdin;
    while (this.queue.length > 0 && stdin?.writable) {
      const buf = this.queue.shift()!;
      await new Promise<void>((resolve) => stdin.write(buf, () => resolve()));
    }
  }

  /** Stop: write what is due, close ffmpeg's input and wait for the file. Idempotent. */
  stop(): Promise<RecordingResult> {
    this.stopping ??= this.finish();
    return this.stopping;
  }

  private async finish(): Promise<RecordingResult> {
    this.tick();
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    const wallMs = Date.now() - this.startedAt;
    const drainBy = Date.now() + DRAIN_WAIT_MS;
    while ((this.writing || this.queue.length > 0) && Date.now() < drainBy) {
      if (!this.writing) this.writing = this.pump().finally(() => (this.writing = null));
      await settledWithin(this.writing, 100);
    }
    this.proc.stdin?.end();
    const killer = setTimeout(() => {
      this.killed = true;
      this.proc.kill('SIGKILL');
    }, EXIT_WAIT_MS);
    const { code, signal } = await this.exited;
    clearTimeout(killer);
    if (code !== 0) {
      // code null is a signal: say which, and whether it was brow's own kill (a slow encode) or another's
      const how =
        code !== null
          ? `exit ${code}`
          : this.killed
            ? `killed by brow: the file was not finished ${EXIT_WAIT_MS / 1000} s after the last frame`
            : `ended by ${signal ?? 'a signal'}`;
      throw new BrowserError('action_failed', `ffmpeg failed (${how}): ${this.stderr.trim().slice(-300)}`, {
        hint: 'Check the path and format; `brow doctor` shows whether ffmpeg works here.',
      });
    }
    return {
      page_id: this.page.id,
      session_id: this.page.session.id,
      path: this.path,
      format: this.format,
      duration_ms: Math.round((this.frames * 1000) / RECORDING_FPS),
      frames: this.frames,
      dropped: this.dropped,
      wall_ms: wallMs,
    };
  }
}

/** A page's running recording, owned by the page (see state-bag.ts). */
const recorderSlot = slot<{ recorder: Recorder | null }>('recorder', () => ({ recorder: null }));
const recorders = {
  get: (page: BrowPage) => page.state.get(recorderSlot).recorder ?? undefined,
  has: (page: BrowPage) => page.state.get(recorderSlot).recorder !== null,
  set: (page: BrowPage, r: Recorder) => void (page.state.get(recorderSlot).recorder = r),
  delete: (page: BrowPage) => void (page.state.get(recorderSlot).recorder = null),
};
/**
 * Results of recordings that ended with their page, by page id, for a later stop call: the page
 * is gone, so its session keeps them (the newest 100; each is consumed once; freed with it).
 */
const endedSlot = slot('recorder.ended', () => new Map<string, Promise<RecordingResult>>());
const MAX_ENDED = 100;

/** The running recording of a page, if any. */
export function recorderOf(page: BrowPage): Recorder | undefined {
  return recorders.get(page);
}

/** Start recording a page to `path` (already checked to be inside the workspace). */
export async function startRecording(
  page: BrowPage,
  path: string,
  format: RecordingFormat,
): Promise<Recorder> {
  const ffmpeg = which('ffmpeg');
  if (!ffmpeg) {
    throw new BrowserError('capability_unavailable', 'Recording needs ffmpeg, which is not installed.', {
      hint: 'Install it (Debian: apt-get install -y ffmpeg); `brow doctor` reports it.',
    });
  }
  if (recorders.has(page)) {
    throw new BrowserError('invalid_request', `Page ${page.id} is already being recorded.`, {
      hint: 'Stop it with browser_stop_recording first.',
    });
  }
  page.assertOpen();
  mkdirSync(dirname(path), { recursive: true });
  const live = liveOf(page);
  let recorder: Recorder | null = null;
  let first: Buffer | null = null;
  let gotFirst: () => void = () => undefined;
  const firstFrame = new Promise<void>((r) => (gotFirst = r));
  const unsubscribe = live.screencast.subscribe({
    frame: (f) => {
      const jpeg = Buffer.from(f.data, 'base64');
      if (recorder) recorder.offer(jpeg);
      else {
        first = jpeg;
        gotFirst();
      }
    },
    end: () => {
      if (!recorder) return;
      recorders.delete(page);
      const done = recorder.stop();
      done.catch(() => undefined);
      const ended = page.session.state.get(endedSlot);
      ended.set(page.id, done);
      if (ended.size > MAX_ENDED) ended.delete(ended.keys().next().value as string);
    },
  });
  try {
    await settledWithin(firstFrame, FIRST_FRAME_WAIT_MS);
    // a page that never repaints sends nothing: start from a screenshot
    first ??= Buffer.from(
      (await page.cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 70 })).data,
      'base64',
    );
    const size = jpegSize(first) ?? { width: 1280, height: 800 };
    const w = size.width - (size.width % 2);
    const h = size.height - (size.height % 2);
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'image2pipe', '-framerate', String(RECORDING_FPS), '-c:v', 'mjpeg', '-i', '-'],
      ...['-vf', `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2`],
      ...CODEC[format],
      ...['-pix_fmt', 'yuv420p', '-f', format, path],
    ];
    const proc = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    recorder = new Recorder(page, path, format, first, proc, unsubscribe);
  } catch (e) {
    unsubscribe();
    throw e;
  }
  recorders.set(page, recorder);
  live.recording = true;
  void live.render();
  return recorder;
}

/** Stop the page's recording and wait for the file. */
export async function stopRecording(page: BrowPage): Promise<RecordingResult> {
  const recorder = recorders.get(page);
  if (!recorder) {
    const done = takeEnded(page.session.state, page.id);
    if (done) return done;
    throw new BrowserError('invalid_request', `Page ${page.id} is not being recorded.`, {
      hint: 'Start one with browser_start_recording.',
    });
  }
  recorders.delete(page);
  const live = liveOf(page);
  live.recording = false;
  void live.render();
  return recorder.stop();
}

function takeEnded(bag: StateBag, pageId: string): Promise<RecordingResult> | undefined {
  const ended = bag.peek(endedSlot);
  const done = ended?.get(pageId);
  if (done) ended!.delete(pageId);
  return done;
}

/** A recording that ended with its (now closed) page, by page id, in one of `sessions`; consumed once. */
export function endedRecording(
  sessions: Iterable<{ readonly state: StateBag }>,
  pageId: string,
): Promise<RecordingResult> | undefined {
  for (const s of sessions) {
    const done = takeEnded(s.state, pageId);
    if (done) return done;
  }
  return undefined;
}
