/**
 * The DOM-quiet wait that ends an action's settle, measured in the page. It ends when the DOM has
 * been quiet for `quietMs`, or sooner at an animation frame when nothing is left to come:
 * - no mutation since that frame's callbacks ran (ours runs after the page's);
 * - no timer the page set since the action began still due (see recordTimers), and none of them
 *   fired during this wait (what a debounce starts, a request, reaches brow a little later);
 * - no frame callback the page asked for still to run, or, when it keeps asking (an animation
 *   loop), a whole frame has passed without a mutation.
 * A framework that renders in a microtask, a message-channel task or the next frame has done so
 * by then; a chain of frames (one callback asking for the next, each changing the DOM) is
 * followed to its end, also when its frames come further apart than the quiet window (a starved
 * renderer), and a page that scheduled more work gets the whole window.
 */
import { mutationState } from './mutations.js';
import { later, nextFrame, now } from './natives.js';
import { frameDue, lastTimerRanAt, notingSince, timerDue } from './patches.js';

const TICK_MS = 8;
/** How much longer than the quiet window a frame that is owed is waited for. */
const FRAME_GRACE_MS = 500;

export function settleQuiet(quietMs: number, maxMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const start = now();
    let frames = 0;
    let frameAt = start;
    // before the first frame, "the previous frame" is the action's start: a chain the action began
    // whose step landed before this wait did (a slow round trip, a starved renderer) is still owed
    // its next frame, and a mutation older than the action is not
    let prevFrameAt = Math.min(start, notingSince());
    let done = false;
    const finish = (quiet: boolean): void => {
      done = true;
      resolve(quiet);
    };
    const onFrame = (): void => {
      frames++;
      prevFrameAt = frameAt;
      frameAt = now();
      if (!done) nextFrame(onFrame);
    };
    nextFrame(onFrame);
    const tick = (): void => {
      const t = now();
      const lastAt = mutationState().lastAt;
      // a noted timer that fired counts as activity: what it started (a request) gets the window
      const ranAt = lastTimerRanAt();
      const busyAt = ranAt > lastAt ? ranAt : lastAt;
      const quietFor = t - (busyAt > start ? busyAt : start);
      // the DOM changed in the latest frame (or after it) and the page asked for another: that next
      // frame may take a chain a step further. A starved renderer spaces frames wider than the quiet
      // window, which cut a stepper short; wait for the frame, FRAME_GRACE_MS at most
      const frameOwed = lastAt > prevFrameAt && frameDue();
      if (quietFor >= quietMs && (!frameOwed || quietFor >= quietMs + FRAME_GRACE_MS)) return finish(true);
      if (
        frames >= 1 &&
        lastAt < frameAt &&
        !(ranAt > start) &&
        !timerDue() &&
        (!frameDue() || (frames >= 2 && lastAt < prevFrameAt))
      )
        return finish(true);
      if (t - start > maxMs) return finish(false);
      later(tick, TICK_MS);
    };
    later(tick, TICK_MS);
  });
}
