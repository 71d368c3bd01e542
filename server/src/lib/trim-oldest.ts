// Bounding a Map that is kept in insertion order (oldest first). Deleting its first key once per
// insert is slow: V8 leaves deleted entries in place until the table is rebuilt, and finding the
// first key walks over every one of them (~6 µs per insert at 10,000 entries). Past `max`, this
// drops the oldest tenth in one walk instead, so the walk is paid once per `max / 10` inserts.

/** Deletes the oldest entries of `map` once it holds more than `max`, down to 90% of `max` (or just `max` when that is under ten). */
export function trimOldest<K, V>(map: Map<K, V>, max: number, onDrop?: (key: K, value: V) => void): void {
  if (map.size <= max) return;
  let excess = map.size - (max - Math.floor(max / 10));
  for (const [key, value] of map) {
    if (excess-- <= 0) break;
    map.delete(key);
    onDrop?.(key, value);
  }
}
