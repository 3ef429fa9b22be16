/**
 * Walk ahead: once a page's document has loaded, walk it in the background (under the page's lock,
 * like any call), so the first listing, find or action baseline that follows is answered from that
 * walk when nothing changed since (takeSnapshot reuses a walk whose stamps still match). An agent
 * thinks for a second or more between a navigation and its first look: the walk of a big page
 * (250–300 ms the first time, the page's script still cold) happens then instead of in its call.
 * A call that comes sooner queues behind the walk and reuses it: never a second walk, and not even
 * the round trip per frame that asks whether the page changed since (the walk has just answered).
 */
import { sleep, within } from '../deadline.js';
import type { BrowPage } from '../session/page.js';
import { takeSnapshot } from './snapshot.js';

/**
 * The longest the walk ahead holds the page's lock. It is not watched for a hung page (that would
 * stop the page's script on nobody's behalf): a page whose script spins after its load (or a walk
 * slower than this) lets the next call go after this long, and that call deals with the page.
 */
const WALK_AHEAD_MAX_MS = 3000;

/**
 * How long the walk ahead waits, once the call that held the page at its load is done (the
 * navigation, often), before it takes the page's lock. A client that asks the moment that call
 * answers (a script, not a model thinking) gets its call in first: its listing answers from a first
 * look at the page's start (list-elements' firstLook) instead of waiting out a whole walk of a big
 * page. A model's pause is a second or more, so the walk is still done before it asks.
 */
const WALK_AHEAD_GRACE_MS = 50;

/** Start walking the page ahead after each load of its main document (config `walk_ahead`). */
export function walkAhead(page: BrowPage): void {
  let queued = false;
  const walk = async () => {
    queued = false;
    if (page.closed || page.crashed || page.pendingDialog || page.handoffId) return;
    if (page.url() === 'about:blank') return;
    const walking = takeSnapshot(page);
    walking.catch(() => undefined);
    const snap = await within(walking, WALK_AHEAD_MAX_MS, null);
    // a call already waiting starts next: it takes this walk as it is (see takeSnapshot)
    if (snap && page.pendingCalls > 1) page.walkHandOff = { snap, call: page.callsStarted + 1 };
  };
  page.cdp.on('Page.loadEventFired', () => {
    if (queued || !page.session.config.walk_ahead) return;
    queued = true;
    // after the call that holds the page now (the navigation, often), then a moment more for a call
    // sent the moment it answers
    void page
      .exclusive(async () => undefined, { watch: 'off' })
      .then(() => sleep(WALK_AHEAD_GRACE_MS))
      .then(() => (page.closed ? undefined : page.exclusive(walk, { watch: 'off' })))
      .catch(() => {
        // a page that closed or navigated again meanwhile: the next call walks it as usual
        queued = false;
      });
  });
}
