// The one rule for visitor text (one line, no control, separator or bidi character, trimmed and
// bounded) and the one for the URLs a visitor's browser sends (http(s) only, a page on its origin).
import { describe, expect, it } from 'vitest';
import { oneLine, oneLineEach } from '../../../server/src/visitor-text/one-line.ts';
import { httpUrl, pageOfOrigin } from '../../../server/src/visitor-text/page-url.ts';
import { FORBIDDEN, FORGED_LINES, HOSTILE_PAGE_URLS, HOSTILE_TEXT } from '../../support/hostile-values.ts';

describe('oneLine', () => {
  it('makes every line break one space and removes every other control, separator and bidi character', () => {
    expect(oneLine(FORGED_LINES, 200)).toBe('google Number: +44 909 879 0000 (the visitor asked to be called on this one) State: answered');
    expect(oneLine('a\r\nb\tc\u000bd\u000ce\u0085f\u2028g\u2029h', 200)).toBe('a b c d e f g h');
    expect(oneLine('goo\u0000gle\u0007\u001b[31m\u007f\u0080\u009f', 200)).toBe('google[31m');
    expect(oneLine('\u202Agoogle\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C', 200)).toBe('google');
    for (const [name, value] of Object.entries(HOSTILE_TEXT)) expect(FORBIDDEN.test(oneLine(value, 10_000)), name).toBe(false);
  });

  it('keeps what a visitor can see: letters of any script, emoji, quotes, markup as text', () => {
    for (const value of ['Київ — знижки', 'שלום', 'مرحبا', '👩‍💻 dev', '<b>&"x"</b>', 'x;=1+1', '(direct)']) expect(oneLine(value, 200)).toBe(value);
  });

  it('trims, bounds the length without splitting a surrogate pair, and mends a lone one', () => {
    expect(oneLine('  \n google \u2028 ', 200)).toBe('google');
    expect(oneLine('x'.repeat(500), 200)).toHaveLength(200);
    expect(oneLine(`${'x'.repeat(199)}😀`, 200)).toBe('x'.repeat(199));
    expect(oneLine('a\ud800b\udc00c', 200)).toBe('a\ufffdb\ufffdc');
    expect(oneLine('\u202E\u200F \n', 200)).toBe('');
  });

  it('cleans each value of a record and leaves out the ones with nothing left', () => {
    expect(oneLineEach({ utmSource: 'google\nx', utmMedium: '\u202E', utmCampaign: undefined, clientId: ' 1.2 ' }, 200)).toEqual({ utmSource: 'google x', clientId: '1.2' });
  });
});

describe('page URLs', () => {
  const origin = 'https://shop.example';

  it('keeps an http(s) page of the origin as the URL parser writes it', () => {
    expect(pageOfOrigin('https://shop.example/sofa?x=1', origin)).toEqual({ url: 'https://shop.example/sofa?x=1' });
    expect(pageOfOrigin('HTTPS://Shop.Example:443/a b?<x>#\u202E', origin)).toEqual({ url: 'https://shop.example/a%20b?%3Cx%3E#%E2%80%AE' });
    expect(pageOfOrigin(null, origin)).toEqual({ url: null });
  });

  it('drops every other page and says why', () => {
    for (const url of HOSTILE_PAGE_URLS) expect(pageOfOrigin(url, origin).url, url).toBeNull();
    expect(pageOfOrigin('javascript:alert(1)', origin).dropped).toBe('not_http');
    expect(pageOfOrigin('https://evil.example/', origin).dropped).toBe('other_origin');
    expect(pageOfOrigin('http://shop.example/', origin).dropped).toBe('other_origin');
    expect(pageOfOrigin(`https://shop.example/${'<'.repeat(1000)}`, origin).dropped).toBe('too_long');
  });

  it('takes only absolute http(s) URLs with a host', () => {
    expect(httpUrl('https://shop.example/privacy')).toBe('https://shop.example/privacy');
    for (const bad of ['javascript:alert(1)', 'data:text/plain,x', 'ftp://x/', '/privacy', 'mailto:a@b.example', 'https://']) expect(httpUrl(bad), bad).toBeNull();
  });
});
