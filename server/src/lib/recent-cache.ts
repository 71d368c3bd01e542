// A bounded cache of recent results in two generations: new entries go into the current one; when
// it is full, it becomes the previous one and the oldest generation is dropped whole. A hit in the
// previous generation moves the entry forward, so what keeps being asked for stays.
//
// Why not one Map with "delete the first key" eviction: V8 leaves deleted entries in place until
// the table is rebuilt, so finding the first key skips over every hole left by earlier evictions.
// At 10,000 entries that costs ~6 µs per insert, more than the work most entries here save.
// Here every operation is O(1), and at most `capacity` entries are held.
export class RecentCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private readonly generationSize: number;

  constructor(capacity: number) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.previous.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.generationSize && !this.current.has(key)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  /** True when it held `key`. */
  delete(key: K): boolean {
    const current = this.current.delete(key);
    return this.previous.delete(key) || current;
  }

  /** Deletes every entry `drop` picks (a walk over all of them: for rare tasks only); answers how many. */
  deleteWhere(drop: (key: K, value: V) => boolean): number {
    let dropped = 0;
    for (const generation of [this.current, this.previous]) {
      for (const [key, value] of generation) if (drop(key, value) && generation.delete(key)) dropped++;
    }
    return dropped;
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
