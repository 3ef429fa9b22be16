/**
 * IndexedDB in saved state, where it is feasible: databases whose keys and values are data (strings,
 * numbers, booleans, null, Dates, arrays, plain objects, Maps, Sets, ArrayBuffers and typed arrays)
 * are saved whole (stores, key paths, indexes, records); a database holding anything else (a Blob,
 * a File, a CryptoKey, a class instance) or more than MAX_BYTES is left out and named. Restoring
 * creates a database only where the context has none of that name: an existing one is the site's
 * and is left alone (named as skipped).
 */
import type { Frame } from 'puppeteer-core';

/** A value in a JSON-safe tagged form (see `tag` in readIndexedDb). */
export type Tagged = unknown;

export interface IdbStore {
  name: string;
  key_path: string | string[] | null;
  auto_increment: boolean;
  indexes: { name: string; key_path: string | string[]; unique: boolean; multi_entry: boolean }[];
  /** [key, value]; key is null for a store with a key path (the key is in the value). */
  records: [Tagged, Tagged][];
}

export interface IdbDatabase {
  name: string;
  version: number;
  stores: IdbStore[];
}

export interface IdbRead {
  databases: IdbDatabase[];
  /** Names of databases left out, with why. */
  skipped: string[];
}

/** The most a database may take, serialized: more is left out of saved state. */
export const MAX_BYTES = 5 * 1024 * 1024;

/** Read every IndexedDB database of the frame's origin that can be saved as data. */
export function readIndexedDb(frame: Frame, maxBytes = MAX_BYTES): Promise<IdbRead> {
  return frame.evaluate(async (limit: number): Promise<IdbRead> => {
    class Unsupported extends Error {}
    const b64 = (buf: ArrayBuffer) => {
      let s = '';
      const bytes = new Uint8Array(buf);
      for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
      return btoa(s);
    };
    const typed: Record<string, unknown> = {
      Int8Array,
      Uint8Array,
      Uint8ClampedArray,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
    };
    const tag = (v: unknown, depth = 0): unknown => {
      if (depth > 100) throw new Unsupported('too deep');
      if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
      if (v === undefined) return { $: 'u' };
      if (typeof v === 'number')
        return Number.isFinite(v) && !Object.is(v, -0) ? v : { $: 'n', v: String(v) };
      if (typeof v === 'bigint') return { $: 'bi', v: v.toString() };
      if (Array.isArray(v)) return { $: 'a', v: v.map((x) => tag(x, depth + 1)) };
      if (v instanceof Date) return { $: 'd', v: v.getTime() };
      if (v instanceof ArrayBuffer) return { $: 'ab', v: b64(v) };
      if (ArrayBuffer.isView(v)) {
        const kind = v.constructor.name;
        if (!(kind in typed)) throw new Unsupported(kind);
        return {
          $: 'ta',
          k: kind,
          v: b64(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer),
        };
      }
      if (v instanceof Map)
        return { $: 'm', v: [...v].map(([k, x]) => [tag(k, depth + 1), tag(x, depth + 1)]) };
      if (v instanceof Set) return { $: 's', v: [...v].map((x) => tag(x, depth + 1)) };
      if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
        const o: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) o[k] = tag(x, depth + 1);
        return { $: 'o', v: o };
      }
      throw new Unsupported(Object.prototype.toString.call(v));
    };
    const req = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
      });
    const out: IdbRead = { databases: [], skipped: [] };
    const list = await indexedDB.databases();
    for (const info of list) {
      if (!info.name) continue;
      const name = info.name;
      let db: IDBDatabase | null = null;
      try {
        db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(name);
          // it went away since databases() listed it: do not create it
          r.onupgradeneeded = () => r.transaction?.abort();
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error ?? new Error('open failed'));
        });
        const stores: IdbStore[] = [];
        const names = [...db.objectStoreNames];
        let bytes = 0;
        if (names.length > 0) {
          const tx = db.transaction(names, 'readonly');
          for (const sname of names) {
            const s = tx.objectStore(sname);
            const store: IdbStore = {
              name: sname,
              key_path: s.keyPath,
              auto_increment: s.autoIncrement,
              indexes: [...s.indexNames].map((iname) => {
                const ix = s.index(iname);
                return { name: iname, key_path: ix.keyPath, unique: ix.unique, multi_entry: ix.multiEntry };
              }),
              records: [],
            };
            const [keys, values] = await Promise.all([req(s.getAllKeys()), req(s.getAll())]);
            for (let i = 0; i < keys.length; i++) {
              const rec: [unknown, unknown] = [s.keyPath === null ? tag(keys[i]) : null, tag(values[i])];
              bytes += JSON.stringify(rec).length;
              if (bytes > limit) throw new Unsupported(`larger than ${Math.round(limit / 1048576)} MB`);
              store.records.push(rec);
            }
            stores.push(store);
          }
        }
        out.databases.push({ name, version: db.version, stores });
      } catch (e) {
        out.skipped.push(`${name} (${e instanceof Unsupported ? `holds ${e.message}` : String(e)})`);
      } finally {
        db?.close();
      }
    }
    return out;
  }, maxBytes);
}

/** Create the saved databases the frame's origin does not have yet; returns the names skipped (present already, or refused). */
export function writeIndexedDb(frame: Frame, dbs: IdbDatabase[]): Promise<string[]> {
  return frame.evaluate(async (databases: IdbDatabase[]): Promise<string[]> => {
    const bytes = (s: string) => {
      const bin = atob(s);
      const a = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
      return a.buffer;
    };
    const typed: Record<string, new (b: ArrayBuffer) => unknown> = {
      Int8Array,
      Uint8Array,
      Uint8ClampedArray,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
    };
    const untag = (v: unknown): unknown => {
      if (v === null || typeof v !== 'object') return v;
      const t = v as { $: string; v?: unknown; k?: string };
      switch (t.$) {
        case 'u':
          return undefined;
        case 'n':
          return Number(t.v);
        case 'bi':
          return BigInt(t.v as string);
        case 'a':
          return (t.v as unknown[]).map(untag);
        case 'd':
          return new Date(t.v as number);
        case 'ab':
          return bytes(t.v as string);
        case 'ta':
          return new typed[t.k!]!(bytes(t.v as string));
        case 'm':
          return new Map((t.v as [unknown, unknown][]).map(([k, x]) => [untag(k), untag(x)]));
        case 's':
          return new Set((t.v as unknown[]).map(untag));
        case 'o': {
          const o: Record<string, unknown> = {};
          for (const [k, x] of Object.entries(t.v as Record<string, unknown>)) o[k] = untag(x);
          return o;
        }
        default:
          throw new Error(`unknown tag ${t.$}`);
      }
    };
    const present = new Set((await indexedDB.databases()).map((d) => d.name));
    const skipped: string[] = [];
    for (const d of databases) {
      if (present.has(d.name)) {
        skipped.push(`${d.name} (present already)`);
        continue;
      }
      try {
        await new Promise<void>((resolve, reject) => {
          const r = indexedDB.open(d.name, d.version);
          r.onupgradeneeded = () => {
            const db = r.result;
            const tx = r.transaction!;
            for (const s of d.stores) {
              const store = db.createObjectStore(s.name, {
                keyPath: s.key_path,
                autoIncrement: s.auto_increment,
              });
              for (const ix of s.indexes)
                store.createIndex(ix.name, ix.key_path, { unique: ix.unique, multiEntry: ix.multi_entry });
              for (const [k, v] of s.records) {
                if (s.key_path === null) store.put(untag(v), untag(k) as IDBValidKey);
                else store.put(untag(v));
              }
            }
            tx.onerror = () => reject(tx.error ?? new Error('write failed'));
          };
          r.onsuccess = () => {
            r.result.close();
            resolve();
          };
          r.onerror = () => reject(r.error ?? new Error('open failed'));
        });
      } catch (e) {
        skipped.push(`${d.name} (${String(e)})`);
      }
    }
    return skipped;
  }, dbs);
}
