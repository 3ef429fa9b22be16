/**
 * Seed 001's action record: `target {role, name, text, is_sensitive}`, `post_action_state {value,
 * label}` and `snapshot_diff` beside brow's own fields; secrets (password, one-time code) report
 * is_sensitive and their value is never echoed, in text or data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

describe("seed 001's action data", () => {
  it('target, post_action_state and snapshot_diff as the seed names them; secrets never echoed', async () => {
    const pageId = await h.open('core/sign-in.html');
    const refs = await h.refs(pageId);

    const email = await h.ok('browser_fill', {
      page_id: pageId,
      ref: refOf(refs, 'textbox', 'Email'),
      value: 'ada@example.com',
    });
    expect(email.action.target).toMatchObject({
      role: 'textbox',
      name: 'Email',
      text: '',
      is_sensitive: false,
    });
    expect(email.action.post_action_state).toEqual({ value: 'ada@example.com', label: 'Email' });

    for (const [name, secret] of [
      ['Password', 'hunter2-secret'],
      ['Code', '842917'],
    ] as const) {
      const o = await h.ok('browser_fill', {
        page_id: pageId,
        ref: refOf(refs, 'textbox', name),
        value: secret,
      });
      expect(o.action.target.is_sensitive).toBe(true);
      expect(o.action.post_action_state.label).toBe(name);
      expect(o.action.post_action_state.value).not.toContain(secret);
      expect(JSON.stringify(o)).not.toContain(secret);
      expect(o.__content).not.toContain(secret);
    }

    const click = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'button', 'Sign in now') });
    expect(click.action.target).toMatchObject({ role: 'button', name: 'Sign in now', text: 'Sign in now' });
    expect(click.action.snapshot_diff).toEqual(click.action.changes);
    expect(JSON.stringify(click.action.snapshot_diff)).toContain('Welcome ada@example.com');
  });
});
