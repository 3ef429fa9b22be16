/**
 * The console links a worker's answers carry (src/cluster/console-link.ts): the gateway writes its
 * own console URL (token kept, page added), or, serving none, the wording of a brow without one.
 * Pure functions; the end-to-end case (a handoff through `brow mcp --nats`) is in people.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fillAnswer, fillLinks, GATEWAY_CONSOLE } from '../../src/cluster/console-link.js';

const link = `${GATEWAY_CONSOLE}?page=p-w1-4`;
const base = 'http://127.0.0.1:5173/?token=abc';

describe('console links through a gateway', () => {
  it("puts the gateway's console (its token kept) on the worker's page", () => {
    expect(
      fillLinks(`open the brow console at ${link} and click Continue there (or in the page)`, base),
    ).toBe(
      'open the brow console at http://127.0.0.1:5173/?token=abc&page=p-w1-4 and click Continue there (or in the page)',
    );
    expect(
      fillAnswer(
        { content: `Web console: ${GATEWAY_CONSOLE}`, data: { console_url: link, n: [1, link] } },
        base,
      ),
    ).toEqual({
      content: `Web console: ${base}`,
      data: { console_url: `${base}&page=p-w1-4`, n: [1, `${base}&page=p-w1-4`] },
    });
  });

  it('without a console at the gateway: the sentences of a brow without one, and null links', () => {
    expect(
      fillLinks(
        `Waiting — open the brow console at ${link} and click Continue there (or in the page).`,
        null,
      ),
    ).toBe('Waiting — click Continue in the page (brow serves no web console here).');
    expect(
      fillLinks(
        `open the brow console at ${link} and click Pick, then the element (or click it in the page)`,
        null,
      ),
    ).toBe('click it in the page (brow serves no web console here)');
    expect(
      fillLinks(
        `Handoff h-w1-2 confirmed.\nWeb console (the person's view of this page): ${link}\nVerify.`,
        null,
      ),
    ).toBe('Handoff h-w1-2 confirmed.\nVerify.');
    expect(
      fillAnswer({ data: { console_url: link }, content: `Web console: ${GATEWAY_CONSOLE}` }, null),
    ).toEqual({
      data: { console_url: null },
      content: 'Web console: not served by this gateway',
    });
    // text without a link is left alone
    expect(fillLinks('nothing here', null)).toBe('nothing here');
  });
});
