import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../server/src/util/recent-cache.js';

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
});
