// OWNER_TOKEN must be worth guarding: one shorter than 32 characters, or one character (or a short
// piece) said again and again, stops startup with one line naming OWNER_TOKEN and never showing it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { configErrorOf, testSimulator as sim } from '../../support/config-error.ts';

const STYLE = /^OWNER_TOKEN: expected a random URL-safe token of at least 32 characters/;

describe('OWNER_TOKEN at startup', () => {
  it.each([
    ['sixteen of one character', 'aaaaaaaaaaaaaaaa'],
    ['31 random-looking characters', 'Zq8x3Lm0Pf7Tk2Wn9Rb4Hs6Yd1Vc5Ge'],
    ['40 of one character', 'a'.repeat(40)],
    ['a short piece repeated', 'ab12'.repeat(10)],
    ['two characters repeated', '-_'.repeat(20)],
  ])('refuses %s, naming it and never showing it', (_name, token) => {
    const message = configErrorOf({ OWNER_TOKEN: token });
    expect(message).toMatch(STYLE);
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).not.toContain(token);
  });

  it('takes a token of 32 or more URL-safe characters', () => {
    for (const token of ['Zq8x3Lm0Pf7Tk2Wn9Rb4Hs6Yd1Vc5Ge0', 'owner_0123456789abcdef0123456789abcdef', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c'])
      expect(loadConfig({ OWNER_TOKEN: token }, sim).owner.token).toBe(token);
  });
});
