/**
 * The live state of one page: who watches it, the handoff banner, the ghost cursor, and the
 * overlay that shows them in the page. The overlay is pushed to the page whenever the state
 * changes and again after every main-frame navigation, so it survives a new document.
 */
import { slot } from '../state-bag.js';
import { boxInPage, locate } from '../actions/locate.js';
import type { BrowEvent } from '../observe/events.js';
import type { BrowPage } from '../session/page.js';
import { frameIdOf } from '../snapshot/snapshot.js';
import { BINDING, WORLD, overlayExpression, type OverlayState } from './overlay-script.js';
import { Screencast } from './screencast.js';
import { withDeadline } from '../deadline.js';

/** What the overlay tells brow: the banner's Continue, or the point a person clicked for a pick. */
export type OverlaySignal =
  { type: 'continue'; id: string } | { type: 'pick'; id: string; x: number; y: number };

/** How long trusted mouse events move the ghost cursor after an agent action starts. */
const FOLLOW_MS = 3000;
/** An overlay update that does not answer in this time is given up (a dialog froze the page). */
const APPLY_TIMEOUT_MS = 3000;

const visible = (s: OverlayState): boolean => !!(s.banner || s.badge || s.cursor || s.pick);

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  withDeadline(p, ms, () => new Error(`no answer in ${ms} ms`));

export class PageLive {
  /** The handoff banner shown in the page. */
  banner: OverlayState['banner'] = null;
  /** A pick an agent asked for (browser_pick): the prompt, and clicks in the page pick. */
  pickPrompt: OverlayState['pick'] = null;
  /** Set while a recording runs (the badge says so). */
  recording = false;
  readonly screencast: Screencast;
  private watchers = 0;
  private cursor: OverlayState['cursor'] = null;
  private follow = false;
  private followTimer: NodeJS.Timeout | null = null;
  private offActions: (() => void) | null = null;
  private wired: Promise<void> | null = null;
  private everShown = false;
  private dirty = false;
  private flushing: Promise<void> | null = null;
  private readonly signalHandlers = new Set<(s: OverlaySignal) => void>();
  private inputs: Promise<unknown> = Promise.resolve();

  constructor(readonly page: BrowPage) {
    this.screencast = new Screencast(page, (n) => this.setWatchers(n));
  }

  /** Someone watches (a console viewer or a recording): the badge and ghost cursor show. */
  get watched(): boolean {
    return this.watchers > 0;
  }

  /** The overlay as it should look now. */
  state(): OverlayState {
    const watched = this.watchers > 0;
    const badge = [
      this.recording ? '● REC' : '',
      this.banner || this.pickPrompt ? 'your turn' : 'agent',
    ].filter(Boolean);
    return {
      banner: this.banner,
      pick: this.pickPrompt,
      badge: watched ? `brow · ${badge.join(' · ')}` : null,
      cursor: watched ? this.cursor : null,
      follow: watched && this.follow,
    };
  }

  /** Listen for the banner's Continue; returns the unsubscribe function. */
  onSignal(fn: (s: OverlaySignal) => void): () => void {
    this.signalHandlers.add(fn);
    return () => void this.signalHandlers.delete(fn);
  }

  /** A person sent input through the console: the ghost cursor stops following the mouse. */
  humanActed(): void {
    if (!this.follow) return;
    this.follow = false;
    void this.render();
  }

  /** Run a person's input in order, outside the page lock (during a handoff the person owns the page). */
  inputQueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.inputs.then(fn);
    this.inputs = run.catch(() => undefined);
    return run;
  }

  /** Push the current state to the page; coalesced and serialised, never throws. */
  render(): Promise<void> {
    this.dirty = true;
    this.flushing ??= this.flush().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** Evaluate an expression in brow's isolated world of the main frame (returns by value). */
  async evaluate<T>(expression: string): Promise<T> {
    await this.wire();
    const cdp = this.page.cdp;
    const frameId = frameIdOf(this.page.raw.mainFrame());
    const world = await cdp.send('Page.createIsolatedWorld', { frameId, worldName: WORLD });
    const res = await cdp.send('Runtime.evaluate', {
      expression,
      contextId: world.executionContextId,
      returnByValue: true,
    });
    if (res.exceptionDetails) throw new Error(res.exceptionDetails.text);
    return res.result.value as T;
  }

  private async flush(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      if (this.page.closed) return;
      const state = this.state();
      // a page nobody watched and nobody was asked to help on never gets an overlay
      if (!visible(state) && !this.everShown) continue;
      this.everShown ||= visible(state);
      await withTimeout(this.evaluate(overlayExpression(state)), APPLY_TIMEOUT_MS).catch(() => undefined);
    }
  }

  /** Once per page: the binding (in brow's world only) and re-rendering after navigations. */
  private wire(): Promise<void> {
    this.wired ??= (async () => {
      const cdp = this.page.cdp;
      cdp.on('Page.frameNavigated', (e) => {
        if (!e.frame.parentId && this.everShown) void this.render();
      });
      cdp.on('Runtime.bindingCalled', (e) => {
        if (e.name !== BINDING) return;
        let signal: OverlaySignal;
        try {
          signal = JSON.parse(e.payload) as OverlaySignal;
        } catch {
          return;
        }
        for (const fn of this.signalHandlers) fn(signal);
      });
      // bindings reach contexts created later (new documents) only with Runtime enabled
      await cdp.send('Runtime.enable');
      await cdp.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD });
    })();
    return this.wired;
  }

  private setWatchers(n: number): void {
    const was = this.watchers > 0;
    this.watchers = n;
    if (was === n > 0) return;
    if (n > 0) {
      this.offActions = this.page.session.events.subscribe(
        { session_id: this.page.session.id, types: ['action'] },
        (e) => void this.onAction(e),
      );
    } else {
      this.offActions?.();
      this.offActions = null;
      this.cursor = null;
    }
    void this.render();
  }

  /** An agent action started: move the ghost cursor to its target and follow its mouse for a while. */
  private async onAction(e: BrowEvent): Promise<void> {
    // an action's end (it carries its outcome) moves nothing
    if (e.page_id !== this.page.id || this.watchers === 0 || e.outcome !== undefined) return;
    const action = String(e.action ?? 'act');
    const ref = typeof e.ref === 'string' ? e.ref : null;
    this.follow = true;
    if (this.followTimer) clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      this.follow = false;
      void this.render();
    }, FOLLOW_MS);
    this.followTimer.unref();
    const point = ref ? await this.refCenter(ref) : null;
    const vp = this.page.raw.viewport() ?? { width: 800, height: 600 };
    this.cursor = {
      x: point?.x ?? this.cursor?.x ?? vp.width / 2,
      y: point?.y ?? this.cursor?.y ?? vp.height / 2,
      label: ref ? `${action} ${ref}` : action,
    };
    await this.render();
  }

  private async refCenter(ref: string): Promise<{ x: number; y: number } | null> {
    try {
      const box = await boxInPage(await locate(this.page, ref));
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    } catch {
      return null;
    }
  }
}

/** A page's live state, owned by the page (see state-bag.ts). */
const liveSlot = slot<{ live: PageLive | null }>('live', () => ({ live: null }));

/** The live state of a page (created on first use). */
export function liveOf(page: BrowPage): PageLive {
  const held = page.state.get(liveSlot);
  return (held.live ??= new PageLive(page));
}

/** The live state of a page if it has any. */
export function liveIfAny(page: BrowPage): PageLive | undefined {
  return page.state.peek(liveSlot)?.live ?? undefined;
}
