import { describe, expect, it } from 'vitest';
import { ambiguousTarget, parseTarget, plainPath } from '../../../server/src/http/request-url.ts';

describe('request targets', () => {
  it('takes plain paths as they are', () => {
    for (const t of ['/', '/api/status', '/api/callback/abcDEF', '/chunks/a-1.b_c.js', "/x/!$&'()*+,;=:@~"]) expect(plainPath(t)).toBe(t);
  });

  it('leaves every target URL parsing would change to URL parsing, and agrees with it', () => {
    const tricky = ['/api/../metrics', '/api/./status', '/api/status?x=1', '/a%2e%2e/b', '/a b', '/a\\b', '//evil.example/x', '/a#b', '/é', 'api/status', '/api/status/..', '*'];
    for (const t of tricky) expect(plainPath(t)).toBeNull();
    expect(parseTarget('/api/../metrics').pathname).toBe('/metrics');
    expect(parseTarget('//evil.example/x').pathname).toBe('/x');
    expect(parseTarget('http://[::1').pathname).toBe('/');
  });

  it('never disagrees with URL on any target it takes as plain', () => {
    const parts = ['/', 'a', '.', '..', '%2e', '?', '#', '\\', ' ', '~', "'", '(', '*', ':', '@', '-', '//', '[', '|', '^', '`', '{', '"', '<'];
    let seed = 1;
    const pick = () => parts[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % parts.length]!;
    for (let i = 0; i < 20_000; i++) {
      let t = '/';
      for (let j = i % 7; j >= 0; j--) t += pick();
      const plain = plainPath(t);
      if (plain !== null) expect(parseTarget(t).pathname).toBe(plain);
    }
  });

  it('refuses every target whose path URL parsing would read apart from the raw text (a proxy reads the raw text)', () => {
    const parts = ['/', 'a', '.', '..', '%2e', '%2E', '%2f', '%5C', '?', '#', '\\', '~', ':', '@', '//', '%41'];
    let seed = 7;
    const pick = () => parts[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % parts.length]!;
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      let t = '/';
      for (let j = i % 7; j >= 0; j--) t += pick();
      if (ambiguousTarget(t) !== null) continue;
      accepted++;
      // None of these parts is one URL percent-encodes: the path it reads is the raw text, letter for letter.
      expect(parseTarget(t).pathname).toBe(t.split('?')[0]);
    }
    expect(accepted).toBeGreaterThan(300);
  });
});
