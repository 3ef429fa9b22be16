/**
 * Deadlines read what arrived before they give up (core/deadline.ts, readWhatArrived): an answer
 * that reached brow's process in time counts even when the process was too starved to read it
 * before the deadline's timer ran. The answer here travels a real socket, as CDP's does.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWhatArrived, sharedDeadline, sleep, within, withDeadline } from '../../src/core/deadline.js';

let server: Server;
let port = 0;
const received: ((data: string) => void)[] = [];

beforeAll(async () => {
  server = createServer((socket) => socket.on('data', (d) => received.shift()?.(String(d))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/**
 * The next message the server reads, and a sender that writes it after `afterMs` and then holds
 * this process in its check phase for `holdMs` (as a long callback would): when the process runs
 * again its due timers come before the socket is read.
 */
async function answerDuringAStarve(afterMs: number, holdMs: number) {
  const client: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  const answer = new Promise<string>((resolve) => received.push(resolve));
  const held = new Promise<void>((resolve) =>
    setTimeout(
      () =>
        setImmediate(() => {
          client.write('answer');
          const until = Date.now() + holdMs;
          while (Date.now() < until) {
            // starved: the answer waits in the socket
          }
          resolve();
        }),
      afterMs,
    ),
  );
  return { answer, held, done: () => client.destroy() };
}

describe('a deadline whose timer runs after a starve', () => {
  it('within: the answer that arrived in time wins over the fallback', async () => {
    const s = await answerDuringAStarve(50, 400);
    try {
      expect(await within(s.answer, 200, 'fallback')).toBe('answer');
      await s.held;
    } finally {
      s.done();
    }
  });

  it('withDeadline: the answer that arrived in time wins over the rejection', async () => {
    const s = await answerDuringAStarve(50, 400);
    try {
      await expect(withDeadline(s.answer, 200, () => new Error('late'))).resolves.toBe('answer');
      await s.held;
    } finally {
      s.done();
    }
  });

  it('sharedDeadline: the step that answered in time is not stopped', async () => {
    const s = await answerDuringAStarve(50, 400);
    let stopped = 0;
    const d = sharedDeadline(200, () => new Error('late'), { onStop: () => stopped++ });
    try {
      expect(await d.race(s.answer)).toBe('answer');
      d.clear();
      await s.held;
      // the deadline's own turn has run by now: it must not stop what answered
      await readWhatArrived();
      await readWhatArrived();
      expect(stopped).toBe(0);
    } finally {
      d.clear();
      s.done();
    }
  });

  it('a work that never answers still gets the fallback and the rejection', async () => {
    const never = new Promise<string>(() => undefined);
    expect(await within(never, 30, 'fallback')).toBe('fallback');
    await expect(withDeadline(never, 30, () => new Error('late'))).rejects.toThrow('late');
    let stopped = 0;
    const d = sharedDeadline(30, () => new Error('late'), { onStop: () => stopped++ });
    await expect(d.race(never)).rejects.toThrow('late');
    expect(stopped).toBe(1);
  });
});

describe('sleep', () => {
  it('sleeps at least its time by the wall clock, also after a busy turn (what waited_ms reports)', async () => {
    // a busy turn leaves the loop's cached time behind: a plain timer then fires early by Date.now()
    // (16 of 100 here); a wait for time reported 17,999 ms for 18,000 under load
    const short: number[] = [];
    for (let i = 0; i < 100; i++) {
      const busy = Date.now();
      while (Date.now() - busy < 3) {
        // a turn of other work
      }
      const t0 = Date.now();
      await sleep(7);
      if (Date.now() - t0 < 7) short.push(Date.now() - t0);
    }
    expect(short).toEqual([]);
  });

  it('ends at once when its signal aborts', async () => {
    const stop = new AbortController();
    const t0 = Date.now();
    const slept = sleep(10_000, stop.signal);
    stop.abort();
    await slept;
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
