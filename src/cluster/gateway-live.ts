/**
 * The web console through a gateway: the overview merged from every worker, and a page's frames,
 * input, inspect and pick sent to the worker its page id names.
 */
import type { NatsConnection } from 'nats';
import { BrowserError } from '../core/errors.js';
import type { LiveOverview, LiveSurface } from '../runtime/runtime.js';
import { decode, encode, subjects, workerOf, type LiveMessage } from './subjects.js';
import type { WorkerTable } from './workers.js';

type Answer =
  { ok: true; data: unknown } | { ok: false; data: { error_code: string; message: string; hint: string } };

/** The console's view of the cluster. */
export function remoteLive(
  nc: NatsConnection,
  s: ReturnType<typeof subjects>,
  workers: WorkerTable,
  lastWorker: () => string | null,
): LiveSurface {
  const ask = async (msg: LiveMessage): Promise<unknown> => {
    const w = workerOf(msg.page_id);
    if (!w) throw new BrowserError('page_not_found', `No open page ${msg.page_id}.`);
    let a: Answer;
    try {
      a = decode<Answer>(
        (await nc.request(s.session(w, msg.page_id), encode(msg), { timeout: 15_000 })).data,
      );
    } catch {
      throw new BrowserError(
        'page_not_found',
        `Page ${msg.page_id} is gone: its worker ${w} does not answer.`,
      );
    }
    if (!a.ok)
      throw new BrowserError(a.data.error_code as 'page_not_found', a.data.message, { hint: a.data.hint });
    return a.data;
  };
  return {
    async overview() {
      const list = await workers.list();
      const parts = await Promise.all(
        list.map((w) =>
          nc
            .request(s.workerOp(w.id, 'overview'), encode({}), { timeout: 5000 })
            .then((m) => decode<LiveOverview>(m.data))
            .catch(() => null),
        ),
      );
      const got = parts.filter((p): p is LiveOverview => !!p);
      const last = lastWorker();
      return {
        sessions: got.flatMap((p) => p.sessions),
        handoffs: got.flatMap((p) => p.handoffs),
        picks: got.flatMap((p) => p.picks),
        last_page_id:
          got.find((p) => p.last_page_id && workerOf(p.last_page_id) === last)?.last_page_id ??
          got.find((p) => p.last_page_id)?.last_page_id ??
          null,
      };
    },
    watch(pageId, listener) {
      const to = `_INBOX.brow.watch.${Math.random().toString(36).slice(2)}`;
      let done = false;
      const sub = nc.subscribe(`${to}.>`, {
        callback: (err, m) => {
          if (err || done) return;
          if (m.subject.endsWith('.end')) {
            stop();
            listener.end?.();
          } else listener.frame(decode(m.data));
        },
      });
      const stop = () => {
        if (done) return;
        done = true;
        sub.unsubscribe();
        void ask({ op: 'live', fn: 'unwatch', page_id: pageId, to }).catch(() => undefined);
      };
      ask({ op: 'live', fn: 'watch', page_id: pageId, to }).catch(() => {
        if (done) return;
        done = true;
        sub.unsubscribe();
        listener.end?.();
      });
      return stop;
    },
    async input(pageId, event) {
      await ask({ op: 'live', fn: 'input', page_id: pageId, args: event });
    },
    async inspect(pageId, x, y) {
      return (await ask({ op: 'live', fn: 'inspect', page_id: pageId, args: { x, y } })) as Awaited<
        ReturnType<LiveSurface['inspect']>
      >;
    },
    async pick(pageId, x, y) {
      return (await ask({ op: 'live', fn: 'pick', page_id: pageId, args: { x, y } })) as Awaited<
        ReturnType<LiveSurface['pick']>
      >;
    },
  };
}
