// Attribution from the tracking cookies, with values as the call-tracking script and Google
// Analytics really write them (docs/embedding.md, Attribution), read only with analytics consent.
import Cookies from 'js-cookie';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { gaClientId, readAttribution } from '../../widget/src/attribution.ts';

const page = 'https://shop.example/landing';

/** Writes a cookie the way the tracking script does: encodeURIComponent(JSON.stringify(v)), path=/. */
function trackingCookie(name: string, value: unknown) {
  document.cookie = `${name}=${encodeURIComponent(JSON.stringify(value))}; path=/`;
}
function rawCookie(name: string, value: string) {
  document.cookie = `${name}=${value}; path=/`;
}

afterEach(() => {
  for (const part of document.cookie.split('; ')) {
    const name = part.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
});

describe('rngst2 → utm values', () => {
  test('the real decoded value from the facts, placeholders passed on unchanged', () => {
    trackingCookie('rngst2', {
      utmz: { utm_source: '(direct)', utm_medium: '(none)', utm_campaign: '(direct)', utm_content: '(not set)', utm_term: '(none)' },
      sl: 'a9068767-0d4c-4c2e-9a57-5d3c2f0b8e11',
    });
    expect(readAttribution(true, page)).toEqual({
      utmSource: '(direct)',
      utmMedium: '(none)',
      utmCampaign: '(direct)',
      utmContent: '(not set)',
      utmTerm: '(none)',
    });
  });

  test('an ad click with spaces and non-Latin text survives the encoding', () => {
    trackingCookie('rngst2', { utmz: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'весна 2025', utm_term: 'call back' }, sl: 'x' });
    expect(readAttribution(true, page)).toEqual({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'весна 2025', utmTerm: 'call back' });
  });

  test('values the relay would refuse (empty, over 200 characters, not strings) are left out', () => {
    trackingCookie('rngst2', { utmz: { utm_source: '   ', utm_medium: 'x'.repeat(201), utm_campaign: 42, utm_content: null, utm_term: 'ok' } });
    expect(readAttribution(true, page)).toEqual({ utmTerm: 'ok' });
  });

  test.each([
    ['truncated JSON', encodeURIComponent('{"utmz":{"utm_source":"goo')],
    ['not JSON at all', 'hello'],
    ['broken percent-encoding', '%E0%A4%A'],
    ['JSON of the wrong shape', encodeURIComponent('["utmz"]')],
    ['utmz not an object', encodeURIComponent('{"utmz":"google"}')],
    ['JSON null', 'null'],
  ])('a malformed rngst2 (%s) never throws and yields no utm', (_label, value) => {
    rawCookie('rngst2', value);
    expect(() => readAttribution(true, page)).not.toThrow();
    expect(readAttribution(true, page)).toEqual({});
  });
});

describe('client id', () => {
  test('_ga → the last two parts', () => {
    rawCookie('_ga', 'GA1.1.1907690628.1747750782');
    expect(readAttribution(true, page)).toEqual({ clientId: '1907690628.1747750782' });
  });

  test('GA4 _ga_<id> session cookies are not client ids', () => {
    rawCookie('_ga_ABC123XYZ', 'GS2.1.s1747750782$o1$g1$t1747750800$j60$l0$h0');
    rawCookie('_ga_Q1W2E3', 'GS1.1.1747750782.1.1.1747750800.0.0.0');
    expect(readAttribution(true, page)).toEqual({});
    rawCookie('_ga', 'GA1.2.576047607.1537442595');
    expect(readAttribution(true, page)).toEqual({ clientId: '576047607.1537442595' });
  });

  test('rngst {clientId} is the fallback when there is no _ga', () => {
    trackingCookie('rngst', { clientId: '0c3b2f9e-5b1a-4f6c-8d2e-7a9b0c1d2e3f' });
    expect(readAttribution(true, page)).toEqual({ clientId: '0c3b2f9e-5b1a-4f6c-8d2e-7a9b0c1d2e3f' });
    rawCookie('_ga', 'GA1.1.1907690628.1747750782');
    expect(readAttribution(true, page).clientId).toBe('1907690628.1747750782');
  });

  test.each(['GA1.1.abc.def', 'GA1.1.123', '1907690628.1747750782', 'GS2.1.123.456', '', 'GA1.1.1907690628.1747750782.extra'])('gaClientId(%j) is undefined', (value) => {
    expect(gaClientId(value)).toBeUndefined();
  });

  test('a malformed rngst never throws', () => {
    rawCookie('rngst', '%7B%22clientId');
    expect(readAttribution(true, page)).toEqual({});
  });
});

describe('read with js-cookie', () => {
  test('each of the three cookies is asked of Cookies.get, and only those', () => {
    const get = vi.spyOn(Cookies, 'get');
    try {
      readAttribution(true, page);
      expect(get.mock.calls.flat().sort()).toEqual(['_ga', 'rngst', 'rngst2']);
    } finally {
      get.mockRestore();
    }
  });

  test("js-cookie's decoding: a quoted, %-encoded value, and a name written %-encoded", () => {
    rawCookie('rngst2', `"${encodeURIComponent(JSON.stringify({ utmz: { utm_source: 'Ünïcode, "quoted"; source' } }))}"`);
    // js-cookie decodes names too: `%5Fga` is the cookie `_ga` to it.
    rawCookie('%5Fga', 'GA1.1.1907690628.1747750782');
    expect(readAttribution(true, page)).toEqual({ utmSource: 'Ünïcode, "quoted"; source', clientId: '1907690628.1747750782' });
  });

  test('a malformed escape leaves that cookie unread, the others still count; nothing throws', () => {
    rawCookie('rngst2', '%E0%A4%A');
    rawCookie('_ga', 'GA1.1.1907690628.1747750782');
    expect(readAttribution(true, page)).toEqual({ clientId: '1907690628.1747750782' });
  });

  test('on a page that adds enumerable properties to Object.prototype (old plugins), the cookies read are still the ones written', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    proto.extend = function (this: Record<string, unknown>, o: Record<string, unknown>) {
      for (const k in o) this[k] = o[k];
      return this;
    };
    try {
      trackingCookie('rngst2', { utmz: { utm_source: 'google' } });
      rawCookie('_ga', 'GA1.1.1907690628.1747750782');
      expect(readAttribution(true, page)).toEqual({ utmSource: 'google', clientId: '1907690628.1747750782' });
    } finally {
      delete proto.polluted;
      delete proto.extend;
    }
  });
});

describe('utm in the page URL as the fallback', () => {
  test('used when rngst2 holds no utm values, from the current URL first, then the URL at load', () => {
    expect(readAttribution(true, 'https://shop.example/?utm_source=newsletter&utm_medium=email&utm_campaign=may')).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'may',
    });
    expect(readAttribution(true, 'https://shop.example/checkout', 'https://shop.example/?utm_source=fb&utm_term=(not%20set)')).toEqual({
      utmSource: 'fb',
      utmTerm: '(not set)',
    });
  });

  test('the cookie wins over the URL; never a mix of both', () => {
    trackingCookie('rngst2', { utmz: { utm_source: 'google' } });
    expect(readAttribution(true, 'https://shop.example/?utm_source=fb&utm_medium=social')).toEqual({ utmSource: 'google' });
  });

  test('a page address that is not a URL is ignored', () => {
    expect(readAttribution(true, 'not a url')).toEqual({});
  });
});

describe('without analytics consent', () => {
  test('no cookie is read at all; utm values in the page address still count', () => {
    trackingCookie('rngst2', { utmz: { utm_source: 'google', utm_medium: 'cpc' }, sl: 'x' });
    rawCookie('_ga', 'GA1.1.1907690628.1747750782');
    const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    const reads = vi.spyOn(cookie, 'get');
    Object.defineProperty(Document.prototype, 'cookie', cookie);
    try {
      expect(readAttribution(false, 'https://shop.example/?utm_source=newsletter&utm_medium=email')).toEqual({ utmSource: 'newsletter', utmMedium: 'email' });
      expect(readAttribution(false, page)).toEqual({});
      expect(reads).not.toHaveBeenCalled();
      // With consent the same reader reads them (through the same getter).
      expect(readAttribution(true, page)).toEqual({ utmSource: 'google', utmMedium: 'cpc', clientId: '1907690628.1747750782' });
      expect(reads).toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      Object.defineProperty(Document.prototype, 'cookie', cookie);
    }
  });
});
