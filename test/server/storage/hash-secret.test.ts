// The generated HASH_SECRET: made once and read back, readable by the relay's user only, in
// DATA_DIR/hash-secret unless HASH_SECRET_FILE names another place; setting HASH_SECRET_FILE moves
// the secret an earlier start made in DATA_DIR, so every hash made with it still matches.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptHashSecret } from '../../../server/src/storage/hash-secret.ts';
import { tempDataDir } from '../../support/crash.ts';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the generated HASH_SECRET', () => {
  it('is made once in DATA_DIR (0600), read back at the next start, and said to be inside DATA_DIR', () => {
    const dir = join(tempDataDir(), 'data');
    const first = keptHashSecret({ dataDir: dir, file: null, create: true });
    expect(first).toMatchObject({ path: join(dir, 'hash-secret'), inDataDir: true, movedFrom: null });
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(mode(first.path)).toBe('600');
    expect(mode(dir)).toBe('700');
    expect(keptHashSecret({ dataDir: dir, file: null, create: true }).secret).toBe(first.secret);
  });

  it('is kept in HASH_SECRET_FILE outside DATA_DIR, in a directory made 0700', () => {
    const root = tempDataDir();
    const kept = keptHashSecret({ dataDir: join(root, 'data'), file: join(root, 'secrets', 'dialback'), create: true });
    expect(kept).toMatchObject({ path: join(root, 'secrets', 'dialback'), inDataDir: false, movedFrom: null });
    expect(mode(kept.path)).toBe('600');
    expect(mode(join(root, 'secrets'))).toBe('700');
    expect(existsSync(join(root, 'data', 'hash-secret'))).toBe(false);
  });

  it('moves the secret an earlier start kept in DATA_DIR to HASH_SECRET_FILE', () => {
    const root = tempDataDir();
    const data = join(root, 'data');
    const earlier = keptHashSecret({ dataDir: data, file: null, create: true });
    const moved = keptHashSecret({ dataDir: data, file: join(root, 'hash-secret'), create: true });
    expect(moved).toEqual({ secret: earlier.secret, path: join(root, 'hash-secret'), inDataDir: false, movedFrom: join(data, 'hash-secret') });
    expect(existsSync(join(data, 'hash-secret'))).toBe(false);
    expect(readFileSync(join(root, 'hash-secret'), 'utf8').trim()).toBe(earlier.secret);
    expect(keptHashSecret({ dataDir: data, file: join(root, 'hash-secret'), create: true })).toMatchObject({ secret: earlier.secret, movedFrom: null });
  });

  it('is never made with Redis (relays share it): a missing file is an error naming HASH_SECRET_FILE; a short one names the file', () => {
    const root = tempDataDir();
    expect(() => keptHashSecret({ dataDir: root, file: join(root, 'shared-secret'), create: false })).toThrow(/HASH_SECRET_FILE: .*shared-secret does not exist/);
    writeFileSync(join(root, 'short'), 'abc\n');
    expect(() => keptHashSecret({ dataDir: root, file: join(root, 'short'), create: false })).toThrow(/short holds no usable secret/);
  });
});
