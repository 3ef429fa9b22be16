/** How brow reads a vision model's answer and where it sends it (no browser, no server). */
import { describe, expect, it } from 'vitest';
import { answerText, endpointOf } from '../../src/core/vision/client.js';
import { findPrompt, parseLabelAnswer } from '../../src/core/vision/prompts.js';
import { VisionQueue } from '../../src/core/vision/queue.js';

describe('parseLabelAnswer', () => {
  it('reads the JSON it asked for, bare or fenced, and a plain label', () => {
    expect(parseLabelAnswer('{"label":"A2","evidence":"red square"}')).toEqual({
      label: 'A2',
      evidence: 'red square',
    });
    expect(parseLabelAnswer('Sure!\n```json\n{"label": "a7", "evidence": "the cart"}\n```')).toEqual({
      label: 'A7',
      evidence: 'the cart',
    });
    expect(parseLabelAnswer('It is A12.')).toEqual({ label: 'A12', evidence: 'It is A12.' });
    expect(parseLabelAnswer('{"label": null, "evidence": "not there"}')).toEqual({
      label: null,
      evidence: 'not there',
    });
    expect(parseLabelAnswer('I cannot tell.').label).toBeNull();
  });

  it('several labels in a free-text answer is action_failed, not a guess', () => {
    expect(() => parseLabelAnswer('Either A1 or A3.')).toThrow(
      expect.objectContaining({ code: 'action_failed' }),
    );
  });

  it('the find prompt lists the labels and the target', () => {
    const p = findPrompt('the gear icon', ['A1', 'A2']);
    expect(p).toContain('Labels on this screenshot: A1, A2.');
    expect(p).toContain('Target: the gear icon');
  });
});

describe('chat-completions plumbing', () => {
  it('endpointOf appends /chat/completions once', () => {
    expect(endpointOf('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(endpointOf('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(endpointOf('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });

  it('answerText takes a string or text parts', () => {
    expect(answerText({ choices: [{ message: { content: ' hi ' } }] })).toBe('hi');
    expect(
      answerText({ choices: [{ message: { content: [{ type: 'text', text: 'a' }, { text: 'b' }] } }] }),
    ).toBe('ab');
    expect(answerText({ choices: [] })).toBeNull();
    expect(answerText('nope')).toBeNull();
  });
});

describe('VisionQueue', () => {
  it('runs one call at a time, in order; a call cancelled while waiting leaves the line', async () => {
    const q = new VisionQueue();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(`start ${name}`);
      await new Promise((r) => setImmediate(r));
      order.push(`end ${name}`);
      running--;
      return name;
    };
    const ac = new AbortController();
    const a = q.run(job('a'));
    const b = q.run(job('b'), ac.signal);
    const c = q.run(job('c'));
    ac.abort(new Error('gone'));
    await expect(b).rejects.toThrow('gone');
    expect(await Promise.all([a, c])).toEqual(['a', 'c']);
    expect(order).toEqual(['start a', 'end a', 'start c', 'end c']);
    expect(most).toBe(1);
    expect(q.pending).toBe(0);
  });
});
