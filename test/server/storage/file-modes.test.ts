// What the relay keeps on disk is readable by its user only, read back with stat from a real relay
// process: DATA_DIR 0700; the SQLite file, its -wal and -shm, the generated hash-secret and the
// consent records' file 0600. A new relay makes them so even under umask 000; one started on an older
// relay's files (DATA_DIR 0755, files 0644) tightens them and logs a line for each, and says at
// every start that a backup of DATA_DIR holds the hashes together with their key.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it } from 'vitest';
import { waitUntil } from '../../support/relay-processes.ts';
import { postCallback } from '../../support/post-callback.ts';
import { tempDir } from '../../support/temp-dirs.ts';
import { COMPILE_CACHE_ENV } from '../../support/child-processes.ts';

const ORIGIN = 'https://shop.example';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** The relay as `npm start` runs it in demo mode, under `umask`; its log lines, parsed. */
function startRelay(env: Record<string, string>, umask: string) {
  const child = spawn('/bin/sh', ['-c', `umask ${umask} && exec "${process.execPath}" server/src/main.ts`], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...COMPILE_CACHE_ENV, PORT: '0', HOST: '127.0.0.1', ALLOWED_ORIGINS: ORIGIN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const port = () => lines().find((l) => l.msg === 'relay listening')?.port as number | undefined;
  // Generous, as support/relay-processes.ts: on a loaded machine a relay may take seconds to start.
  return { lines, port: () => waitUntil(() => port() !== undefined, 'the relay to listen', 60_000).then(() => port()!) };
}

it('a new relay makes DATA_DIR 0700 and every file it keeps 0600, under umask 000', async () => {
  const root = tempDir('modes');
  const dataDir = join(root, 'data');
  const consent = join(root, 'consent.jsonl');
  const relay = startRelay({ DATA_DIR: dataDir, CONSENT_LOG_PATH: consent }, '000');
  const port = await relay.port();
  const res = await postCallback(`http://127.0.0.1:${port}`, { phone: '050 123 45 67', consent: true, consentText: 'Call me.' });
  expect(res.status, res.text).toBe(202);
  expect(mode(dataDir)).toBe('700');
  for (const name of ['dialback.sqlite', 'dialback.sqlite-wal', 'dialback.sqlite-shm', 'hash-secret']) expect([name, mode(join(dataDir, name))]).toEqual([name, '600']);
  expect(mode(consent)).toBe('600');
  expect(relay.lines().filter((l) => l.msg === 'file made readable by the relay only')).toEqual([]);
  expect(relay.lines().find((l) => String(l.msg).startsWith('HASH_SECRET is kept in DATA_DIR'))).toMatchObject({ level: 'warn', file: join(dataDir, 'hash-secret') });
});

it('an older relay’s looser DATA_DIR and files are tightened at startup, one log line each', async () => {
  const root = tempDir('modes');
  const dataDir = join(root, 'data');
  const consent = join(root, 'consent.jsonl');
  mkdirSync(dataDir);
  const db = new DatabaseSync(join(dataDir, 'dialback.sqlite'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE t (x)');
  db.close();
  writeFileSync(join(dataDir, 'hash-secret'), `${'ab'.repeat(32)}\n`);
  writeFileSync(consent, '');
  for (const [path, m] of [
    [dataDir, 0o755],
    [join(dataDir, 'dialback.sqlite'), 0o644],
    [join(dataDir, 'hash-secret'), 0o644],
    [consent, 0o644],
  ] as const)
    chmodSync(path, m);

  // The secret moves to HASH_SECRET_FILE (outside DATA_DIR): no warning about backups then.
  const secretFile = join(root, 'secret', 'hash-secret');
  const relay = startRelay({ DATA_DIR: dataDir, CONSENT_LOG_PATH: consent, HASH_SECRET_FILE: secretFile }, '022');
  await relay.port();
  expect(mode(dataDir)).toBe('700');
  expect(mode(join(dataDir, 'dialback.sqlite'))).toBe('600');
  expect(mode(consent)).toBe('600');
  expect(mode(secretFile)).toBe('600');
  const tightened = relay.lines().filter((l) => l.msg === 'file made readable by the relay only');
  expect(tightened.map((l) => [l.path, l.was, l.now])).toEqual([
    [dataDir, '755', '700'],
    [join(dataDir, 'dialback.sqlite'), '644', '600'],
    [consent, '644', '600'],
  ]);
  expect(relay.lines().find((l) => l.msg === 'HASH_SECRET moved out of DATA_DIR')).toMatchObject({ from: join(dataDir, 'hash-secret'), to: secretFile });
  expect(relay.lines().find((l) => String(l.msg).startsWith('HASH_SECRET is kept in DATA_DIR'))).toBeUndefined();
});
