// Lua scripts in files of their own (storage/redis/lua-file.ts): includes resolved once, a header
// required, and a loaded script run by a real redis-server through EVALSHA, with EVAL when the
// server has forgotten it (NOSCRIPT after a restart or SCRIPT FLUSH).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { luaFile } from '../../../server/src/storage/redis/lua-file.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const dir = mkdtempSync(join(tmpdir(), 'lua-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
const HEADER = '-- KEYS: 1 the counter\n-- ARGV: 1 how much to add\n-- Returns: the new value\n';

const redis = redisForTests();

describe('a Lua script in a file', () => {
  it('replaces an include line by the file, once even when two pieces include it', () => {
    write('base.lua', 'local function double(x) return 2 * x end\n');
    write('one.lua', '--#include base.lua\nlocal function one() return double(1) end\n');
    write('two.lua', '--#include ./base.lua\nlocal function two() return double(2) end\n');
    write('script.lua', `#!lua flags=no-writes\n${HEADER}--#include one.lua\n--#include two.lua\nreturn one() + two()\n`);
    const script = luaFile(join(dir, 'script.lua'));
    expect(script.source.split('\n')[0]).toBe('#!lua flags=no-writes');
    expect(script.source.match(/local function double/g)).toHaveLength(1);
    expect(script.source).not.toContain('--#include');
    expect(script.source.indexOf('function double')).toBeLessThan(script.source.indexOf('function one'));
    expect(script.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('takes a file: URL as a module names its neighbour', () => {
    write('url.lua', `${HEADER}return 1\n`);
    expect(luaFile(pathToFileURL(join(dir, 'url.lua'))).source).toContain('return 1');
  });

  it('ends a loop of includes', () => {
    write('a.lua', '--#include b.lua\nlocal a = 1\n');
    write('b.lua', '--#include a.lua\nlocal b = 2\n');
    write('loop.lua', `${HEADER}--#include a.lua\nreturn 0\n`);
    const source = luaFile(join(dir, 'loop.lua')).source;
    expect(source.match(/local a = 1/g)).toHaveLength(1);
    expect(source.match(/local b = 2/g)).toHaveLength(1);
  });

  it('refuses a script whose header does not name KEYS, ARGV and what it returns', () => {
    write('bare.lua', '-- KEYS: none\nreturn 1\n');
    expect(() => luaFile(join(dir, 'bare.lua'))).toThrow(/missing -- ARGV:, -- Returns:/);
  });

  it('names the file a missing include was asked for by', () => {
    write('lost.lua', `${HEADER}--#include nowhere.lua\nreturn 1\n`);
    expect(() => luaFile(join(dir, 'lost.lua'))).toThrow(/nowhere\.lua: cannot read the file included by .*lost\.lua/);
  });

  it('refuses #!lua in an included file (Redis reads it on the first line only)', () => {
    write('flagged.lua', '#!lua flags=no-writes\nlocal x = 1\n');
    write('uses-flagged.lua', `${HEADER}--#include flagged.lua\nreturn x\n`);
    expect(() => luaFile(join(dir, 'uses-flagged.lua'))).toThrow(/cannot carry #!lua/);
  });

  it('runs in Redis by EVALSHA, and by EVAL once the server has forgotten it', async () => {
    write('add-base.lua', 'local function add(k, n) return redis.call("INCRBY", k, n) end\n');
    write('add.lua', `${HEADER}--#include add-base.lua\nreturn add(KEYS[1], tonumber(ARGV[1]))\n`);
    const script = luaFile(join(dir, 'add.lua'));
    const connection = redis.fresh();
    const key = `${connection.keyspace('shared')}counter`;
    expect(await connection.evalScript('test.add', script, [key], [2])).toBe(2);
    await connection.run('test.flush', (c) => c.scriptFlush());
    expect(await connection.evalScript('test.add', script, [key], [3])).toBe(5);
    expect(await connection.run('test.exists', (c) => c.scriptExists(script.sha))).toEqual([1]);
  });
});
