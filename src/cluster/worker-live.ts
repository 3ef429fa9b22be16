/** The worker's side of the web console over NATS: a person's input, inspect, pick, and a page's frames. */
import type { Msg, NatsConnection } from 'nats';
import { errorOutcome } from '../runtime/invoke.js';
import type { BrowRuntime } from '../runtime/runtime.js';
import { encode, type LiveMessage } from './subjects.js';

/** Answer one console request for a page of this worker (`{ok, data}` or an error outcome). */
export async function replyLive(
  runtime: BrowRuntime,
  nc: NatsConnection,
  watches: Map<string, () => void>,
  m: Msg,
  msg: LiveMessage,
): Promise<void> {
  const live = runtime.live();
  const xy = (msg.args ?? {}) as { x?: number; y?: number };
  try {
    let data: unknown = null;
    if (msg.fn === 'input') await live.input(msg.page_id, msg.args);
    else if (msg.fn === 'inspect') data = await live.inspect(msg.page_id, Number(xy.x), Number(xy.y));
    else if (msg.fn === 'pick') data = await live.pick(msg.page_id, Number(xy.x), Number(xy.y));
    else if (msg.fn === 'watch' && msg.to) {
      const to = msg.to;
      // frames go to the gateway's subject until it unwatches (or the page ends)
      const off = live.watch(msg.page_id, {
        frame: (f) => nc.publish(`${to}.f`, encode(f)),
        end: () => {
          nc.publish(`${to}.end`, encode({}));
          watches.delete(to);
        },
      });
      watches.set(to, off);
    } else if (msg.fn === 'unwatch' && msg.to) {
      watches.get(msg.to)?.();
      watches.delete(msg.to);
    }
    m.respond(encode({ ok: true, data }));
  } catch (e) {
    m.respond(encode(errorOutcome(e)));
  }
}
