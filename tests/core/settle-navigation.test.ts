/**
 * A click that navigates: the answer comes when the navigation has ended (a new document parsed,
 * or an end that never commits: a 204, an attachment, a failure), not when the settle's bound runs
 * out. The bound here is far longer than any of these navigations needs, so a settle that waited it
 * out shows as settle_ms reaching it (and as a slow test), and the answer must still report where
 * the page went.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, refOf, type Harness } from '../helpers.js';

// the most the config allows: far beyond what any of these navigations needs on a loaded machine
const SETTLE_MAX_MS = 30_000;
let h: Harness;

beforeAll(async () => {
  h = await harness({ settle_max_ms: SETTLE_MAX_MS });
  h.server.route('/no-content', (_req, res) => void res.writeHead(204).end());
  // a document that commits well after the click's own work has returned
  h.server.route(
    '/late',
    (_req, res) =>
      void setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Late</title><h1>Arrived late</h1>');
      }, 400),
  );
  const links = [
    ['Next page', '/core/form.html'],
    ['Through a redirect', '/redirect?to=/core/form.html'],
    ['Nothing here', '/no-content'],
    ['Report', '/download?name=report.csv'],
    ['Late page', '/late'],
    ['Other origin', `${h.server.crossOrigin}/core/form.html`],
  ];
  const html = `<!doctype html><title>Links</title><main>${links
    .map(([name, href]) => `<p><a href="${href}">${name}</a></p>`)
    .join('')}</main>`;
  h.server.route('/links', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
});
afterAll(() => h.close());

async function clickLink(name: string) {
  const pageId = await h.open('/links');
  const refs = await h.refs(pageId);
  const click = await h.ok('browser_click', { page_id: pageId, ref: refOf(refs, 'link', name) });
  // the settle ended because the navigation did, not because its bound ran out
  expect(click.action.settle_ms).toBeLessThan(SETTLE_MAX_MS);
  return { pageId, action: click.action, content: click.__content as string };
}

describe('a click that navigates settles when the navigation ends', () => {
  it('a link to another page: the answer is on the new document', async () => {
    const { action } = await clickLink('Next page');
    expect(action.navigation.to).toBe(h.server.url('core/form.html'));
    expect(action.outcome).toBe('completed');
  });

  it('a link through a redirect lands on its target', async () => {
    const { action } = await clickLink('Through a redirect');
    expect(action.navigation.to).toBe(h.server.url('core/form.html'));
  });

  it('a document that arrives late is still waited for', async () => {
    const { action, pageId } = await clickLink('Late page');
    expect(action.navigation.to).toBe(h.server.url('late'));
    const snap = await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' });
    expect(snap.__content).toContain('Arrived late');
  });

  it('a link to another origin (a new renderer) lands there', async () => {
    const { action } = await clickLink('Other origin');
    expect(action.navigation.to).toBe(`${h.server.crossOrigin}/core/form.html`);
  });

  it('a 204 leaves the page where it was, and the answer says nothing navigated', async () => {
    const { action } = await clickLink('Nothing here');
    expect(action.navigation).toBeNull();
  });

  it('an attachment is a download, not a navigation', async () => {
    const { action } = await clickLink('Report');
    expect(action.navigation).toBeNull();
    expect(action.downloads.map((d: { suggested_filename: string }) => d.suggested_filename)).toEqual([
      'report.csv',
    ]);
  });
});
