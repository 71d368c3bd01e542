// The write check (storage/redis/connection.ts) writes one key in every key group's slot of a
// Redis Cluster, so a node down under any group makes the relay not ready. A store that starts a
// new group (connection.keyspace('…')) must add it to KEY_GROUPS, or /readyz would say ready while
// every callback that reads that group (the never-call list is read for each one) answers 503.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_GROUPS } from '../../../server/src/storage/redis/connection.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('Redis key groups', () => {
  it('every group a store uses is one the write check covers', () => {
    const used = new Set<string>();
    for (const file of sources('server/src')) {
      for (const match of readFileSync(file, 'utf8').matchAll(/keyspace\('([^']+)'\)/g)) used.add(match[1]!);
    }
    // The stores found: a pattern that stopped matching would make this test pass on nothing.
    expect(used).toContain('limits');
    expect(used).toContain('nevercall');
    expect([...used].filter((group) => !(KEY_GROUPS as readonly string[]).includes(group))).toEqual([]);
  });
});
