/**
 * One owner for feature state. A session and each of its pages carry a StateBag; a feature folder
 * declares a typed Slot for what it keeps (routes, emulation, handoffs, render memory…) and reads
 * it with `bag.get(slot)`. The owner's lifecycle disposes the bag when it ends, so state never
 * outlives its page or session and no feature needs a module-level map of its own.
 */

export interface Slot<T> {
  readonly name: string;
  /** Makes the value on first use. */
  make(): T;
  /** Frees what the value holds when its owner ends (timers, listeners, files). */
  dispose?(value: T): void | Promise<void>;
}

/** Declare a slot once, at module level, in the feature folder that owns the state. */
export function slot<T>(name: string, make: () => T, dispose?: (value: T) => void | Promise<void>): Slot<T> {
  return dispose ? { name, make, dispose } : { name, make };
}

export class StateBag {
  private readonly values = new Map<Slot<unknown>, unknown>();
  private disposed = false;

  /** The slot's value, made on first use. */
  get<T>(s: Slot<T>): T {
    if (this.values.has(s as Slot<unknown>)) return this.values.get(s as Slot<unknown>) as T;
    const v = s.make();
    if (!this.disposed) this.values.set(s as Slot<unknown>, v);
    return v;
  }

  /** The slot's value if it was ever made. */
  peek<T>(s: Slot<T>): T | undefined {
    return this.values.get(s as Slot<unknown>) as T | undefined;
  }

  set<T>(s: Slot<T>, value: T): void {
    if (!this.disposed) this.values.set(s as Slot<unknown>, value);
  }

  delete<T>(s: Slot<T>): void {
    const v = this.values.get(s as Slot<unknown>);
    if (v === undefined && !this.values.has(s as Slot<unknown>)) return;
    this.values.delete(s as Slot<unknown>);
    void Promise.resolve(s.dispose?.(v as T)).catch(() => undefined);
  }

  get size(): number {
    return this.values.size;
  }

  /** Dispose every value (each slot's dispose, errors swallowed) and refuse new ones. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const entries = [...this.values];
    this.values.clear();
    await Promise.all(
      entries.map(async ([s, v]) => {
        try {
          await s.dispose?.(v);
        } catch {
          // a feature's cleanup failing must not keep the rest from running
        }
      }),
    );
  }
}
