/**
 * Map, WeakMap, Set and WeakSet that later patches of their prototypes cannot reach: thin classes
 * over native instances calling captured methods. (A subclass with copied methods was 10–20×
 * slower: V8 inlines the collection builtins only for receivers with the original prototype.)
 */
import {
  NativeMap,
  NativeSet,
  NativeWeakMap,
  NativeWeakSet,
  mapDelete,
  mapForEach,
  mapGet,
  mapHas,
  mapSet,
  mapSize,
  setAdd,
  setHas,
  setSize,
  weakMapGet,
  weakMapHas,
  weakMapSet,
  weakSetAdd,
  weakSetHas,
} from './natives.js';

export class SafeMap<K, V> {
  private readonly m = new NativeMap<K, V>();
  get(key: K): V | undefined {
    return mapGet(this.m, key) as V | undefined;
  }
  set(key: K, value: V): void {
    mapSet(this.m, key, value);
  }
  has(key: K): boolean {
    return mapHas(this.m, key);
  }
  delete(key: K): boolean {
    return mapDelete(this.m, key);
  }
  get size(): number {
    return mapSize(this.m as Map<unknown, unknown>);
  }
  forEach(fn: (value: V, key: K) => void): void {
    mapForEach(this.m, fn as (value: unknown, key: unknown) => void);
  }
}

export class SafeWeakMap<K extends WeakKey, V> {
  private readonly m = new NativeWeakMap<K, V>();
  get(key: K): V | undefined {
    return weakMapGet(this.m, key) as V | undefined;
  }
  set(key: K, value: V): void {
    weakMapSet(this.m, key, value);
  }
  has(key: K): boolean {
    return weakMapHas(this.m, key);
  }
}

export class SafeSet<T> {
  private readonly s = new NativeSet<T>();
  constructor(values?: ArrayLike<T>) {
    for (let i = 0; values && i < values.length; i++) setAdd(this.s, values[i]!);
  }
  has(value: T): boolean {
    return setHas(this.s, value);
  }
  add(value: T): void {
    setAdd(this.s, value);
  }
  get size(): number {
    return setSize(this.s as Set<unknown>);
  }
}

export class SafeWeakSet<T extends WeakKey> {
  private readonly s = new NativeWeakSet<T>();
  has(value: T): boolean {
    return weakSetHas(this.s, value);
  }
  add(value: T): void {
    weakSetAdd(this.s, value);
  }
}
