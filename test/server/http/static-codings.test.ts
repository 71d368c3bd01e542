// Which content codings the relay keeps for a widget file: each one only where it is smaller than the
// file. A chunk of a couple of hundred bytes (the country names, 249 B) was sent as it is, because
// files up to 256 B were never compressed, though brotli sends it in two thirds of that.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { loadStaticSet } from '../../../server/src/http/static-files.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const asks = (encoding: string) => ({ headers: { 'accept-encoding': encoding } }) as unknown as IncomingMessage;

test('a small script is sent compressed where that is smaller; one a coding would not shrink is sent as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialback-static-'));
  dirs.push(dir);
  const small =
    `export function n(l,k,i){let a=i;try{a=new Intl.DisplayNames([l],{type:"region"}).of(i)??i}catch{}const t=k.findIndex(o=>o.label.localeCompare(a,l)>0);return[...k.slice(0,t),{iso:i,label:a},...k.slice(t)]}`.padEnd(
      249,
      ' ',
    );
  writeFileSync(join(dir, 'names.js'), small);
  writeFileSync(join(dir, 'tiny.js'), 'x');
  const set = loadStaticSet(dir);

  const br = set.reply(asks('gzip, br'), 'names.js', {})!;
  expect(br.headers?.['content-encoding']).toBe('br');
  expect((br.body as Buffer).length).toBeLessThan(small.length);
  expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(small);
  expect(set.reply(asks('gzip'), 'names.js', {})!.headers?.['content-encoding']).toBe('gzip');

  const tiny = set.reply(asks('gzip, br'), 'tiny.js', {})!;
  expect(tiny.headers?.['content-encoding']).toBeUndefined();
  expect((tiny.body as Buffer).toString()).toBe('x');
});

test('a second set of the same files reuses the compressed forms: one process building many relays compresses each file once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialback-static-'));
  dirs.push(dir);
  const script = `export const a = ${JSON.stringify('call me back '.repeat(40))};`;
  writeFileSync(join(dir, 'a.js'), script);
  const [first, second] = [loadStaticSet(dir), loadStaticSet(dir)];
  for (const coding of ['br', 'gzip']) {
    const [one, two] = [first.reply(asks(coding), 'a.js', {})!, second.reply(asks(coding), 'a.js', {})!];
    expect(two.headers?.['content-encoding']).toBe(coding);
    expect(two.headers?.etag).toBe(one.headers?.etag);
    expect(two.body, coding).toBe(one.body);
  }
  // Changed bytes are compressed anew.
  writeFileSync(join(dir, 'a.js'), `${script}\n`);
  const changed = loadStaticSet(dir).reply(asks('br'), 'a.js', {})!;
  expect(brotliDecompressSync(changed.body as Buffer).toString()).toBe(`${script}\n`);
});
