/**
 * The host side of one tab's worker thread: start it, run code in it with a hard deadline
 * (timeout + 750 ms grace, then worker.terminate() — the only way to stop a synchronous loop),
 * and close it (≤ 750 ms for a clean goodbye, then terminate).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { within } from '../deadline.js';
import { BrowserError } from '../errors.js';
import {
  deserializeError,
  type HostMessage,
  type InitPayload,
  type LogLevel,
  type RunPayload,
  type TabInfo,
  type WorkerMessage,
} from './protocol.js';

export const GRACE_MS = 750;
/**
 * The most a worker may take to load its modules before its tab's init starts: generous, since it
 * only guards a worker that never starts; a busy machine's slow load must not eat the call's timeout.
 */
export const BOOT_MS = 120_000;

let root: string | null = null;

/** The package root: the nearest folder above this module with a package.json (src/ and dist/ alike). */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  root = dir;
  return dir;
}

/**
 * The compiled worker entry (`npm run build` makes it): the bundled one when this code runs from the
 * runtime bundle (the build defines BROW_BUNDLED there; the installed package has no node_modules for
 * dist/'s modules to import), else dist/ as compiled.
 */
export function workerEntry(): string {
  const place =
    process.env.BROW_BUNDLED === '1' ? 'dist/bundle/tab-worker.js' : 'dist/core/tool/tab-worker.js';
  const file = join(packageRoot(), place);
  if (!existsSync(file)) {
    throw new BrowserError('capability_unavailable', `The tab worker is not built (${file}).`, {
      hint: 'Run `npm run build` in the brow package.',
    });
  }
  return file;
}

interface Pending {
  resolve(p: RunPayload): void;
  reject(e: Error): void;
}

export class TabWorker {
  alive = true;
  busy = false;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly exited: Promise<void>;
  /** True once the worker has loaded (its `booted` message), false if it died first. */
  private readonly booted: Promise<boolean>;
  private onBooted: (ok: boolean) => void = () => undefined;
  private nextId = 1;
  private onReady: ((m: WorkerMessage) => void) | null = null;
  private onClosed: (() => void) | null = null;
  private deathReason: BrowserError | null = null;

  constructor(private onLog: (level: LogLevel, msg: string) => void) {
    this.booted = new Promise((resolve) => (this.onBooted = resolve));
    this.worker = new Worker(workerEntry(), { stdout: false, stderr: false });
    this.worker.unref();
    this.worker.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.worker.on('error', (e) =>
      this.died(new BrowserError('browser_crashed', `The tab worker failed: ${e.message}`)),
    );
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    void this.exited.then(() => this.died(new BrowserError('page_closed', 'The tab worker exited.')));
  }

  /** Where the worker's log lines go (a spare worker gets its tab's sink when taken). */
  setLog(onLog: (level: LogLevel, msg: string) => void): void {
    this.onLog = onLog;
  }

  private post(m: HostMessage): void {
    this.worker.postMessage(m);
  }

  private onMessage(m: WorkerMessage): void {
    if (m.type === 'booted') return this.onBooted(true);
    if (m.type === 'log') return this.onLog(m.level, m.msg);
    if (m.type === 'ready' || m.type === 'init-failed') return this.onReady?.(m);
    if (m.type === 'closed') return this.onClosed?.();
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.payload);
    else p.reject(deserializeError(m.error));
  }

  private died(reason: BrowserError): void {
    if (!this.alive) return;
    this.alive = false;
    this.deathReason = reason;
    this.onBooted(false);
    for (const p of this.pending.values()) p.reject(reason);
    this.pending.clear();
    this.onReady?.({
      type: 'init-failed',
      error: { name: 'BrowserError', code: reason.code, message: reason.message },
    });
  }

  /**
   * Start the tab once the worker has loaded (at most BOOT_MS); fails (and kills the worker) after
   * timeoutMs + grace from then.
   */
  async init(payload: InitPayload): Promise<TabInfo> {
    this.worker.ref();
    try {
      if (!(await within(this.booted, BOOT_MS, false))) {
        const why = this.deathReason;
        await this.kill();
        throw (
          why ??
          new BrowserError('timeout', `The tab worker did not start within ${BOOT_MS / 1000} s.`, {
            hint: 'The machine may be overloaded; open the tab again.',
          })
        );
      }
      const msg = await new Promise<WorkerMessage>((resolve) => {
        const timer = setTimeout(() => {
          resolve({
            type: 'init-failed',
            error: {
              name: 'BrowserError',
              code: 'timeout',
              message: `Browser open timed out after ${payload.timeoutMs}ms`,
            },
          });
        }, payload.timeoutMs + GRACE_MS);
        this.onReady = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
        this.post({ type: 'init', payload });
      });
      this.onReady = null;
      if (msg.type === 'ready') return msg.info;
      await this.kill();
      throw deserializeError(
        msg.type === 'init-failed'
          ? msg.error
          : { name: 'Error', code: 'unexpected_error', message: 'bad reply' },
      );
    } finally {
      this.worker.unref();
    }
  }

  /**
   * Run code; the worker answers its own timeout. If it does not answer by timeoutMs + grace
   * (a synchronous loop), the worker is terminated and the tab is dead.
   */
  async run(code: string, timeoutMs: number, signal?: AbortSignal): Promise<RunPayload> {
    if (!this.alive) throw this.deathReason ?? new BrowserError('page_closed', 'The tab worker is gone.');
    const id = this.nextId++;
    this.busy = true;
    this.worker.ref();
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => this.post({ type: 'abort', id });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await new Promise<RunPayload>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(
            new BrowserError('timeout', 'Browser code execution hung past grace; tab killed', {
              hint: 'The code never yielded (a synchronous loop?). Reopen the tab with action "open".',
              details: { timeout_ms: timeoutMs, killed: true },
            }),
          );
          void this.kill();
        }, timeoutMs + GRACE_MS);
        this.post({ type: 'run', id, code, timeoutMs });
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.busy = false;
      this.worker.unref();
    }
  }

  /** Ask the worker to close its page and disconnect; terminate it after the grace period. */
  async close(): Promise<void> {
    if (this.alive) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, GRACE_MS);
        this.onClosed = () => {
          clearTimeout(timer);
          resolve();
        };
        this.post({ type: 'close' });
      });
    }
    await this.kill();
  }

  /** Terminate the worker thread now. */
  async kill(): Promise<void> {
    this.died(new BrowserError('page_closed', 'The tab was closed.'));
    await this.worker.terminate().catch(() => undefined);
    await this.exited;
  }
}
