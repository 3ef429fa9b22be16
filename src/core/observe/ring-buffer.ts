/** A bounded buffer with a monotonic seq: old entries drop off the front and are counted. */
export class RingBuffer<T extends { seq: number }> {
  private items: T[] = [];
  private nextSeq = 1;
  /** Entries pushed out by the cap since creation (or since the last clear). */
  dropped = 0;

  constructor(private readonly capacity: number) {}

  /** Append an entry; the buffer assigns its seq. */
  push(entry: Omit<T, 'seq'>): T {
    const item = { ...entry, seq: this.nextSeq++ } as T;
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.splice(0, this.items.length - this.capacity);
      this.dropped += 1;
    }
    return item;
  }

  /** Replace an entry in place (e.g. a request that got its response). */
  update(seq: number, patch: Partial<T>): void {
    const i = this.items.findIndex((x) => x.seq === seq);
    if (i >= 0) this.items[i] = { ...this.items[i]!, ...patch, seq };
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Entries after sinceSeq that pass the filter; the newest `limit` are kept. */
  read(filter: (e: T) => boolean = () => true, sinceSeq = 0, limit = Infinity): T[] {
    const hits = this.items.filter((e) => e.seq > sinceSeq && filter(e));
    return hits.length > limit ? hits.slice(hits.length - limit) : hits;
  }

  clear(): void {
    this.items = [];
    this.dropped = 0;
  }

  get size(): number {
    return this.items.length;
  }
}
