/** IndexedDB in saved state: data databases survive a brow restart; a Blob-holding one is named as left out. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { ensureInjectedBuilt, refOf } from '../helpers.js';

let server: FixtureServer;
let dataDir: string;
const runtimes: BrowRuntime[] = [];

beforeAll(async () => {
  delete process.env.BROW_STATE_KEY;
  ensureInjectedBuilt();
  server = await startFixtureServer();
  dataDir = mkdtempSync(join(tmpdir(), 'brow-data-'));
});
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await server.close();
});

function brow(): BrowRuntime {
  const rt = new BrowRuntime({ data_dir: dataDir });
  runtimes.push(rt);
  return rt;
}

async function ok(rt: BrowRuntime, name: string, input: Record<string, unknown> = {}): Promise<any> {
  const o = await rt.invoke(name, input);
  if (!o.ok) throw new Error(`${name} failed: ${o.content}`);
  return Object.assign(o.data, { __content: o.content });
}

/** Everything the notes app keeps, read back in the page (types checked there, where they are real). */
const readNotes = (rt: BrowRuntime, page: string) =>
  rt.core.findPage(page)!.raw.evaluate(async () => {
    const req = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const names = (await indexedDB.databases()).map((d) => `${d.name}@${d.version}`).sort();
    if (!names.includes('notes-db@3')) return { names };
    const db = await req(indexedDB.open('notes-db'));
    const tx = db.transaction(['notes', 'kv']);
    const notes = tx.objectStore('notes');
    const todo = await req(notes.index('by_tag').getAll('todo'));
    const taxes = todo.find((n: any) => n.title === 'Taxes');
    const bytes = await req(tx.objectStore('kv').get('bytes'));
    const map = await req(tx.objectStore('kv').get('map'));
    const compound = await req(tx.objectStore('kv').get(['compound', 7]));
    // autoIncrement goes on from the restored keys
    const next = await new Promise<IDBValidKey>((resolve) => {
      const w = db.transaction('notes', 'readwrite');
      const r = w.objectStore('notes').put({ title: 'New', tags: [] });
      r.onsuccess = () => resolve(r.result);
    });
    db.close();
    return {
      names,
      keyPath: notes.keyPath,
      todo: todo.map((n: any) => `${n.id}:${n.title}`).sort(),
      dueIsDate: taxes?.due instanceof Date,
      due: taxes?.due?.toISOString(),
      bytes: bytes instanceof Uint8Array ? [...bytes] : null,
      map: map instanceof Map ? [...map] : null,
      compound: {
        n: compound.nested.n,
        big: typeof compound.nested.big === 'bigint' ? compound.nested.big.toString() : null,
        hasNone: 'none' in compound.nested,
      },
      next,
    };
  });

describe('IndexedDB in saved state', () => {
  it('survives a brow restart: stores, key path, index, dates, bytes, maps, bigints; a Blob database is named as left out', async () => {
    const first = brow();
    const open = await ok(first, 'browser_open_page', { url: server.url('storage/notes.html') });
    const refs = (await ok(first, 'browser_list_elements', { page_id: open.page_id })).snapshot.refs;
    await ok(first, 'browser_click', { page_id: open.page_id, ref: refOf(refs, 'button', 'Save notes') });
    await first.core
      .findPage(open.page_id)!
      .raw.waitForFunction(() => document.getElementById('status')!.textContent === 'Saved 2 notes');
    const before = await readNotes(first, open.page_id);
    const saved = await ok(first, 'browser_save_state', { profile: 'notes' });
    expect(saved.indexed_db_databases).toBe(1);
    expect(saved.__content).toMatch(/with 1 IndexedDB database\(s\)/);
    expect(saved.__content).toMatch(/Left out: http:\/\/127\.0\.0\.1:\d+ blobs \(holds \[object Blob\]\)\./);
    expect(readFileSync(saved.file, 'utf8')).toContain('notes-db');
    await first.close();

    const second = brow();
    const s = await ok(second, 'browser_start_session', { profile: 'notes' });
    expect(s.__content).toMatch(/Loaded profile "notes"/);
    const page = await ok(second, 'browser_open_page', {
      session_id: s.session_id,
      url: server.url('storage/notes.html'),
    });
    const after = await readNotes(second, page.page_id);
    // the first read added a note (key 3): the restored store goes on at 4
    expect(before.next).toBe(3);
    expect(after).toEqual({ ...before, names: ['notes-db@3'], next: 4 });
    expect(after).toMatchObject({
      keyPath: 'id',
      todo: ['1:Groceries', '2:Taxes'],
      dueIsDate: true,
      due: '2027-04-15T00:00:00.000Z',
      bytes: [1, 2, 250],
      map: [
        ['a', 1],
        ['b', [2, 3]],
      ],
      compound: { n: -0.5, big: '12345678901234567890', hasNone: true },
      next: 4,
    });

    // loading again into a session whose origin has the database leaves the site's copy alone
    const again = await ok(second, 'browser_load_state', { session_id: s.session_id, profile: 'notes' });
    expect(again.skipped).toEqual([`${server.origin} notes-db (present already)`]);
    expect(again.__content).toMatch(/Left alone: .* notes-db \(present already\)\./);
    await second.close();
  });
});
