// The one form the report keeps a visitor's values in: what goes, what is cut and where, and that a
// value already kept comes out the same (a lead's page passes through it twice: as a URL's path, then
// as a group's page).
import { describe, expect, it } from 'vitest';
import { GROUP_VALUE_LENGTH, PAGE_LENGTH, groupPath, groupText } from '../../../server/src/report/group-values.ts';

const hostile = [
  'google\n\nNumber: +44 909 879 0000\nState: answered',
  'evil\u202egoogle',
  'zero\u200bwidth\ufeff',
  'line\u2028sep\u2029',
  '\u0000\u0007\u001b[31mred',
  ' \t Spaced   Out \r\n',
];

describe('group values', () => {
  it('drops invisible characters, reads line breaks as a space, folds case', () => {
    expect(hostile.map(groupText)).toEqual(['google number: +44 909 879 0000 state: answered', 'evilgoogle', 'zerowidth', 'line sep', '[31mred', 'spaced out']);
    expect(groupText(null)).toBe('');
  });

  it('cuts a long value without splitting a character in two', () => {
    expect(groupText('a'.repeat(300))).toHaveLength(GROUP_VALUE_LENGTH);
    const emoji = groupText(`a${'😀'.repeat(100)}`);
    expect(emoji).toBe(`a${'😀'.repeat((GROUP_VALUE_LENGTH - 2) / 2)}`);
  });

  it('keeps a page as a bounded path, never cut inside a percent-escape', () => {
    expect(groupPath('/a/../b/./c//d/?q=1#f')).toBe('/b/c/d');
    expect(groupPath('\\\\evil.example\\x')).toBe('/evil.example/x');
    expect(groupPath('/\u202e/\n/x')).toBe('/%E2%80%AE/x');
    expect(groupPath('/')).toBe('/');
    expect(groupPath('')).toBe('');
    const cyrillic = groupPath(`/${'ж'.repeat(100)}`);
    expect(cyrillic.length).toBeLessThanOrEqual(PAGE_LENGTH);
    expect(cyrillic).toMatch(/^\/(%D0%B6)+$/);
    expect(decodeURIComponent(groupPath(`/${'€'.repeat(100)}`))).toMatch(/^\/€+$/);
    expect(decodeURIComponent(groupPath(`/${'😀'.repeat(100)}`))).toMatch(/^\/(😀)+$/u);
  });

  it('gives a kept value back unchanged', () => {
    const paths = ['/pricing/?x', `/${'ж'.repeat(100)}`, '/a/b/c/d/e/f/g/h/i', '//x//y', '/%e2%80%ae'];
    for (const p of paths) expect(groupPath(groupPath(p))).toBe(groupPath(p));
    for (const v of hostile) expect(groupText(groupText(v))).toBe(groupText(v));
  });
});
