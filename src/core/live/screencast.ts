/**
 * One CDP screencast per page (`Page.startScreencast` on the page's own CDP session), shared by
 * everyone who watches it: console viewers and a recording. It runs only while someone watches.
 */
import type { Protocol } from 'puppeteer-core';
import type { BrowPage } from '../session/page.js';

export interface ScreencastFrame {
  /** Frames delivered by this page's screencast so far, this one included. */
  seq: number;
  /** The JPEG, base64. */
  data: string;
  /** The viewport the image shows, in CSS px: scale pointer positions by these. */
  width: number;
  height: number;
  /** When it arrived (ms since epoch). */
  at: number;
}

export interface FrameListener {
  frame(f: ScreencastFrame): void;
  /** The page went away. */
  end?(): void;
}

/** Chromium sends the next frame only after an ack: pacing the acks caps the rate (~30 fps). */
const MIN_FRAME_INTERVAL_MS = 1000 / 30;
const SCREENCAST = {
  format: 'jpeg',
  quality: 70,
  maxWidth: 1920,
  maxHeight: 1920,
  everyNthFrame: 1,
} as const;

export class Screencast {
  /** The latest frame while running. */
  last: ScreencastFrame | null = null;
  private seq = 0;
  private readonly subs = new Set<FrameListener>();
  private running = false;
  private listening = false;
  private sync: Promise<void> = Promise.resolve();
  private lastAckAt = 0;

  constructor(
    private readonly page: BrowPage,
    /** Told the number of watchers whenever it changes. */
    private readonly onWatchers: (n: number) => void,
  ) {}

  /** Is the screencast running (someone watches)? */
  get active(): boolean {
    return this.running;
  }

  /** Watch the page; the latest frame comes at once when there is one. Returns the unsubscribe function. */
  subscribe(listener: FrameListener): () => void {
    this.subs.add(listener);
    this.onWatchers(this.subs.size);
    const last = this.last;
    if (last) queueMicrotask(() => listener.frame(last));
    this.reconcile();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.subs.delete(listener);
      this.onWatchers(this.subs.size);
      this.reconcile();
    };
  }

  /** Start or stop to match the watchers, one change at a time. */
  private reconcile(): void {
    this.sync = this.sync.then(() => this.apply()).catch(() => undefined);
  }

  private async apply(): Promise<void> {
    const want = this.subs.size > 0 && !this.page.closed;
    if (want === this.running) return;
    const cdp = this.page.cdp;
    if (want) {
      this.listen();
      this.running = true;
      // a background tab does not paint, so it sends no frames: seen as focused, it is visible and does
      await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
      await cdp.send('Page.startScreencast', SCREENCAST).catch((e: unknown) => {
        this.running = false;
        throw e;
      });
    } else {
      this.running = false;
      this.last = null;
      await cdp.send('Page.stopScreencast').catch(() => undefined);
      await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false }).catch(() => undefined);
    }
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.page.cdp.on('Page.screencastFrame', (e) => this.onFrame(e));
    this.page.raw.once('close', () => {
      this.running = false;
      this.last = null;
      for (const s of this.subs) s.end?.();
    });
  }

  private onFrame(e: Protocol.Page.ScreencastFrameEvent): void {
    const cdp = this.page.cdp;
    const ack = () => {
      this.lastAckAt = Date.now();
      cdp.send('Page.screencastFrameAck', { sessionId: e.sessionId }).catch(() => undefined);
    };
    if (this.subs.size === 0) return ack();
    const frame: ScreencastFrame = {
      seq: ++this.seq,
      data: e.data,
      width: Math.round(e.metadata.deviceWidth ?? 0),
      height: Math.round(e.metadata.deviceHeight ?? 0),
      at: Date.now(),
    };
    this.last = frame;
    for (const s of this.subs) {
      try {
        s.frame(frame);
      } catch {
        // one watcher's failure is its own
      }
    }
    const wait = this.lastAckAt + MIN_FRAME_INTERVAL_MS - Date.now();
    if (wait > 0) setTimeout(ack, wait).unref();
    else ack();
  }
}
