/**
 * The door contract: each case is a tool, an input and the expected outcome (ok, or the error
 * code). Every door runs the same table and must answer the same way. Inputs that need live ids
 * (a page, a stale ref, a read-only page) come from `prepareContract`, run through the door itself.
 */
import { createServer } from 'node:net';
import type { FixtureServer } from '../fixtures/server.js';
import { must, refFor, type DoorCall } from './helpers.js';

export interface ContractEnv {
  page_id: string;
  /** The search field of the current document. */
  field_ref: string;
  /** The search field's ref from before a navigation: stale. */
  stale_ref: string;
  /** A page of a read-only session. */
  read_only_page_id: string;
  read_only_field_ref: string;
  /** A URL on a port nothing listens on. */
  dead_url: string;
  search_url: string;
}

export interface ContractCase {
  name: string;
  tool: string;
  input: (env: ContractEnv) => Record<string, unknown>;
  expect: { ok: true } | { ok: false; error_code: string };
}

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const searchRefs = async (call: DoorCall, page_id: string) =>
  (await must(call, 'browser_list_elements', { page_id })).data.snapshot.refs as any[];

/** Open the pages the cases need, through the door under test. */
export async function prepareContract(call: DoorCall, fixtures: FixtureServer): Promise<ContractEnv> {
  const search_url = fixtures.url('doors/search.html');
  const page_id = (await must(call, 'browser_open_page', { url: search_url })).data.page_id as string;
  const stale_ref = refFor(await searchRefs(call, page_id), 'textbox', 'Search');
  await must(call, 'browser_navigate', { page_id, url: `${search_url}?q=chair` });
  const field_ref = refFor(await searchRefs(call, page_id), 'textbox', 'Search');

  const session = (await must(call, 'browser_start_session', { read_only: true })).data.session_id as string;
  const read_only_page_id = (await must(call, 'browser_open_page', { url: search_url, session_id: session }))
    .data.page_id as string;
  const read_only_field_ref = refFor(await searchRefs(call, read_only_page_id), 'textbox', 'Search');
  return {
    page_id,
    field_ref,
    stale_ref,
    read_only_page_id,
    read_only_field_ref,
    dead_url: `http://127.0.0.1:${await closedPort()}/`,
    search_url,
  };
}

const fail = (error_code: string) => ({ ok: false, error_code }) as const;
const OK = { ok: true } as const;

export const CONTRACT_CASES: ContractCase[] = [
  { name: 'list pages', tool: 'browser_list_pages', input: () => ({}), expect: OK },
  {
    name: 'list elements',
    tool: 'browser_list_elements',
    input: (e) => ({ page_id: e.page_id }),
    expect: OK,
  },
  {
    name: 'fill by ref',
    tool: 'browser_fill',
    input: (e) => ({ page_id: e.page_id, ref: e.field_ref, value: 'lamp' }),
    expect: OK,
  },
  { name: 'doctor', tool: 'browser_doctor', input: () => ({}), expect: OK },
  {
    name: 'invalid input (wrong type)',
    tool: 'browser_navigate',
    input: (e) => ({ page_id: e.page_id, url: 42 }),
    expect: fail('invalid_request'),
  },
  {
    name: 'invalid input (missing field)',
    tool: 'browser_fill',
    input: (e) => ({ page_id: e.page_id, ref: e.field_ref }),
    expect: fail('invalid_request'),
  },
  { name: 'unknown tool', tool: 'browser_teleport', input: () => ({}), expect: fail('invalid_request') },
  {
    name: 'unknown extra param',
    tool: 'browser_list_pages',
    input: () => ({ colour: 'red' }),
    expect: fail('invalid_request'),
  },
  {
    name: 'url_blocked (javascript:)',
    tool: 'browser_navigate',
    input: (e) => ({ page_id: e.page_id, url: 'javascript:alert(1)' }),
    expect: fail('url_blocked'),
  },
  {
    name: 'url_blocked (file:)',
    tool: 'browser_open_page',
    input: () => ({ url: 'file:///etc/passwd' }),
    expect: fail('url_blocked'),
  },
  {
    name: 'ref_not_found',
    tool: 'browser_click',
    input: (e) => ({ page_id: e.page_id, ref: 'e99999' }),
    expect: fail('ref_not_found'),
  },
  {
    name: 'stale_ref after navigation',
    tool: 'browser_click',
    input: (e) => ({ page_id: e.page_id, ref: e.stale_ref }),
    expect: fail('stale_ref'),
  },
  {
    name: 'page_not_found',
    tool: 'browser_list_elements',
    input: () => ({ page_id: 'p-nosuch-1' }),
    expect: fail('page_not_found'),
  },
  {
    name: 'session_not_found',
    tool: 'browser_list_pages',
    input: () => ({ session_id: 's-nosuch-1' }),
    expect: fail('session_not_found'),
  },
  {
    name: 'navigation_failed (connection refused)',
    tool: 'browser_navigate',
    input: (e) => ({ page_id: e.page_id, url: e.dead_url }),
    expect: fail('navigation_failed'),
  },
  {
    name: 'the page survives a failed navigation',
    tool: 'browser_navigate',
    input: (e) => ({ page_id: e.page_id, url: e.search_url }),
    expect: OK,
  },
  {
    name: 'read_only refuses an action',
    tool: 'browser_fill',
    input: (e) => ({ page_id: e.read_only_page_id, ref: e.read_only_field_ref, value: 'x' }),
    expect: fail('read_only'),
  },
  {
    name: 'read_only still reads',
    tool: 'browser_list_elements',
    input: (e) => ({ page_id: e.read_only_page_id }),
    expect: OK,
  },
];
