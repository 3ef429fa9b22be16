/**
 * What the web console needs from the core, as one narrow interface: the sessions and pages with
 * their live state, a page's frames, a person's input, and picking. Not agent surface: these are
 * not capabilities, so no tool list shows them.
 */
import type { BrowCore } from '../core.js';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { pendingHandoffs, type PendingHandoff } from './handoff.js';
import { dispatchInput, liveInputSchema } from './input.js';
import { liveIfAny, liveOf } from './page-live.js';
import { elementAt, pendingPicks, pick, type PickedElement, type PickRequest } from './pick.js';
import { recorderOf } from './recorder.js';
import type { FrameListener } from './screencast.js';

export interface LivePage {
  page_id: string;
  url: string;
  title: string;
  state: 'open' | 'dialog' | 'handoff';
  active: boolean;
  watched: boolean;
  recording: boolean;
  handoff_id: string | null;
  viewport: { width: number; height: number } | null;
}

export interface LiveSession {
  session_id: string;
  headless: boolean;
  read_only: boolean;
  created_at: number;
  pages: LivePage[];
}

export interface LiveOverview {
  sessions: LiveSession[];
  handoffs: PendingHandoff[];
  /** browser_pick calls waiting for a person to point at an element. */
  picks: PickRequest[];
  /** The page the agent used last: the console opens on it. */
  last_page_id: string | null;
}

export interface LiveSurface {
  overview(): Promise<LiveOverview>;
  /** Watch a page's screencast; returns the unsubscribe function. */
  watch(pageId: string, listener: FrameListener): () => void;
  /** A person's mouse or keyboard event (validated here: the input is untrusted JSON). */
  input(pageId: string, event: unknown): Promise<void>;
  /** The element at a viewport point, without announcing it. */
  inspect(pageId: string, x: number, y: number): Promise<PickedElement>;
  /** The element at a viewport point, announced as a `picked` event (delivered: a browser_pick call got it). */
  pick(pageId: string, x: number, y: number): Promise<PickedElement & { delivered: boolean }>;
}

/** The page's title from the browser side: never waits on a page whose script is frozen. */
function titleOf(p: BrowPage): Promise<string> {
  return p.browserTitle(500);
}

async function pageOf(p: BrowPage): Promise<LivePage> {
  const url = p.url();
  const title = await titleOf(p);
  return {
    page_id: p.id,
    url,
    title: title === url ? '' : title,
    state: p.pendingDialog ? 'dialog' : p.handoffId ? 'handoff' : 'open',
    active: p.session.activePageId === p.id,
    watched: liveIfAny(p)?.watched ?? false,
    recording: !!recorderOf(p),
    handoff_id: p.handoffId,
    viewport: p.raw.viewport(),
  };
}

/** The console's view of a core. */
export function liveSurface(core: BrowCore): LiveSurface {
  // never resolvePage: a person watching must not change which page the agent's calls mean
  const find = (pageId: string): BrowPage => {
    const p = core.findPage(pageId);
    if (!p || p.closed) throw new BrowserError('page_not_found', `No open page ${pageId}.`);
    return p;
  };
  return {
    async overview() {
      const sessions = await Promise.all(
        [...core.sessions.values()]
          .filter((s) => !s.closed)
          .map(async (s) => ({
            session_id: s.id,
            headless: s.options.headless,
            read_only: s.readOnly,
            created_at: s.createdAt,
            pages: await Promise.all([...s.pages.values()].filter((p) => !p.closed).map(pageOf)),
          })),
      );
      const last = core.lastPageId ? core.findPage(core.lastPageId) : null;
      return {
        sessions,
        handoffs: pendingHandoffs(core),
        picks: pendingPicks(core),
        last_page_id: last && !last.closed ? last.id : null,
      };
    },
    watch(pageId, listener) {
      return liveOf(find(pageId)).screencast.subscribe(listener);
    },
    async input(pageId, event) {
      const parsed = liveInputSchema.safeParse(event);
      if (!parsed.success) {
        throw new BrowserError(
          'invalid_request',
          `Bad input event: ${parsed.error.issues[0]?.message ?? ''}`,
          {
            hint: 'Send {type: mouse|wheel|key|text, …} as the console does.',
          },
        );
      }
      await dispatchInput(find(pageId), parsed.data);
    },
    async inspect(pageId, x, y) {
      return elementAt(find(pageId), x, y);
    },
    async pick(pageId, x, y) {
      return pick(find(pageId), x, y);
    },
  };
}
