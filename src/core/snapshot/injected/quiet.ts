/**
 * The DOM-quiet wait that ends an action's settle, measured in the page. It ends when the DOM has
 * been quiet for `quietMs`, or sooner once two animation frames have passed with no mutation in
 * the last one and no timer the page set since the action began is still due (see recordTimers):
 * a framework that renders in a microtask, a message-channel task or the next frame has done so
 * by then, and a page that scheduled more work still gets the whole window.
 */
import { mutationState } from './mutations.js';
import { later, nextFrame, now } from './natives.js';
import { timerDue } from './patches.js';

const TICK_MS = 8;
const FRAMES = 2;

export function settleQuiet(quietMs: number, maxMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const start = now();
    let frames = 0;
    let frameAt = start;
    const onFrame = (): void => {
      frames++;
      frameAt = now();
      if (frames < FRAMES) nextFrame(onFrame);
    };
    nextFrame(onFrame);
    const tick = (): void => {
      const t = now();
      const lastAt = mutationState().lastAt;
      if (t - (lastAt > start ? lastAt : start) >= quietMs) return resolve(true);
      // quiet since the last frame began, and nothing scheduled: settled early
      if (frames >= FRAMES && lastAt < frameAt && !timerDue()) return resolve(true);
      if (t - start > maxMs) return resolve(false);
      later(tick, TICK_MS);
    };
    later(tick, TICK_MS);
  });
}
