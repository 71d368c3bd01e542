// A hash table of fixed-width records in typed arrays, keyed by 64-bit fingerprints, for the memory
// bound: a Map costs well over 100 bytes per entry, a record here 8 bytes plus 4 per field, so a
// million keys of the default layouts stay under 64 MB. At `maxKeys` live records it refuses new keys
// and the caller fails closed. How it probes and reuses slots: limits/README.md.
const MAX_LOAD = 0.75;
const INITIAL_CAPACITY = 1024;

export type ExpiredTest = (data: Uint32Array, offset: number, now: number) => boolean;

export class FingerprintTable {
  private capacity: number;
  private hashes: Uint32Array;
  /** Public so record layouts can read and write fields in place: data[slot * width + field]. */
  data: Uint32Array;
  /** Occupied slots, live or expired. */
  private used = 0;
  private readonly maxCapacity: number;
  readonly width: number;
  readonly maxKeys: number;
  private readonly expired: ExpiredTest;

  constructor(width: number, maxKeys: number, expired: ExpiredTest) {
    this.width = width;
    this.maxKeys = maxKeys;
    this.expired = expired;
    let max = INITIAL_CAPACITY;
    while (max * MAX_LOAD < maxKeys) max *= 2;
    this.maxCapacity = max;
    this.capacity = Math.min(INITIAL_CAPACITY, max);
    this.hashes = new Uint32Array(this.capacity * 2);
    this.data = new Uint32Array(this.capacity * width);
  }

  get size(): number {
    return this.used;
  }

  /** The slot of `hi/lo`, or -1. */
  find(hi: number, lo: number): number {
    const mask = this.capacity - 1;
    for (let i = lo & mask, n = 0; n < this.capacity; i = (i + 1) & mask, n++) {
      const h = this.hashes[i * 2]!;
      const l = this.hashes[i * 2 + 1]!;
      if (h === 0 && l === 0) return -1;
      if (h === hi && l === lo) return i;
    }
    return -1;
  }

  /** True when a new key could be stored now (sweeping expired records if needed). */
  hasRoom(now: number): boolean {
    if (this.used < this.maxKeys) return true;
    this.rebuild(this.capacity, now);
    return this.used < this.maxKeys;
  }

  /** The slot of `hi/lo`, created with zeroed fields if absent; -1 when the table is full. */
  findOrCreate(hi: number, lo: number, now: number): number {
    const found = this.find(hi, lo);
    if (found >= 0) return found;
    if (!this.hasRoom(now)) return -1;
    if (this.used + 1 > this.capacity * MAX_LOAD) {
      this.rebuild(this.capacity < this.maxCapacity ? this.capacity * 2 : this.capacity, now);
    }
    const mask = this.capacity - 1;
    for (let i = lo & mask, n = 0; n < this.capacity; i = (i + 1) & mask, n++) {
      const h = this.hashes[i * 2]!;
      const l = this.hashes[i * 2 + 1]!;
      const empty = h === 0 && l === 0;
      if (empty || this.expired(this.data, i * this.width, now)) {
        if (empty) this.used++;
        this.hashes[i * 2] = hi;
        this.hashes[i * 2 + 1] = lo;
        this.data.fill(0, i * this.width, (i + 1) * this.width);
        return i;
      }
    }
    return -1;
  }

  private rebuild(capacity: number, now: number): void {
    const oldHashes = this.hashes;
    const oldData = this.data;
    const oldCapacity = this.capacity;
    const w = this.width;
    this.capacity = capacity;
    this.hashes = new Uint32Array(capacity * 2);
    this.data = new Uint32Array(capacity * w);
    this.used = 0;
    const mask = capacity - 1;
    for (let s = 0; s < oldCapacity; s++) {
      const hi = oldHashes[s * 2]!;
      const lo = oldHashes[s * 2 + 1]!;
      if ((hi === 0 && lo === 0) || this.expired(oldData, s * w, now)) continue;
      let i = lo & mask;
      while (this.hashes[i * 2] !== 0 || this.hashes[i * 2 + 1] !== 0) i = (i + 1) & mask;
      this.hashes[i * 2] = hi;
      this.hashes[i * 2 + 1] = lo;
      this.data.set(oldData.subarray(s * w, (s + 1) * w), i * w);
      this.used++;
    }
  }
}

/** The first 16 hex digits of a keyed hash as two 32-bit halves; never both zero (0/0 marks empty). */
export function fingerprint(hex: string): [number, number] {
  const hi = parseInt(hex.slice(0, 8), 16) >>> 0;
  const lo = parseInt(hex.slice(8, 16), 16) >>> 0;
  if (Number.isNaN(hi) || Number.isNaN(lo) || hex.length < 16) throw new Error('limit keys must be hex hashes of at least 16 digits');
  return hi === 0 && lo === 0 ? [0, 1] : [hi, lo];
}
