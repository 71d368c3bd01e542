import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../../server/src/lib/recent-cache.ts';
import { trimOldest } from '../../../server/src/lib/trim-oldest.ts';

describe('RecentCache', () => {
  it('never holds more than its capacity, however many keys pass through', () => {
    const cache = new RecentCache<string, number>(100);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`k${i}`, i);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.get('k9999')).toBe(9999);
    expect(cache.get('k0')).toBeUndefined();
  });

  it('keeps what keeps being asked for, and forgets what is not', () => {
    const cache = new RecentCache<string, string>(10);
    cache.set('hot', 'h');
    for (let i = 0; i < 1000; i++) {
      cache.set(`cold${i}`, 'c');
      expect(cache.get('hot')).toBe('h');
    }
    expect(cache.get('cold0')).toBeUndefined();
  });

  it('deletes a key from either generation', () => {
    const cache = new RecentCache<string, number>(4);
    cache.set('old', 1);
    cache.set('b', 2);
    cache.set('new', 3); // 'old' and 'b' are now the previous generation
    cache.delete('old');
    cache.delete('new');
    expect(cache.get('old')).toBeUndefined();
    expect(cache.get('new')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
  });
});

describe('trimOldest', () => {
  it('keeps a map at most at its bound, dropping the oldest entries first', () => {
    const map = new Map<number, string>();
    const dropped: number[] = [];
    for (let i = 0; i < 1000; i++) {
      map.set(i, `v${i}`);
      trimOldest(map, 100, (key) => dropped.push(key));
      expect(map.size).toBeLessThanOrEqual(100);
    }
    expect(map.has(999)).toBe(true);
    expect(dropped.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(dropped.length + map.size).toBe(1000);
  });
});
