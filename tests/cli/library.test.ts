/** The library door: `createBrow()` with a typed method per capability, events, strict mode, and a clean close. */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AnyCapability } from '../../src/capabilities/define.js';
import { capabilities } from '../../src/capabilities/registry.js';
import {
  EXPORT_RENAMES,
  methodName,
  methodNameOfExport,
  TYPED_MODULES,
} from '../../src/doors/lib/methods.js';
import {
  BrowError,
  createBrow,
  type Brow,
  type BrowEvent,
  type BrowInput,
  type OkOutcome,
  type Outcome,
} from '../../src/index.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt } from '../helpers.js';
import { scaled } from '../scale.js';
import { alive, childPids, until } from './helpers.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Library fixture</title></head><body>
<h1>Counter</h1><p id="out">Clicked 0 times</p>
<button onclick="document.getElementById('out').textContent = 'Clicked ' + (++window.n) + ' times'">Add one</button>
<script>window.n = 0</script></body></html>`;

let fixtures: FixtureServer;
let url: string;

beforeAll(async () => {
  ensureInjectedBuilt();
  fixtures = await startFixtureServer();
  fixtures.route('/lib/counter', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  url = fixtures.url('lib/counter');
});
afterAll(() => fixtures?.close());

/** Chromium processes started by this (test) process. */
const chromiumChildren = () =>
  childPids(process.pid).filter((pid) => {
    try {
      return /chrom/i.test(execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }));
    } catch {
      return false;
    }
  });

const refIn = (text: string, role: string, name: string) => {
  const m = new RegExp(`\\[${role} ref=(e\\d+)[^\\]]*\\] ${name}`).exec(text);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text}`);
  return m[1]!;
};

describe('a method per capability', () => {
  it('every registry capability is typed (its module is in TYPED_MODULES) under its method name', () => {
    const typed = new Map<AnyCapability, string>();
    for (const mod of TYPED_MODULES) {
      for (const [key, v] of Object.entries(mod)) {
        if (capabilities.includes(v as AnyCapability)) typed.set(v as AnyCapability, key);
      }
    }
    for (const cap of capabilities) {
      const key = typed.get(cap);
      expect(key, `${cap.name}: add its module to TYPED_MODULES in src/doors/lib/methods.ts`).toBeDefined();
      expect(methodNameOfExport(key!), `${cap.name} is exported as ${key}: add it to EXPORT_RENAMES`).toBe(
        methodName(cap.name),
      );
    }
    expect(Object.keys(EXPORT_RENAMES).every((k) => TYPED_MODULES.some((m) => k in m))).toBe(true);
  });

  it('every capability is a method of the instance, and the types follow the schemas', async () => {
    const brow = await createBrow();
    try {
      for (const cap of capabilities)
        expect(typeof (brow as any)[methodName(cap.name)], cap.name).toBe('function');
      expect(brow.capabilities.map((c) => c.name)).toEqual(capabilities.map((c) => c.name));
      expect(methodName('browser_open_page')).toBe('openPage');
      expect(methodName('browser_upload_file')).toBe('uploadFile');
    } finally {
      await brow.close();
    }
    expectTypeOf<BrowInput<'click'>>().toHaveProperty('ref').toEqualTypeOf<string>();
    expectTypeOf<BrowInput<'openPage'>['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BrowInput<'startSession'>['viewport']>().toEqualTypeOf<
      { width: number; height: number } | undefined
    >();
    // an Outcome whose data is typed from the output schema (tests/doors/tool-types.test.ts)
    expectTypeOf<Awaited<ReturnType<Brow['listPages']>>>().toExtend<Outcome>();
    expectTypeOf<Awaited<ReturnType<Brow<true>['listPages']>>>().toExtend<OkOutcome>();
    // a call the schema refuses does not compile
    const typeOnly = (b: Brow) => {
      // @ts-expect-error ref is required
      void b.click({});
      // @ts-expect-error button is an enum
      void b.click({ ref: 'e1', button: 'top' });
      // @ts-expect-error no such field
      void b.listPages({ colour: 'red' });
    };
    expect(typeof typeOnly).toBe('function');
  });
});

describe('createBrow', () => {
  it('drives a page: openPage → listElements → click → changes, with events', async () => {
    const brow = await createBrow({ max_sessions: 2 });
    const events: BrowEvent[] = [];
    const off = brow.on({}, (e) => events.push(e));
    try {
      const opened = await brow.openPage({ url });
      expect(opened.ok, opened.content).toBe(true);
      const page_id = opened.data.page_id as string;
      const listed = await brow.listElements();
      expect(listed.content).toContain(`Page ID: ${page_id}`);
      const clicked = await brow.click({ ref: refIn(listed.content, 'button', 'Add one') });
      expect(clicked.ok, clicked.content).toBe(true);
      expect(clicked.content).toContain('Clicked 1 times');
      const viaCall = await brow.call('browser_list_pages');
      expect(viaCall.ok && (viaCall.data.pages as unknown[]).length).toBe(1);
      const failed = await brow.click({ ref: 'e99999' });
      expect(failed.ok).toBe(false);
      expect(!failed.ok && failed.data.error_code).toBe('ref_not_found');
      await until(() => events.some((e) => e.type === 'session-started'), 2000);
      expect(events.map((e) => e.type)).toContain('session-started');
      off();
      const seen = events.length;
      await brow.navigate({ url });
      await new Promise((r) => setTimeout(r, scaled(100)));
      expect(events.length).toBe(seen);
    } finally {
      await brow.close();
    }
  });

  it('strict mode throws a BrowError with the code and hint, and returns ok outcomes', async () => {
    const brow = await createBrow({}, { strict: true });
    try {
      const opened = await brow.openPage({ url });
      expect(opened.ok).toBe(true);
      const err = await brow.click({ ref: 'e99999' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BrowError);
      expect(err).toMatchObject({ code: 'ref_not_found', hint: expect.stringMatching(/\w/) });
      expect((err as BrowError).outcome.ok).toBe(false);
      await expect(brow.call('browser_teleport')).rejects.toMatchObject({ code: 'invalid_request' });
    } finally {
      await brow.close();
    }
  });

  it('refuses a bad configuration with invalid_request', async () => {
    await expect(createBrow({ max_sessions: 0 })).rejects.toMatchObject({
      name: 'BrowError',
      code: 'invalid_request',
    });
  });

  it('close() leaves no Chromium behind, and later calls answer session_closed', async () => {
    const before = new Set(chromiumChildren());
    const brow = await createBrow();
    expect((await brow.openPage({ url })).ok).toBe(true);
    const mine = chromiumChildren().filter((p) => !before.has(p));
    expect(mine.length).toBeGreaterThan(0);
    await brow.close();
    await brow.close(); // idempotent
    expect(brow.closed).toBe(true);
    expect(await until(() => mine.every((p) => !alive(p)), 10_000)).toBe(true);
    expect(chromiumChildren().filter((p) => !before.has(p))).toEqual([]);
    const late = await brow.listPages();
    expect(!late.ok && late.data.error_code).toBe('session_closed');
  });
});
