/**
 * A person's mouse and keyboard, forwarded from the console's live viewport to the page as
 * trusted CDP input (Input.dispatchMouseEvent / dispatchKeyEvent / insertText). Coordinates are
 * viewport CSS px; the console scales them from the image it shows.
 */
import { z } from 'zod';
import { BrowserError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import { liveOf } from './page-live.js';
import { withDeadline } from '../deadline.js';

const coord = z.number().min(-10_000).max(100_000);
const modifiers = z.number().int().min(0).max(15).default(0).describe('Alt=1, Control=2, Meta=4, Shift=8');

export const liveInputSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('mouse'),
    event: z.enum(['move', 'down', 'up']),
    x: coord,
    y: coord,
    button: z.enum(['none', 'left', 'middle', 'right']).default('none'),
    buttons: z.number().int().min(0).max(31).default(0),
    click_count: z.number().int().min(0).max(3).default(0),
    modifiers,
  }),
  z.object({
    type: z.literal('wheel'),
    x: coord,
    y: coord,
    delta_x: z.number().default(0),
    delta_y: z.number().default(0),
    modifiers,
  }),
  z.object({
    type: z.literal('key'),
    event: z.enum(['down', 'up']),
    key: z.string().min(1).max(32),
    code: z.string().max(32).default(''),
    key_code: z.number().int().min(0).max(255).default(0),
    modifiers,
  }),
  z.object({ type: z.literal('text'), text: z.string().min(1).max(10_000) }),
]);

export type LiveInput = z.output<typeof liveInputSchema>;

const INPUT_TIMEOUT_MS = 5000;
const MOUSE_TYPE = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased' } as const;
/** Keys whose keydown also types a character. */
const KEY_TEXT: Record<string, string> = { Enter: '\r', Tab: '', Backspace: '' };

/** The CDP command for one input event. */
function command(ev: LiveInput): { method: string; params: Record<string, unknown> } {
  switch (ev.type) {
    case 'mouse':
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: MOUSE_TYPE[ev.event],
          x: ev.x,
          y: ev.y,
          button: ev.button,
          buttons: ev.buttons,
          clickCount: ev.click_count,
          modifiers: ev.modifiers,
        },
      };
    case 'wheel':
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: 'mouseWheel',
          x: ev.x,
          y: ev.y,
          deltaX: ev.delta_x,
          deltaY: ev.delta_y,
          modifiers: ev.modifiers,
        },
      };
    case 'key': {
      const base = {
        key: ev.key,
        code: ev.code,
        windowsVirtualKeyCode: ev.key_code,
        nativeVirtualKeyCode: ev.key_code,
        modifiers: ev.modifiers,
      };
      if (ev.event === 'up') return { method: 'Input.dispatchKeyEvent', params: { type: 'keyUp', ...base } };
      // a printable key types its character unless Control/Alt/Meta turn it into a shortcut
      const printable = [...ev.key].length === 1 && (ev.modifiers & 7) === 0;
      const text = printable ? ev.key : KEY_TEXT[ev.key];
      return {
        method: 'Input.dispatchKeyEvent',
        params: text
          ? { type: 'keyDown', ...base, text, unmodifiedText: text }
          : { type: 'rawKeyDown', ...base },
      };
    }
    case 'text':
      return { method: 'Input.insertText', params: { text: ev.text } };
  }
}

/**
 * Send one input event to the page. During a handoff the person owns the page and the input goes
 * straight in (in order); otherwise it waits its turn behind the agent's calls on the page lock.
 */
export async function dispatchInput(page: BrowPage, ev: LiveInput): Promise<void> {
  page.assertOpen();
  if (page.session.readOnly) {
    throw new BrowserError(
      'read_only',
      `Session ${page.session.id} is read-only; the console only watches it.`,
    );
  }
  page.assertNoDialog();
  // a person at work keeps the session alive like an agent's calls do
  page.session.touch();
  const live = liveOf(page);
  live.humanActed();
  const { method, params } = command(ev);
  const send = () =>
    withDeadline(
      page.cdp.send(method as 'Input.insertText', params as { text: string }),
      INPUT_TIMEOUT_MS,
      () => new BrowserError('timeout', `The page did not take the input in ${INPUT_TIMEOUT_MS} ms.`),
    );
  if (page.handoffId) return live.inputQueue(send);
  return page.exclusive(send);
}
