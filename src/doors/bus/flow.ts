/**
 * Flow control for trigger delivery, so a busy page or a slow engine never backs up the worker:
 * each binding gets at most `ratePerSecond` events (bursts up to `burst`), and nothing is sent
 * while the engine socket has more than `maxBufferedBytes` waiting. Events past either limit are
 * dropped and counted; the next payload delivered to that binding carries `dropped: n`. The
 * console and network reads stay the durable record (seed 002 says so for console-event).
 */

export interface FlowOptions {
  ratePerSecond: number;
  burst: number;
  maxBufferedBytes: number;
}

export const DEFAULT_FLOW: FlowOptions = {
  ratePerSecond: 500,
  burst: 1000,
  maxBufferedBytes: 4 * 1024 * 1024,
};

/** A token bucket per binding. */
export class Bucket {
  private tokens: number;
  private last = performance.now();
  /** Events dropped since the last one delivered. */
  dropped = 0;

  constructor(private readonly opts: FlowOptions) {
    this.tokens = opts.burst;
  }

  /** Take a token; false (and one more dropped) when the binding is over its rate. */
  admit(now = performance.now()): boolean {
    this.tokens = Math.min(
      this.opts.burst,
      this.tokens + ((now - this.last) / 1000) * this.opts.ratePerSecond,
    );
    this.last = now;
    if (this.tokens < 1) {
      this.dropped += 1;
      return false;
    }
    this.tokens -= 1;
    return true;
  }
}

/**
 * Bytes the SDK's socket has not sent yet. The SDK keeps its WebSocket private; this reads it
 * when present and says 0 otherwise (the rate limit still bounds what we send).
 */
export function bufferedBytes(client: unknown): number {
  const ws = (client as { ws?: { bufferedAmount?: unknown } }).ws;
  return typeof ws?.bufferedAmount === 'number' ? ws.bufferedAmount : 0;
}
