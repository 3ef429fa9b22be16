/** Seed 001's record fields: sessions (id, backend, capabilities, browser_identity), pages (readiness, redirect_chain, resource_warning), snapshots (root_nodes). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("seed 001's records", () => {
  it('a session says its backend, what it can do and which browser runs it', async () => {
    const rw = await h.ok('browser_start_session');
    expect(rw).toMatchObject({ id: rw.session_id, backend: 'local_chromium' });
    expect(rw.capabilities).toEqual(expect.arrayContaining(['snapshot', 'act', 'scripts']));
    expect(rw.browser_identity.product).toMatch(/^Chrom(e|ium)$/);
    expect(rw.browser_identity.version).toMatch(/^\d+\.\d+/);
    expect(rw.browser_identity.user_agent).toMatch(/Chrome\/\d+/);
    const ro = await h.ok('browser_start_session', { read_only: true });
    expect(ro.capabilities).toContain('snapshot');
    expect(ro.capabilities).not.toContain('act');
    const listed = (await h.ok('browser_list_sessions')).sessions.find((s: any) => s.id === rw.session_id);
    expect(listed).toMatchObject({ backend: 'local_chromium', browser_identity: rw.browser_identity });
    await h.ok('browser_stop_session', { session_id: rw.session_id });
    await h.ok('browser_stop_session', { session_id: ro.session_id });
  });

  it('a page says how far it loaded and the redirects that led to it', async () => {
    const target = '/core/stubborn.html';
    const opened = await h.ok('browser_open_page', { url: h.server.url(`redirect?to=${target}`) });
    expect(opened.page.url).toContain(target);
    const page = (await h.ok('browser_list_pages', { session_id: opened.session_id })).pages.find(
      (p: any) => p.page_id === opened.page_id,
    );
    expect(page.readiness).toBe('complete');
    expect(page.redirect_chain).toEqual([h.server.url(`redirect?to=${target}`)]);
    expect(page.resource_warning).toBeNull();
    // a navigation without a redirect clears the chain
    const nav = await h.ok('browser_navigate', {
      page_id: opened.page_id,
      url: h.server.url('core/form.html'),
    });
    expect(nav.page.redirect_chain).toEqual([]);
  });

  it('a snapshot carries the shown elements as a tree of refs', async () => {
    const pageId = await h.open('core/form.html');
    const snap = (await h.ok('browser_list_elements', { page_id: pageId, scope: 'full' })).snapshot;
    const flat: any[] = [];
    const visit = (nodes: any[], depth: number) => {
      for (const n of nodes) {
        flat.push({ ...n, depth });
        visit(n.children, depth + 1);
      }
    };
    visit(snap.root_nodes, 0);
    // every ref of the listing is in the tree once, in the same order
    expect(flat.filter((n) => n.ref).map((n) => n.ref)).toEqual(snap.refs.map((r: any) => r.ref));
    // a form control sits under something (the form or a group), not at the top
    expect(flat.some((n) => n.depth > 0)).toBe(true);
  });
});
