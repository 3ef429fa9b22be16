/** browser_wait: for a time, a URL, a load state, text, a ref's state, or a download. */
import { sleep as sleepUnlessAborted } from '../deadline.js';
import { BrowserError } from '../errors.js';
import { EVENT_TYPES, type BrowEvent, type BrowEventType } from '../observe/events.js';
import { evaluateIn, withApi } from '../snapshot/page-script.js';
import type { BrowPage } from './page.js';

export type WaitCondition = 'time' | 'url' | 'load_state' | 'text' | 'ref' | 'download' | 'event';

export interface WaitInput {
  condition: WaitCondition;
  value?: string;
  state?: string;
  duration_ms?: number;
  timeout_ms: number;
  /** The caller's: a cancelled wait stops polling at once. */
  signal?: AbortSignal | undefined;
}

export interface WaitResult {
  condition: WaitCondition;
  satisfied: true;
  waited_ms: number;
  url: string;
  detail?: Record<string, unknown>;
}

const sleep = (ms: number, signal?: AbortSignal) => sleepUnlessAborted(ms, signal);

/** Glob (`*`), /regex/ or substring match of a URL. */
export function urlMatches(url: string, pattern: string): boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    return new RegExp(pattern.slice(1, -1)).test(url);
  }
  if (pattern.includes('*')) {
    const re = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return re.test(url);
  }
  return url.includes(pattern);
}

function need(input: WaitInput, field: 'value' | 'duration_ms' | 'state'): void {
  if (input[field] === undefined || input[field] === '') {
    throw new BrowserError('invalid_request', `condition "${input.condition}" needs ${field}.`, {
      hint: 'time needs duration_ms; url, text and ref need value; load_state needs state.',
    });
  }
}

/** Poll `probe` until it returns a truthy detail or the timeout passes. */
async function poll<T>(
  page: BrowPage,
  input: WaitInput,
  probe: () => Promise<T | null>,
  seen: () => Promise<string>,
): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    if (input.signal?.aborted) throw cancelled(input);
    page.assertOpen();
    page.assertNoDialog();
    const hit = await page.raceDialog(probe().catch(() => null));
    if ('dialog' in hit) page.assertNoDialog();
    else if (hit.value) return hit.value;
    if (Date.now() - t0 >= input.timeout_ms) {
      throw new BrowserError(
        'timeout',
        `Waited ${input.timeout_ms} ms for ${input.condition}${input.value ? ` "${input.value}"` : ''}${input.state ? ` (${input.state})` : ''}; saw ${await seen().catch(() => 'nothing readable')}.`,
        { details: { condition: input.condition, value: input.value, state: input.state, url: page.url() } },
      );
    }
    await sleep(50, input.signal);
  }
}

function cancelled(input: WaitInput): BrowserError {
  return new BrowserError('timeout', `The wait for ${input.condition} was cancelled by its caller.`, {
    details: { condition: input.condition, reason: 'cancelled' },
  });
}

export async function waitFor(page: BrowPage, input: WaitInput): Promise<WaitResult> {
  const t0 = Date.now();
  const done = (detail?: Record<string, unknown>): WaitResult => ({
    condition: input.condition,
    satisfied: true,
    waited_ms: Date.now() - t0,
    url: page.url(),
    ...(detail ? { detail } : {}),
  });
  switch (input.condition) {
    case 'time': {
      need(input, 'duration_ms');
      await sleep(Math.min(input.duration_ms!, input.timeout_ms), input.signal);
      return done();
    }
    case 'url': {
      need(input, 'value');
      await poll(
        page,
        input,
        async () => urlMatches(page.url(), input.value!) || null,
        async () => `URL ${page.url()}`,
      );
      return done();
    }
    case 'load_state': {
      need(input, 'state');
      const state = input.state!;
      if (!['commit', 'domcontentloaded', 'load', 'networkidle'].includes(state)) {
        throw new BrowserError('invalid_request', `Unknown load state "${state}".`, {
          hint: 'Use commit, domcontentloaded, load or networkidle.',
        });
      }
      if (state === 'networkidle') {
        await page.raw
          .waitForNetworkIdle({ idleTime: 500, timeout: input.timeout_ms, concurrency: 0 })
          .catch(() => {
            throw new BrowserError('timeout', `The network did not go idle within ${input.timeout_ms} ms.`);
          });
        return done();
      }
      const ready = state === 'load' ? ['complete'] : ['interactive', 'complete'];
      await poll(
        page,
        input,
        async () =>
          state === 'commit' || ready.includes(await page.raw.evaluate(() => document.readyState)) || null,
        async () => `readyState ${await page.raw.evaluate(() => document.readyState)}`,
      );
      return done();
    }
    case 'text': {
      need(input, 'value');
      const state = input.state ?? 'visible';
      if (!['visible', 'hidden', 'attached', 'detached'].includes(state)) {
        throw new BrowserError('invalid_request', `Unknown text state "${state}".`, {
          hint: 'Use visible, hidden, attached or detached.',
        });
      }
      const probe = async () => {
        const found = await Promise.all(
          page.raw.frames().map((f) =>
            evaluateIn(f, textProbe(input.value!, state === 'visible' || state === 'hidden')).then(
              (v) => v === true,
              () => false,
            ),
          ),
        );
        const any = found.some(Boolean);
        return (state === 'visible' || state === 'attached' ? any : !any) || null;
      };
      await poll(
        page,
        input,
        probe,
        async () => `the text ${state === 'visible' || state === 'attached' ? 'absent' : 'still present'}`,
      );
      return done();
    }
    case 'ref': {
      need(input, 'value');
      const state = input.state ?? 'visible';
      const ref = page.refs.lookup(input.value!);
      let last = 'unknown';
      const probe = async () => {
        const frame = ref.frame.deref();
        const d = frame
          ? await withApi(
              frame,
              (api, key: string, id: number) => {
                if (api.docKey !== key) return { gone: true, visible: false, disabled: false };
                const el = api.element(id);
                if (!el) return { gone: true, visible: false, disabled: false };
                const r = el.getBoundingClientRect();
                const visible = r.width > 0 && r.height > 0 && el.checkVisibility();
                const d2 = api.describe(id);
                return { gone: false, visible, disabled: !!d2?.states.includes('disabled') };
              },
              ref.docKey,
              ref.localId,
            ).catch(() => ({ gone: true, visible: false, disabled: false }))
          : { gone: true, visible: false, disabled: false };
        last = d.gone
          ? 'detached'
          : `${d.visible ? 'visible' : 'hidden'}, ${d.disabled ? 'disabled' : 'enabled'}`;
        const ok: Record<string, boolean> = {
          attached: !d.gone,
          detached: d.gone,
          visible: !d.gone && d.visible,
          hidden: d.gone || !d.visible,
          enabled: !d.gone && !d.disabled,
          disabled: !d.gone && d.disabled,
        };
        if (!(state in ok)) {
          throw new BrowserError('invalid_request', `Unknown ref state "${state}".`, {
            hint: 'Use attached, detached, visible, hidden, enabled or disabled.',
          });
        }
        return ok[state] || null;
      };
      await poll(page, input, probe, async () => `${input.value} ${last}`);
      return done();
    }
    case 'download': {
      const s = page.session;
      const start = s.downloads.length;
      // a download that completed just before the wait began also counts, if it is the newest
      const recent = (i: number) => i >= start || Date.now() - s.downloads[i]!.timestamp < 10_000;
      const pick = async () => {
        for (let i = Math.max(0, start - 1); i < s.downloads.length; i++) {
          const d = s.downloads[i]!;
          if (!recent(i)) continue;
          // brow cancelled it for its size: it will never complete
          if (d.state === 'canceled' && d.error_code === 'resource_limit') return { over: d };
          if (d.state === 'completed' && (!input.value || d.suggested_filename.includes(input.value))) {
            return { done: d };
          }
        }
        return null;
      };
      const hit = await poll(page, input, pick, async () => `${s.downloads.length - start} new downloads`);
      if (hit.over) {
        throw new BrowserError(
          'resource_limit',
          `The download ${hit.over.suggested_filename} was cancelled: ${hit.over.error ?? 'too large'}`,
          {
            hint: 'Raise max_download_bytes in the config if this file is needed.',
            details: { download: hit.over },
          },
        );
      }
      return done({ download: hit.done });
    }
    case 'event': {
      need(input, 'value');
      const event = await nextEvent(page, input.value as BrowEventType, input.timeout_ms);
      return done({ event });
    }
  }
}

/** The next event of a type from this page's session (the event stream every door reads). */
function nextEvent(page: BrowPage, type: BrowEventType, timeoutMs: number): Promise<BrowEvent> {
  if (!EVENT_TYPES.includes(type)) {
    throw new BrowserError('invalid_request', `Unknown event type "${type}".`, {
      hint: `Use one of ${EVENT_TYPES.join(', ')}.`,
    });
  }
  const s = page.session;
  return new Promise<BrowEvent>((resolve, reject) => {
    const off = s.events.subscribe({ session_id: s.id, types: [type] }, (e) => {
      clearTimeout(timer);
      off();
      resolve(e);
    });
    const timer = setTimeout(() => {
      off();
      reject(
        new BrowserError(
          'timeout',
          `Waited ${timeoutMs} ms for a "${type}" event of session ${s.id}; none came.`,
        ),
      );
    }, timeoutMs);
  });
}

/** An expression: does the frame's document contain the text (rendered text when `visible`)? */
function textProbe(text: string, visible: boolean): string {
  const hay = visible ? 'document.body.innerText' : "(document.body.textContent || '')";
  return `!!document.body && ${hay}.toLowerCase().includes(${JSON.stringify(text.toLowerCase())})`;
}
